import { foldText } from './text';

/**
 * Song identity (ARCHITECTURE "Domain words"): Spotify versions of one recording share a `uid`.
 * Same ISRC means same song; without an ISRC match, the same normalised title and primary
 * artist do. Normalising drops what only tells versions apart: accents, case, punctuation, and
 * version notes such as "- Remastered 2011", "(Radio Edit)" or "[Live]".
 */
const VERSION_NOTE =
  /\s*(?:-\s+|\(|\[)(?:[^()[\]]*\b(?:remaster(?:ed)?|version|edit|mix|mono|stereo|live|deluxe|anniversary|bonus|demo|acoustic|single|explicit|clean|feat|ft)\b[^()[\]]*)(?:\)|\])?\s*$/i;

function normalise(text: string): string {
  return foldText(text)
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function songTitle(title: string): string {
  let stripped = title;
  for (let previous = ''; previous !== stripped;) {
    previous = stripped;
    stripped = stripped.replace(VERSION_NOTE, '');
  }
  return normalise(stripped || title);
}

export function titleKey(title: string, primaryArtist: string): string {
  return `${songTitle(title)}|${normalise(primaryArtist)}`;
}
