import { html, renderHtml, type Markup } from '../http/html';
import type { Album, Artist, Playlist, World } from '../world/model';
import { hashString, Random } from '../world/random';
import { SANS_FONT, SERIF_FONT } from './raster';

/**
 * Pictures of the catalogue, drawn rather than fetched: album covers, playlist mosaics (four
 * covers, as Spotify composes them) and artist pictures. Each is a function of the item alone, so
 * the same album always has the same cover. Drawn as SVG, served as PNG (see `rasterize`).
 */

/** The sizes Spotify serves album covers, artist pictures and playlist mosaics in, largest first. */
export const ALBUM_IMAGE_SIZES = [640, 300, 64] as const;
export const ARTIST_IMAGE_SIZES = [640, 320, 160] as const;
export const MOSAIC_IMAGE_SIZES = [640, 300, 60] as const;

export interface ImageObject {
  url: string;
  height: number;
  width: number;
}

/** Path of an album cover below the sandbox root; no extension, as on Spotify's `i.scdn.co`. */
export function albumImagePath(albumId: string, size: number): string {
  return `images/albums/${size}/${encodeURIComponent(albumId)}`;
}

export function artistImagePath(artistId: string, size: number): string {
  return `images/artists/${size}/${encodeURIComponent(artistId)}`;
}

/** A mosaic is named by the four album ids it shows, like Spotify's `mosaic.scdn.co` URLs. */
export function mosaicImagePath(albumIds: readonly string[], size: number): string {
  return `images/mosaics/${size}/${albumIds.map(encodeURIComponent).join('')}`;
}

/** The Web API's `images` of an album: absolute URLs below the sandbox's public URL. */
export function albumImages(album: Album, publicUrl: string): ImageObject[] {
  return ALBUM_IMAGE_SIZES.map((size) =>
    square(`${publicUrl}/${albumImagePath(album.id, size)}`, size),
  );
}

export function artistImages(artist: Artist, publicUrl: string): ImageObject[] {
  return ARTIST_IMAGE_SIZES.map((size) =>
    square(`${publicUrl}/${artistImagePath(artist.id, size)}`, size),
  );
}

/**
 * A playlist's `images` at a time, as Spotify makes them: a mosaic of the covers of its first four
 * albums, the first album's cover when it has fewer than four, none when it is empty.
 */
export function playlistImages(
  world: World,
  playlist: Playlist,
  atMs: number,
  publicUrl: string,
): ImageObject[] {
  const albumIds: string[] = [];
  for (const item of world.playlistItems(playlist.id, atMs)) {
    const albumId = world.track(item.trackId)?.albumId;
    if (albumId && !albumIds.includes(albumId)) albumIds.push(albumId);
    if (albumIds.length === 4) break;
  }
  const first = albumIds[0] === undefined ? undefined : world.album(albumIds[0]);
  if (!first) return [];
  if (albumIds.length < 4) return albumImages(first, publicUrl);
  return MOSAIC_IMAGE_SIZES.map((size) =>
    square(`${publicUrl}/${mosaicImagePath(albumIds, size)}`, size),
  );
}

function square(url: string, size: number): ImageObject {
  return { url, height: size, width: size };
}

/** An album's cover at a size: one of several styles, colours and text, chosen by its id. */
export function renderAlbumCover(album: Album, artistName: string, size: number): string {
  return renderHtml(frame(size, coverArt(album, artistName, 'c')));
}

/** Four covers in a 2×2 grid. */
export function renderMosaic(
  covers: readonly { album: Album; artistName: string }[],
  size: number,
) {
  const tiles = covers
    .slice(0, 4)
    .map(
      ({ album, artistName }, index) =>
        html`<svg
          x="${(index % 2) * 50}"
          y="${Math.floor(index / 2) * 50}"
          width="50"
          height="50"
          viewBox="0 0 100 100"
        >
          ${coverArt(album, artistName, `m${index}`)}
        </svg>`,
    );
  return renderHtml(frame(size, tiles));
}

