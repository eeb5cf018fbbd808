import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { historyFileKind, readHistoryRow } from '../src/services/import/rows';

const samples = new URL('../../../reference/spotify/samples/', import.meta.url);
const load = (name: string): unknown => JSON.parse(readFileSync(new URL(name, samples), 'utf8'));

describe('history files', () => {
  it.each([
    ['Spotify Extended Streaming History/Streaming_History_Audio_2023.json', 'extended_audio'],
    [
      'Spotify Extended Streaming History/Streaming_History_Audio_2019-2021_3.json',
      'extended_audio',
    ],
    ['MyData/endsong_0.json', 'extended_audio'],
    ['Spotify Extended Streaming History/Streaming_History_Video_2021-2024.json', 'extended_video'],
    ['MyData/StreamingHistory0.json', 'account_music'],
    ['Spotify Account Data/StreamingHistory_music_1.json', 'account_music'],
    ['Spotify Account Data/StreamingHistory_podcast_0.json', 'account_podcast'],
    ['Spotify Account Data/Userdata.json', null],
    ['ReadMeFirst_ExtendedStreamingHistory.pdf', null],
  ])('%s is %s', (name, kind) => {
    expect(historyFileKind(name)).toBe(kind);
  });
});

describe('rows of the real samples', () => {
  it('keeps music of 30 s or more and says why it skips the rest (current format)', () => {
    const rows = load('extended-history-entries.current-format.json') as unknown[];
    const outcomes = rows.slice(0, 6).map((row) => readHistoryRow('extended_audio', row));
    expect(outcomes.map((o) => ('play' in o ? 'play' : o.skipped))).toEqual([
      'play',
      'short',
      'short',
      'play',
      'short',
      'short',
    ]);
    expect(outcomes[0]).toEqual({
      play: {
        playedAt: new Date('2023-09-25T12:26:38Z'),
        msPlayed: 228000,
        trackId: '0MNgTp3FLtbPiCvrG8lsru',
        trackName: 'Ye Pyar Nahi To Kya Hai',
        artistName: 'Rahul Jain',
        albumName: 'Ye Pyar Nahi To Kya Hai',
      },
    });
    // The last two come from a Video file: a music video and a video episode.
    expect(rows.slice(6).map((row) => readHistoryRow('extended_video', row))).toEqual([
      { skipped: 'video' },
      { skipped: 'video' },
    ]);
    expect(readHistoryRow('extended_audio', rows[7])).toEqual({ skipped: 'podcast' });
  });

  it('reads the legacy field set', () => {
    const [row] = load('extended-history-entries.legacy-format.json') as unknown[];
    expect(readHistoryRow('extended_audio', row)).toMatchObject({
      play: { trackId: '0kYk4wjotkjhLVV7kqh5oA', msPlayed: 321800 },
    });
  });

  it('reads Account data rows by name, and skips their podcasts', () => {
    const { samples: variants } = load('account-data-sample.json') as {
      samples: { source: { path: string }; entries: unknown[] }[];
    };
    const [older, newer, podcasts] = variants;
    expect(readHistoryRow('account_music', older!.entries[0])).toEqual({
      play: {
        playedAt: new Date('2020-06-16T16:55:00Z'),
        msPlayed: 32512,
        trackId: null,
        trackName: 'Father And Son',
        artistName: 'Yusuf / Cat Stevens',
        albumName: null,
      },
    });
    expect(readHistoryRow('account_music', newer!.entries[0])).toHaveProperty('play');
    expect(readHistoryRow('account_podcast', podcasts!.entries[0])).toEqual({ skipped: 'podcast' });
  });

  it('counts rows of the wrong shape as malformed', () => {
    for (const row of [
      null,
      42,
      [],
      { ts: 'yesterday', ms_played: 1 },
      { ts: '2024-01-01T00:00:00Z' },
    ]) {
      expect(readHistoryRow('extended_audio', row)).toEqual({ skipped: 'malformed' });
    }
    expect(readHistoryRow('account_music', { endTime: '2024-01-01', msPlayed: 1 })).toEqual({
      skipped: 'malformed',
    });
  });

  it('skips incognito plays', () => {
    const [row] = load('extended-history-entries.current-format.json') as Record<string, unknown>[];
    expect(readHistoryRow('extended_audio', { ...row, incognito_mode: true })).toEqual({
      skipped: 'incognito',
    });
  });
});
