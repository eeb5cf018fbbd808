import { describe, expect, it } from 'vitest';
import { historyFileKind, readHistoryRow } from '../src/services/import/rows';
import { extendedHistoryRow } from './support/streaming-history';

const noTrack = {
  master_metadata_track_name: null,
  master_metadata_album_artist_name: null,
  master_metadata_album_album_name: null,
  spotify_track_uri: null,
};

const accountRow = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  endTime: '2020-06-16 16:55',
  artistName: 'Yusuf / Cat Stevens',
  trackName: 'Father And Son',
  msPlayed: 32512,
  ...fields,
});

const outcome = (result: ReturnType<typeof readHistoryRow>) =>
  'play' in result ? 'play' : result.skipped;

describe('history files', () => {
  it.each([
    ['Spotify Extended Streaming History/Streaming_History_Audio_2023.json', 'extended_audio'],
    [
      'Spotify Extended Streaming History/Streaming_History_Audio_2019-2021_3.json',
      'extended_audio',
    ],
    ['Streaming_History_Audio_2023_12.json', 'extended_audio'],
    ['MyData/endsong_0.json', 'extended_audio'],
    ['MyData/endsong_12.json', 'extended_audio'],
    ['MyData/endsong.json', 'extended_audio'],
    ['Spotify Extended Streaming History/Streaming_History_Video_2021-2024.json', 'extended_video'],
    ['MyData/StreamingHistory0.json', 'account_music'],
    ['MyData/StreamingHistory10.json', 'account_music'],
    ['Spotify Account Data/StreamingHistory_music_1.json', 'account_music'],
    ['Spotify Account Data/StreamingHistory_music_10.json', 'account_music'],
    ['Spotify Account Data/StreamingHistory_podcast_0.json', 'account_podcast'],
    ['Spotify Account Data/StreamingHistory_podcast_11.json', 'account_podcast'],
    ['STREAMING_HISTORY_AUDIO_2023.JSON', 'extended_audio'],
    ['Spotify Account Data/Userdata.json', null],
    ['ReadMeFirst_ExtendedStreamingHistory.pdf', null],
    // Names that only contain a history file's name are not history files.
    ['Old_Streaming_History_Audio_2023.json', null],
    ['Streaming_History_Audio_2023.json.bak', null],
    ['Copy_of_Streaming_History_Video_2021.json', null],
    ['Streaming_History_Video_2021.json.txt', null],
    ['old_endsong_1.json', null],
    ['endsong_1.json.json', null],
    ['endsong_.json', null],
    ['My_StreamingHistory_podcast_0.json', null],
    ['StreamingHistory_podcast_0.json.json', null],
    ['StreamingHistory_podcast_.json', null],
    ['MyStreamingHistory0.json', null],
    ['StreamingHistory0.json.json', null],
    ['StreamingHistory_music_.json', null],
  ])('%s is %s', (name, kind) => {
    expect(historyFileKind(name)).toBe(kind);
  });
});

