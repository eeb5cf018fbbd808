/** Lower case without accents ("Zoë" → "zoe"), for matching that ignores both. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** What a track can be found by: its title, album and artists, folded. */
export function trackSearchText(title: string, album: string | null, artists: readonly string[]) {
  return foldText([title, album ?? '', ...artists].join(' '))
    .replace(/\s+/g, ' ')
    .trim();
}
