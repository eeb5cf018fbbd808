import { createRequire } from 'node:module';
import { renderAsync } from '@resvg/resvg-js';

/**
 * The fonts the drawings' text is set in, shipped with the sandbox: the picture of an album is
 * the same on every machine, with or without fonts installed.
 */
export const SANS_FONT = 'DejaVu Sans';
export const SERIF_FONT = 'DejaVu Serif';

const fontFile = (name: string) =>
  createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}.ttf`);
const FONT_FILES = ['DejaVuSans', 'DejaVuSans-Bold', 'DejaVuSerif-Bold'].map(fontFile);

/**
 * A drawing as the PNG a browser receives. Spotify serves bitmaps, and a browser decodes a bitmap
 * off its main thread, where an SVG image is a document it parses, lays out and paints on it.
 * The drawing is rendered on libuv's thread pool; only the PNG encoding (1-8 ms, by size) runs
 * on the event loop of the sandbox (and of the Earshot server it may be mounted in).
 */
export async function rasterize(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, {
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: SANS_FONT },
  });
  return image.asPng();
}