describe('Extended Streaming History rows', () => {
  it('reads a music play, names trimmed and the track id from its URI', () => {
    expect(
      readHistoryRow(
        'extended_audio',
        extendedHistoryRow({
          master_metadata_track_name: ' Ye Pyar Nahi To Kya Hai ',
          master_metadata_album_artist_name: '\tRahul Jain',
        }),
      ),
    ).toEqual({
      play: {
        playedAt: new Date('2023-09-25T12:26:38Z'),
        msPlayed: 228000,
        trackId: '0MNgTp3FLtbPiCvrG8lsru',
        trackName: 'Ye Pyar Nahi To Kya Hai',
        artistName: 'Rahul Jain',
        albumName: 'Ye Pyar Nahi To Kya Hai',
      },
    });
  });

  it('reads the legacy field set', () => {
    const legacy = {
      ts: '2023-02-23T23:05:53Z',
      username: 'example_user',
      platform: 'ios',
      ms_played: 321800,
      conn_country: 'US',
      ip_addr_decrypted: 'Some IP Address',
      user_agent_decrypted: 'unknown',
      master_metadata_track_name: 'Another Chance',
      master_metadata_album_artist_name: 'Hikaru Utada',
      master_metadata_album_album_name: 'First Love',
      spotify_track_uri: 'spotify:track:0kYk4wjotkjhLVV7kqh5oA',
      episode_name: null,
      episode_show_name: null,
      spotify_episode_uri: null,
      reason_start: 'trackdone',
      reason_end: 'trackdone',
      shuffle: false,
      skipped: false,
      offline: false,
      offline_timestamp: 1677193232,
      incognito_mode: false,
    };
    expect(readHistoryRow('extended_audio', legacy)).toEqual({
      play: {
        playedAt: new Date('2023-02-23T23:05:53Z'),
        msPlayed: 321800,
        trackId: '0kYk4wjotkjhLVV7kqh5oA',
        trackName: 'Another Chance',
        artistName: 'Hikaru Utada',
        albumName: 'First Love',
      },
    });
  });

  it('has no album when the album name is missing or blank', () => {
    for (const album of [null, '', '   ']) {
      const result = readHistoryRow(
        'extended_audio',
        extendedHistoryRow({ master_metadata_album_album_name: album }),
      );
      expect(result).toMatchObject({ play: { albumName: null } });
    }
  });

  it.each([
    [0, 'short'],
    [29_999, 'short'],
    [30_000, 'play'],
    [30_001, 'play'],
  ])('a play of %i ms is %s (Spotify counts a stream from 30 s)', (ms, expected) => {
    expect(outcome(readHistoryRow('extended_audio', extendedHistoryRow({ ms_played: ms })))).toBe(
      expected,
    );
  });

  it('skips incognito plays, however long', () => {
    expect(readHistoryRow('extended_audio', extendedHistoryRow({ incognito_mode: true }))).toEqual({
      skipped: 'incognito',
    });
  });

  it('skips every row of a Video file, music videos included', () => {
    expect(readHistoryRow('extended_video', extendedHistoryRow())).toEqual({ skipped: 'video' });
  });

  it.each([
    [
      'an episode',
      {
        ...noTrack,
        episode_name: 'Alan Walker',
        episode_show_name: '2021 Wrapped',
        spotify_episode_uri: 'spotify:episode:23GmjwY7pqkTcaGK5l2gFX',
      },
      'podcast',
    ],
    [
      'an episode known by its URI only',
      { ...noTrack, spotify_episode_uri: 'spotify:episode:23GmjwY7pqkTcaGK5l2gFX' },
      'podcast',
    ],
    ['an episode known by its name only', { ...noTrack, episode_name: 'Alan Walker' }, 'podcast'],
    [
      'an audiobook chapter',
      {
        ...noTrack,
        audiobook_title: 'Dune',
        audiobook_uri: 'spotify:show:5Ox9Wgt6yXgbGzJ2TW2ZrF',
        audiobook_chapter_uri: 'spotify:episode:2ABdaqJmGa8sKRFvNWnx9G',
        audiobook_chapter_title: 'Chapter 1',
      },
      'audiobook',
    ],
    [
      'an audiobook known by its URI only',
      { ...noTrack, audiobook_uri: 'spotify:show:5Ox9Wgt6yXgbGzJ2TW2ZrF' },
      'audiobook',
    ],
    ['an audiobook known by its title only', { ...noTrack, audiobook_title: 'Dune' }, 'audiobook'],
    ['a row with no track, episode or audiobook', noTrack, 'no_track'],
    ['a row whose track URI is blank', { spotify_track_uri: '  ' }, 'no_track'],
  ])('%s is skipped as %s', (_what, fields, expected) => {
    expect(readHistoryRow('extended_audio', extendedHistoryRow(fields))).toEqual({
      skipped: expected,
    });
  });

  // Each row is malformed in exactly one way, so each check is needed on its own.
  it.each([
    ['no timestamp', { ts: undefined }],
    ['a timestamp that is a number', { ts: 1695644798000 }],
    ['a timestamp that is not a date', { ts: 'yesterday' }],
    ['no duration', { ms_played: undefined }],
    ['a duration that is text', { ms_played: '228000' }],
    [
      'a track URI of another kind',
      { spotify_track_uri: 'spotify:episode:0MNgTp3FLtbPiCvrG8lsru' },
    ],
    ['a track id too short', { spotify_track_uri: 'spotify:track:0MNgTp3FLtbPiCvrG8lsr' }],
    ['a track id too long', { spotify_track_uri: 'spotify:track:0MNgTp3FLtbPiCvrG8lsruX' }],
    [
      'a track id with a stray character',
      { spotify_track_uri: 'spotify:track:0MNgTp3FLtbPiCvrG8ls-u' },
    ],
    ['text before the URI', { spotify_track_uri: 'xspotify:track:0MNgTp3FLtbPiCvrG8lsru' }],
    ['text after the URI', { spotify_track_uri: 'spotify:track:0MNgTp3FLtbPiCvrG8lsru/x' }],
    ['no track name', { master_metadata_track_name: null }],
    ['a blank track name', { master_metadata_track_name: ' ' }],
    ['no artist name', { master_metadata_album_artist_name: null }],
    ['an artist name that is not text', { master_metadata_album_artist_name: 42 }],
  ])('a row with %s is malformed', (_what, fields) => {
    expect(readHistoryRow('extended_audio', extendedHistoryRow(fields))).toEqual({
      skipped: 'malformed',
    });
  });

  it.each([null, 42, 'a row', [], [extendedHistoryRow()]])('%j is not a row', (row) => {
    expect(readHistoryRow('extended_audio', row)).toEqual({ skipped: 'malformed' });
    expect(readHistoryRow('account_music', row)).toEqual({ skipped: 'malformed' });
  });
});

