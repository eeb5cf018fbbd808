/**
 * Reading the rows of Spotify's listening-history exports (see reference/spotify/README.md, "The export
 * formats"): the Extended Streaming History (current and legacy field sets, audio and video files)
 * and the older Account data (StreamingHistory files without URIs).
 */

/** Spotify's own definition of a stream: 30 seconds or more. */
export const MIN_STREAM_MS = 30_000;

export type SkipReason =
  | 'podcast'
  | 'audiobook'
  | 'video'
  | 'short'
  | 'incognito'
  | 'no_track'
  | 'malformed'
  | 'duplicate';

/** A music play as the export tells it: names at once, the URI's track id when there is one. */
export interface ImportedPlay {
  playedAt: Date;
  msPlayed: number;
  /** Spotify track id, from `spotify:track:<id>`; absent in Account-data exports. */
  trackId: string | null;
  trackName: string;
  artistName: string;
  albumName: string | null;
}

export type RowOutcome = { play: ImportedPlay } | { skipped: SkipReason };

/** What kind of file an entry of the ZIP is, by its name; null for anything that is not history. */
export type HistoryFileKind =
  'extended_audio' | 'extended_video' | 'account_music' | 'account_podcast';

export function historyFileKind(entryName: string): HistoryFileKind | null {
  const base = entryName.split('/').pop() ?? '';
  if (/^Streaming_History_Audio_.*\.json$/i.test(base) || /^endsong(_\d+)?\.json$/i.test(base)) {
    return 'extended_audio';
  }
  if (/^Streaming_History_Video_.*\.json$/i.test(base)) return 'extended_video';
  if (/^StreamingHistory_podcast_\d+\.json$/i.test(base)) return 'account_podcast';
  if (/^StreamingHistory(_music_)?\d+\.json$/i.test(base)) return 'account_music';
  return null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

const TRACK_URI = /^spotify:track:([0-9A-Za-z]{22})$/;

function extendedRow(row: Record<string, unknown>, video: boolean): RowOutcome {
  const playedAt = typeof row.ts === 'string' ? new Date(row.ts) : null;
  const msPlayed = row.ms_played;
  if (!playedAt || Number.isNaN(playedAt.getTime()) || typeof msPlayed !== 'number') {
    return { skipped: 'malformed' };
  }
  if (video) return { skipped: 'video' };
  const uri = text(row.spotify_track_uri);
  if (!uri) {
    if (text(row.spotify_episode_uri) || text(row.episode_name)) return { skipped: 'podcast' };
    if (text(row.audiobook_uri) || text(row.audiobook_title)) return { skipped: 'audiobook' };
    return { skipped: 'no_track' };
  }
  const match = TRACK_URI.exec(uri);
  const trackName = text(row.master_metadata_track_name);
  const artistName = text(row.master_metadata_album_artist_name);
  if (!match || !trackName || !artistName) return { skipped: 'malformed' };
  if (row.incognito_mode === true) return { skipped: 'incognito' };
  if (msPlayed < MIN_STREAM_MS) return { skipped: 'short' };
  return {
    play: {
      playedAt,
      msPlayed,
      trackId: match[1]!,
      trackName,
      artistName,
      albumName: text(row.master_metadata_album_album_name),
    },
  };
}

/** "YYYY-MM-DD HH:MM" in UTC, minute precision. */
function accountDataTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const date = new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:00Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

function accountDataRow(row: Record<string, unknown>, podcastFile: boolean): RowOutcome {
  const playedAt = accountDataTime(row.endTime);
  const msPlayed = row.msPlayed;
  if (!playedAt || typeof msPlayed !== 'number') return { skipped: 'malformed' };
  if (podcastFile || text(row.podcastName) || text(row.episodeName)) return { skipped: 'podcast' };
  const trackName = text(row.trackName);
  const artistName = text(row.artistName);
  if (!trackName || !artistName) return { skipped: 'malformed' };
  if (msPlayed < MIN_STREAM_MS) return { skipped: 'short' };
  return { play: { playedAt, msPlayed, trackId: null, trackName, artistName, albumName: null } };
}

/** One row of a history file of the given kind: a play to store, or why it is skipped. */
export function readHistoryRow(kind: HistoryFileKind, row: unknown): RowOutcome {
  if (!isRecord(row)) return { skipped: 'malformed' };
  switch (kind) {
    case 'extended_audio':
      return extendedRow(row, false);
    case 'extended_video':
      return extendedRow(row, true);
    case 'account_music':
      return accountDataRow(row, false);
    case 'account_podcast':
      return accountDataRow(row, true);
  }
}
