import { createHash } from 'node:crypto';
import { html, renderHtml } from '../http/html';
import type { SandboxAccount } from '../world/account';
import { SANS_FONT } from './raster';

/** The sizes Spotify serves profile pictures in, in the order the Web API lists them. */
export const AVATAR_SIZES = [64, 300] as const;
export type AvatarSize = (typeof AVATAR_SIZES)[number];

export function isAvatarSize(value: number): value is AvatarSize {
  return (AVATAR_SIZES as readonly number[]).includes(value);
}

/** Path of an avatar below the sandbox root; no extension, as on Spotify's `i.scdn.co`. */
export function avatarPath(accountId: string, size: AvatarSize): string {
  return `images/avatars/${size}/${encodeURIComponent(accountId)}`;
}

/** The Web API's `images` of a user: absolute URLs below the sandbox's public URL. */
export function avatarImages(account: SandboxAccount, publicUrl: string) {
  return AVATAR_SIZES.map((size) => ({
    url: `${publicUrl}/${avatarPath(account.id, size)}`,
    height: size,
    width: size,
  }));
}

/**
 * A profile picture drawn from the account alone: a two-tone gradient, two soft discs and the
 * initials. The same account always gets the same picture. Drawn as SVG, served as PNG.
 */
export function renderAvatarSvg(account: SandboxAccount, size: AvatarSize): string {
  const hash = createHash('sha256').update(account.id).digest();
  const byte = (index: number) => hash.readUInt8(index);
  const hue = Math.round((byte(0) / 255) * 360);
  const secondHue = (hue + 30 + Math.round((byte(1) / 255) * 60)) % 360;
  const discs = [0, 1].map((disc) => {
    const offset = 2 + disc * 3;
    return html`<circle
      cx="${10 + (byte(offset) % 80)}"
      cy="${10 + (byte(offset + 1) % 80)}"
      r="${20 + (byte(offset + 2) % 25)}"
      fill="#ffffff"
      fill-opacity="0.12"
    />`;
  });
  return renderHtml(
    html`<svg
      xmlns="http://www.w3.org/2000/svg"
      width="${size}"
      height="${size}"
      viewBox="0 0 100 100"
    >
      <defs>
        <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stop-color="hsl(${hue} 62% 52%)" />
          <stop offset="1" stop-color="hsl(${secondHue} 68% 30%)" />
        </linearGradient>
      </defs>
      <rect width="100" height="100" fill="url(#bg)" />
      ${discs}
      <text
        x="50"
        y="50"
        dy="0.35em"
        text-anchor="middle"
        font-family="${SANS_FONT}"
        font-size="38"
        font-weight="600"
        fill="#ffffff"
      >
        ${initials(account.displayName)}
      </text>
    </svg> `,
  );
}

function initials(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0]];
  return letters
    .map((word) => [...(word ?? '')][0] ?? '')
    .join('')
    .toUpperCase();
}