describe('Account data rows', () => {
  it('reads a music play by names, at minute precision, without a track id', () => {
    expect(readHistoryRow('account_music', accountRow())).toEqual({
      play: {
        playedAt: new Date('2020-06-16T16:55:00Z'),
        msPlayed: 32512,
        trackId: null,
        trackName: 'Father And Son',
        artistName: 'Yusuf / Cat Stevens',
        albumName: null,
      },
    });
    expect(
      readHistoryRow(
        'account_music',
        accountRow({ trackName: '  算什麼男人 ', artistName: 'Jay Chou ' }),
      ),
    ).toMatchObject({ play: { trackName: '算什麼男人', artistName: 'Jay Chou' } });
  });

  it.each([
    [0, 'short'],
    [29_999, 'short'],
    [30_000, 'play'],
    [30_001, 'play'],
  ])('a play of %i ms is %s: short plays are not imported', (ms, expected) => {
    expect(outcome(readHistoryRow('account_music', accountRow({ msPlayed: ms })))).toBe(expected);
  });

  it('skips every row of a podcast file, even one that looks like music', () => {
    expect(readHistoryRow('account_podcast', accountRow())).toEqual({ skipped: 'podcast' });
    expect(
      readHistoryRow('account_podcast', {
        endTime: '2023-10-15 18:42',
        podcastName: 'NPR News Now',
        episodeName: 'NPR News: 10-15-2023 2PM EDT',
        msPlayed: 39218,
      }),
    ).toEqual({ skipped: 'podcast' });
  });

  it.each([
    ['a podcast name', { podcastName: 'NPR News Now' }],
    ['an episode name', { episodeName: 'NPR News: 10-15-2023 2PM EDT' }],
  ])('skips a row of a music file with %s as a podcast', (_what, fields) => {
    expect(readHistoryRow('account_music', accountRow(fields))).toEqual({ skipped: 'podcast' });
  });

  it.each([
    ['no end time', { endTime: undefined }],
    ['an end time in the list form', { endTime: ['2020-06-16 16:55'] }],
    ['an end time in ISO form', { endTime: '2020-06-16T16:55:00Z' }],
    ['text before the end time', { endTime: 'at 2020-06-16 16:55' }],
    ['seconds in the end time', { endTime: '2020-06-16 16:55:00' }],
    ['an impossible end time', { endTime: '2020-13-16 16:55' }],
    ['no duration', { msPlayed: undefined }],
    ['a duration that is text', { msPlayed: '32512' }],
    ['no track name', { trackName: undefined }],
    ['a blank track name', { trackName: '' }],
    ['no artist name', { artistName: null }],
  ])('a row with %s is malformed', (_what, fields) => {
    expect(readHistoryRow('account_music', accountRow(fields))).toEqual({ skipped: 'malformed' });
  });
});
