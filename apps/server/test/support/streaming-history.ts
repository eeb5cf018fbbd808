/**
 * A row of Spotify's Extended Streaming History, shaped exactly like those of real exports (every
 * field of the current field set), with `fields` over a real sample's values.
 */
export const extendedHistoryRow = (
  fields: Record<string, unknown> = {},
): Record<string, unknown> => ({
  ts: '2023-09-25T12:26:38Z',
  platform: 'windows',
  ms_played: 228000,
  conn_country: 'IN',
  ip_addr: '192.0.2.10',
  master_metadata_track_name: 'Ye Pyar Nahi To Kya Hai',
  master_metadata_album_artist_name: 'Rahul Jain',
  master_metadata_album_album_name: 'Ye Pyar Nahi To Kya Hai',
  spotify_track_uri: 'spotify:track:0MNgTp3FLtbPiCvrG8lsru',
  episode_name: null,
  episode_show_name: null,
  spotify_episode_uri: null,
  audiobook_title: null,
  audiobook_uri: null,
  audiobook_chapter_uri: null,
  audiobook_chapter_title: null,
  reason_start: 'playbtn',
  reason_end: 'trackdone',
  shuffle: false,
  skipped: false,
  offline: false,
  offline_timestamp: 1695644471,
  incognito_mode: false,
  ...fields,
});