/** An artist's picture: a duotone silhouette before a backdrop, in colours of its own. */
export function renderArtistPicture(artist: Artist, size: number): string {
  const random = new Random(hashString(`artist:${artist.id}`));
  const hue = random.int(0, 359);
  const light = `hsl(${hue} ${random.int(35, 70)}% ${random.int(62, 78)}%)`;
  const dark = `hsl(${(hue + random.int(150, 210)) % 360} ${random.int(30, 60)}% ${random.int(14, 26)}%)`;
  const headX = random.int(42, 58);
  const headY = random.int(34, 42);
  const headR = random.int(13, 17);
  const shoulders = `M${headX - 38} 100 C${headX - 34} ${headY + 30} ${headX - 16} ${headY + 22} ${headX} ${headY + 22} C${headX + 16} ${headY + 22} ${headX + 34} ${headY + 30} ${headX + 38} 100 Z`;
  const rings = Array.from({ length: random.int(2, 4) }, () => {
    return html`<circle
      cx="${random.int(0, 100)}"
      cy="${random.int(0, 100)}"
      r="${random.int(20, 60)}"
      fill="none"
      stroke="${dark}"
      stroke-opacity="0.15"
      stroke-width="${random.int(2, 8)}"
    />`;
  });
  return renderHtml(
    frame(
      size,
      html`<rect width="100" height="100" fill="${light}" />
        ${rings}
        <path d="${shoulders}" fill="${dark}" />
        <circle cx="${headX}" cy="${headY}" r="${headR}" fill="${dark}" />`,
    ),
  );
}

function frame(size: number, content: Markup | readonly Markup[]): Markup {
  return html`<svg
    xmlns="http://www.w3.org/2000/svg"
    width="${size}"
    height="${size}"
    viewBox="0 0 100 100"
  >
    ${content}
  </svg>`;
}

type Palette = [string, string, string, string];

function palette(random: Random): Palette {
  const hue = random.int(0, 359);
  const scheme = random.pick([30, 150, 180, 210, 120]);
  const saturation = random.int(25, 85);
  const colour = (shift: number, lightness: number) =>
    `hsl(${(hue + shift) % 360} ${saturation}% ${lightness}%)`;
  return [
    colour(0, random.int(12, 30)),
    colour(scheme, random.int(45, 65)),
    colour(scheme / 2, random.int(60, 80)),
    colour(0, random.int(85, 95)),
  ];
}

