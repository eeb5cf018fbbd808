import { describe, expect, it } from 'vitest';
import { renderAvatarSvg } from '../src/images/avatar';
import { rasterize, SANS_FONT, SERIF_FONT } from '../src/images/raster';
import type { SandboxAccount } from '../src/world/account';
import { pngSize } from './helpers';

const lettering = (family: string, text: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">` +
  `<text x="4" y="30" font-family="${family}" font-weight="700" font-size="28">${text}</text></svg>`;

describe('rasterize', () => {
  it('paints text in the fonts shipped with the sandbox, whatever the machine has', async () => {
    const blank = await rasterize(lettering(SANS_FONT, ''));
    const sans = await rasterize(lettering(SANS_FONT, 'Åbc'));
    const serif = await rasterize(lettering(SERIF_FONT, 'Åbc'));
    expect(pngSize(sans)).toEqual({ width: 120, height: 40 });
    expect(sans.equals(blank)).toBe(false);
    expect(serif.equals(blank)).toBe(false);
    expect(serif.equals(sans)).toBe(false);
  });

  it('draws an avatar with the initials of the name, the same each time', async () => {
    const account = { id: 'someone', displayName: 'Maya  van Lind' } as SandboxAccount;
    const svg = renderAvatarSvg(account, 64);
    expect(svg).toMatch(/>\s*ML\s*<\/text>/);
    const picture = await rasterize(svg);
    expect(pngSize(picture)).toEqual({ width: 64, height: 64 });
    expect((await rasterize(svg)).equals(picture)).toBe(true);
    const withoutInitials = await rasterize(svg.replace(/>\s*ML\s*</, '><'));
    expect(withoutInitials.equals(picture)).toBe(false);
  });
});