/** The picture of a cover in a 100×100 box; `prefix` keeps gradient ids unique in a mosaic. */
function coverArt(album: Album, artistName: string, prefix: string): Markup {
  const random = new Random(hashString(`album:${album.id}`));
  const colours = palette(random);
  const [deep, middle, , pale] = colours;
  const style = random.int(0, 5);
  let art: Markup;
  switch (style) {
    case 0: {
      // A sun over a horizon, its lower half sliced.
      const cy = random.int(38, 55);
      const slices = Array.from(
        { length: 5 },
        (_, index) =>
          html`<rect
            x="0"
            y="${cy + 4 + index * 4}"
            width="100"
            height="${1 + index * 0.6}"
            fill="${deep}"
          />`,
      );
      art = html`<defs
          ><linearGradient id="${prefix}sky" x1="0" y1="0" x2="0" y2="1"
            ><stop offset="0" stop-color="${deep}" /><stop
              offset="1"
              stop-color="${middle}" /></linearGradient
        ></defs>
        <rect width="100" height="100" fill="url(#${prefix}sky)" />
        <circle cx="50" cy="${cy}" r="${random.int(18, 28)}" fill="${pale}" />
        ${slices}
        <rect x="0" y="${cy + 26}" width="100" height="${100 - cy - 26}" fill="${deep}" />`;
      break;
    }
    case 1: {
      // Bands of colour, straight or tilted.
      const angle = random.pick([0, 0, 45, -30, 90]);
      const count = random.int(3, 7);
      const width = 200 / count;
      const bands = Array.from(
        { length: count },
        (_, index) =>
          html`<rect
            x="-50"
            y="${-50 + index * width}"
            width="200"
            height="${width}"
            fill="${colours[index % 4] as string}"
          />`,
      );
      art = html`<rect width="100" height="100" fill="${deep}" /><g
          transform="rotate(${angle} 50 50)"
          >${bands}</g
        >`;
      break;
    }
    case 2: {
      // Rings around an off-centre point.
      const cx = random.int(20, 80);
      const cy = random.int(20, 80);
      const rings = Array.from({ length: 7 }, (_, index) => {
        const r = 70 - index * 10;
        return html`<circle
          cx="${cx}"
          cy="${cy}"
          r="${r}"
          fill="${colours[index % 4] as string}"
        />`;
      });
      art = html`<rect width="100" height="100" fill="${pale}" />${rings}`;
      break;
    }
    case 3: {
      // A grid of squares and discs.
      const cells: Markup[] = [];
      for (let row = 0; row < 4; row++) {
        for (let column = 0; column < 4; column++) {
          const fill = random.pick(colours);
          cells.push(
            random.chance(0.5)
              ? html`<rect
                  x="${column * 25}"
                  y="${row * 25}"
                  width="25"
                  height="25"
                  fill="${fill}"
                />`
              : html`<circle
                  cx="${column * 25 + 12.5}"
                  cy="${row * 25 + 12.5}"
                  r="11"
                  fill="${fill}"
                />`,
          );
        }
      }
      art = html`<rect width="100" height="100" fill="${deep}" />${cells}`;
      break;
    }
    case 4: {
      // Stacked waves.
      const lines = Array.from({ length: 12 }, (_, index) => {
        const y = 20 + index * 5.5;
        const peak = random.int(4, 18);
        const at = random.int(30, 70);
        const d = `M10 ${y} L${at - 12} ${y} Q${at - 6} ${y} ${at} ${y - peak} Q${at + 6} ${y} ${at + 12} ${y} L90 ${y}`;
        return html`<path d="${d}" fill="${deep}" stroke="${pale}" stroke-width="0.8" />`;
      });
      art = html`<rect width="100" height="100" fill="${deep}" />${lines}`;
      break;
    }
    default: {
      // Soft light through colour.
      const glows = Array.from({ length: 3 }, (_, index) => {
        const id = `${prefix}glow${index}`;
        const fill = colours[index + 1] as string;
        return html`<defs
            ><radialGradient id="${id}"
              ><stop offset="0" stop-color="${fill}" /><stop
                offset="1"
                stop-color="${fill}"
                stop-opacity="0" /></radialGradient
          ></defs>
          <circle
            cx="${random.int(10, 90)}"
            cy="${random.int(10, 90)}"
            r="${random.int(35, 60)}"
            fill="url(#${id})"
          />`;
      });
      art = html`<rect width="100" height="100" fill="${deep}" />${glows}`;
    }
  }
  return html`${art}${random.chance(0.55) ? coverText(random, album.name, artistName, pale, deep) : []}`;
}

function coverText(random: Random, title: string, artistName: string, light: string, dark: string) {
  const onTop = random.chance(0.5);
  const fill = random.chance(0.7) ? light : dark;
  const shortTitle = title.length > 36 ? `${title.slice(0, 35)}…` : title;
  const titleSize = Math.min(10, Math.max(3.5, 150 / Math.max(1, shortTitle.length)));
  const titleY = onTop ? 8 + titleSize : 92;
  const artistY = onTop ? titleY + 7 : titleY - titleSize - 2;
  return html`<text
      x="8"
      y="${titleY}"
      font-family="${SERIF_FONT}"
      font-size="${titleSize.toFixed(1)}"
      font-weight="700"
      fill="${fill}"
      >${shortTitle}</text
    >
    <text
      x="8"
      y="${artistY}"
      font-family="${SANS_FONT}"
      font-size="4.5"
      letter-spacing="0.6"
      fill="${fill}"
      >${artistName.toUpperCase()}</text
    >`;
}
