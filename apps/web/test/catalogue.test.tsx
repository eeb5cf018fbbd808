import type {
  AlbumDetail,
  ArtistAlbums,
  ArtistDetail,
  ArtistTracks,
  CatalogueTrack,
  PlaylistDetail,
  PlaylistList,
  TrackDetail,
} from '@earshot/contract/catalogue';
import type { IgnoredList } from '@earshot/contract/ignore';
import type { TrackSummary } from '@earshot/contract/track';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { formatDuration } from '../src/features/catalogue/catalogueFormat';
import { ada, fakeApi, json, loggedOut, requestedUrls, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

function summary(id: string, title: string, duration = 245_000): TrackSummary {
  return {
    id,
    uid: `uid-${id}`,
    title,
    artists: [{ id: 'kraftwerk', name: 'Kraftwerk' }],
    album: { id: 'computerwelt', name: 'Computerwelt', picture: null, release_date: '1981-05-10' },
    duration,
    popularity: 61,
  };
}

const entry = (
  track: TrackSummary,
  liked: boolean | null,
  plays: number | null,
): CatalogueTrack => ({
  track,
  liked,
  play_count: plays,
});

const listening = {
  play_count: 7,
  friends: [
    { id: 'user-grace', username: 'grace', name: 'Grace Hopper', picture: null, play_count: 12 },
  ],
};

function artist(overrides: Partial<ArtistDetail> = {}): ArtistDetail {
  return {
    id: 'kraftwerk',
    name: 'Kraftwerk',
    picture: null,
    genres: ['krautrock', 'electronic', 'synthpop', 'art rock'],
    followers: 1_234_567,
    popularity: 64,
    is_followed: false,
    user_liked_tracks: 1,
    track_count: 2,
    album_count: 1,
    listening,
    ...overrides,
  };
}

const visitorArtist = artist({ is_followed: null, user_liked_tracks: null, listening: null });

const artistTracks: ArtistTracks = {
  items: [
    entry(summary('computerlove', 'Computer Love', 435_000), true, 4),
    entry(summary('pocketcalc', 'Pocket Calculator', 65_000), false, 0),
  ],
};
const visitorTracks: ArtistTracks = {
  items: artistTracks.items.map((item) => ({ ...item, liked: null, play_count: null })),
};
const artistAlbums: ArtistAlbums = {
  items: [
    {
      id: 'computerwelt',
      name: 'Computerwelt',
      picture: null,
      release_date: '1981-05-10',
      album_type: 'album',
      track_count: 7,
    },
  ],
  notice: null,
};
const emptyIgnored: IgnoredList = { artists: [], tracks: [] };

function api(signedIn: boolean, extra: Record<string, FakeAnswer> = {}) {
  return fakeApi({
    'GET /api/user/me': signedIn ? json(200, ada) : loggedOut,
    'GET /api/friendship/pending': json(200, { requests: [] }),
    'GET /api/ignore': json(200, emptyIgnored),
    ...extra,
  });
}

/** The route's loader asked for `url` as the navigation started; the page did not ask again. */
async function expectAskedOnce(fetchMock: ReturnType<typeof fakeApi>, url: string) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(requestedUrls(fetchMock).filter((asked) => asked === url)).toHaveLength(1);
}

describe('artist page', () => {
  it('shows a visitor the header and tabs, no Follow, a disabled Ignore and the Likes login text', async () => {
    api(false, {
      'GET /api/artist/kraftwerk': json(200, visitorArtist),
      'GET /api/artist/kraftwerk/tracks': json(200, visitorTracks),
    });
    const { router } = renderApp('/artist/kraftwerk');

    expect(await screen.findByRole('heading', { level: 1, name: 'Kraftwerk' })).toBeInTheDocument();
    const genres = screen.getByRole('list', { name: 'Genres' });
    expect(
      within(genres)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['krautrock', 'electronic', 'synthpop']);
    expect(screen.getByText('1,234,567 followers')).toBeInTheDocument();
    expect(screen.getByText('Popularity 64')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Follow/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ignore' })).toBeDisabled();
    expect(screen.queryByRole('heading', { name: 'Your listening' })).not.toBeInTheDocument();

    const tabs = screen.getByRole('navigation', { name: 'Artist sections' });
    expect(within(tabs).getByRole('link', { name: 'Tracks 2' })).toHaveAttribute(
      'href',
      '/artist/kraftwerk',
    );
    expect(within(tabs).getByRole('link', { name: 'Likes' })).toHaveAttribute(
      'href',
      '/artist/kraftwerk/likes',
    );
    expect(within(tabs).getByRole('link', { name: 'Albums 1' })).toHaveAttribute(
      'href',
      '/artist/kraftwerk/albums',
    );

    const list = await screen.findByRole('list', { name: 'Tracks by Kraftwerk' });
    expect(within(list).getByRole('link', { name: 'Computer Love' })).toHaveAttribute(
      'href',
      '/track/computerlove',
    );
    expect(within(list).getByText('7:15')).toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: /^Like/ })).not.toBeInTheDocument();

    await userEvent.click(within(tabs).getByRole('link', { name: 'Likes' }));
    expect(router.state.location.pathname).toBe('/artist/kraftwerk/likes');
    expect(await screen.findByText('Please log in to view your liked tracks.')).toBeInTheDocument();
  });

  it('publishes the page title, two genres in the description, canonical and social data', async () => {
    api(false, {
      'GET /api/artist/kraftwerk': json(200, visitorArtist),
      'GET /api/artist/kraftwerk/albums': json(200, artistAlbums),
    });
    renderApp('/artist/kraftwerk/albums');
    await screen.findByRole('heading', { level: 1, name: 'Kraftwerk' });
    expect(document.title).toBe('Kraftwerk - Albums - Earshot');
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute(
      'content',
      'Kraftwerk, krautrock and electronic artist: tracks, albums and who listens on Earshot.',
    );
    expect(document.querySelector('link[rel="canonical"]')).toHaveAttribute(
      'href',
      `${window.location.origin}/artist/kraftwerk/albums`,
    );
    expect(document.querySelector('meta[property="og:title"]')).toHaveAttribute(
      'content',
      'Kraftwerk - Albums - Earshot',
    );
    const albums = await screen.findByRole('list', { name: 'Albums by Kraftwerk' });
    expect(within(albums).getByRole('link', { name: 'Computerwelt' })).toHaveAttribute(
      'href',
      '/album/computerwelt',
    );
    expect(within(albums).getByText('1981 · Album · 7 tracks')).toBeInTheDocument();
  });

  it('lets a logged-in viewer follow, see their likes and who listens, and ignore', async () => {
    let ignored = emptyIgnored;
    const fetchMock = api(true, {
      'GET /api/artist/kraftwerk': json(200, artist()),
      'GET /api/artist/kraftwerk/tracks': json(200, artistTracks),
      'PUT /api/spotify/follow/artist/kraftwerk': json(200, {
        artist_id: 'kraftwerk',
        is_followed: true,
      }),
      'POST /api/ignore/artist/kraftwerk': () => {
        ignored = {
          ...emptyIgnored,
          artists: [
            { artist_id: 'kraftwerk', name: 'Kraftwerk', is_global: false, reported: false },
          ],
        };
        return json(200, { ignored: true, reported: false, is_global: false })();
      },
      'GET /api/ignore': () => json(200, ignored)(),
    });
    renderApp('/artist/kraftwerk/likes');

    const follow = await screen.findByRole('button', { name: 'Follow' });
    const liked = await screen.findByRole('list', { name: 'Your liked tracks by Kraftwerk' });
    expect(within(liked).getAllByRole('listitem')).toHaveLength(1);
    expect(within(liked).getByText('4 plays')).toBeInTheDocument();
    expect(within(liked).getByRole('button', { name: 'Like Computer Love' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByText('You played Kraftwerk 7 times.')).toBeInTheDocument();
    const friends = screen.getByRole('list', { name: 'Friends who play it' });
    expect(within(friends).getByRole('link', { name: /Grace Hopper/ })).toHaveAttribute(
      'href',
      '/user/grace',
    );
    expect(within(friends).getByText('12 plays')).toBeInTheDocument();

    await userEvent.click(follow);
    expect(await screen.findByRole('button', { name: 'Following' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Ignore Kraftwerk' }));
    expect(await screen.findByRole('button', { name: 'Add back' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([, init]) => init?.method ?? 'GET')).toContain('PUT');
  }, 15_000);

  it('says why a follow failed and keeps the state', async () => {
    api(true, {
      'GET /api/artist/kraftwerk': json(200, artist()),
      'GET /api/artist/kraftwerk/tracks': json(200, artistTracks),
      'PUT /api/spotify/follow/artist/kraftwerk': json(502, {
        detail: 'Spotify could not follow the artist: Service unavailable',
      }),
    });
    renderApp('/artist/kraftwerk');
    await userEvent.click(await screen.findByRole('button', { name: 'Follow' }));
    expect(
      await screen.findByText(
        'Failed to follow Kraftwerk: Spotify could not follow the artist: Service unavailable',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Follow' })).toBeEnabled();
  });

  it('renders "Artist Not Found" for a 404, asked for once', async () => {
    const fetchMock = api(false, {
      'GET /api/artist/nobody': json(404, { detail: 'Artist not found' }),
    });
    renderApp('/artist/nobody');
    expect(await screen.findByRole('heading', { name: 'Artist Not Found' })).toBeInTheDocument();
    expect(document.title).toBe('Artist Not Found - Earshot');
    await expectAskedOnce(fetchMock, '/api/artist/nobody');
  });
});

const trackDetail: TrackDetail = {
  track: summary('computerlove', 'Computer Love', 435_000),
  total_likes: 3,
  album_artists: [{ id: 'kraftwerk', name: 'Kraftwerk', picture: null }],
  similar_tracks: [summary('neonlights', 'Neon Lights')],
  other_versions: [summary('computerlove-remaster', 'Computer Love - Remastered')],
  liked: false,
  listening,
};

describe('track page', () => {
  it('shows title, artists, m:ss, popularity, likes, album, album artists, versions', async () => {
    api(true, {
      'GET /api/track/computerlove': json(200, trackDetail),
      'POST /api/like': json(200, { uid: 'uid-computerlove', liked: true }),
    });
    renderApp('/track/computerlove');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Computer Love' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Duration')).toHaveTextContent('7:15');
    expect(screen.getByText('Popularity 61')).toBeInTheDocument();
    expect(screen.getByText('3 likes')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Computerwelt' })[0]).toHaveAttribute(
      'href',
      '/album/computerwelt',
    );
    const albumArtists = screen.getByRole('region', { name: 'Album artists' });
    expect(within(albumArtists).getByRole('link', { name: /Kraftwerk/ })).toHaveAttribute(
      'href',
      '/artist/kraftwerk',
    );
    const versions = screen.getByRole('region', { name: 'Other Versions' });
    expect(
      within(versions).getByRole('link', { name: 'Computer Love - Remastered' }),
    ).toHaveAttribute('href', '/track/computerlove-remaster');
    expect(screen.getByRole('region', { name: 'Similar tracks' })).toHaveTextContent('Neon Lights');
    expect(document.title).toBe('Computer Love by Kraftwerk - Earshot');

    // Ada is subscribed: she may play it from its page once the player has loaded after the page.
    expect(await screen.findByRole('button', { name: 'Play Computer Love' })).toBeEnabled();
    const like = screen.getByRole('button', { name: 'Like Computer Love' });
    expect(like).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(like);
    await waitFor(() => expect(like).toHaveAttribute('aria-pressed', 'true'));
  });

  it('has no like button for visitors', async () => {
    api(false, {
      'GET /api/track/computerlove': json(200, { ...trackDetail, liked: null, listening: null }),
    });
    renderApp('/track/computerlove');
    await screen.findByRole('heading', { level: 1, name: 'Computer Love' });
    expect(screen.queryByRole('button', { name: 'Like Computer Love' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Play Computer Love' })).not.toBeInTheDocument();
  });

  it('renders "Track Not Found" and a failure with its message', async () => {
    const fetchMock = api(false, {
      'GET /api/track/gone': json(404, { detail: 'Track not found' }),
    });
    renderApp('/track/gone');
    expect(await screen.findByRole('heading', { name: 'Track Not Found' })).toBeInTheDocument();
    await expectAskedOnce(fetchMock, '/api/track/gone');
  });
});

describe('album page', () => {
  const album: AlbumDetail = {
    id: 'computerwelt',
    name: 'Computerwelt',
    picture: null,
    release_date: '1981-05-10',
    album_type: 'album',
    track_count: 2,
    album_artists: [{ id: 'kraftwerk', name: 'Kraftwerk', picture: null }],
    tracks: artistTracks.items,
    listening: null,
    notice: null,
  };

  it('shows cover, artists, release year, numbered tracks and the artists grid', async () => {
    api(false, { 'GET /api/album/computerwelt': json(200, album) });
    renderApp('/album/computerwelt');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Computerwelt' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Release year')).toHaveTextContent('1981');
    const tracks = screen.getByRole('list', { name: 'Tracks of Computerwelt' });
    const rows = within(tracks).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('.track-row__number')?.textContent)).toEqual([
      '1',
      '2',
    ]);
    expect(within(rows[1] as HTMLElement).getByText('1:05')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Artists' })).toHaveTextContent('Kraftwerk');
    expect(document.title).toBe('Computerwelt by Kraftwerk - Earshot');
  });

  it('shows the notice when Spotify could not fill it in', async () => {
    api(false, {
      'GET /api/album/computerwelt': json(200, {
        ...album,
        notice: 'Showing what Earshot has stored: Spotify could not answer (busy).',
      }),
    });
    renderApp('/album/computerwelt');
    expect(
      await screen.findByText('Showing what Earshot has stored: Spotify could not answer (busy).'),
    ).toBeInTheDocument();
  });

  it('renders "Album Not Found" for a 404 and the load failure otherwise', async () => {
    const fetchMock = api(false, {
      'GET /api/album/gone': json(404, { detail: 'Album not found' }),
    });
    renderApp('/album/gone');
    expect(await screen.findByRole('heading', { name: 'Album Not Found' })).toBeInTheDocument();
    await expectAskedOnce(fetchMock, '/api/album/gone');
  });
});

const playlist: PlaylistDetail = {
  id: 'late-night',
  name: 'Late Night',
  picture: null,
  description: 'Quiet ones',
  owner: { id: 'ada-spotify', username: 'ada', name: 'Ada Lovelace' },
  is_public: false,
  is_collaborative: true,
  track_count: 1,
  added_at: '2024-05-01T10:00:00.000Z',
  is_owner: true,
  tracks: [
    {
      ...entry(summary('computerlove', 'Computer Love'), false, 0),
      added_at: '2024-05-01T10:00:00.000Z',
    },
  ],
  notice: null,
};

describe('playlist page', () => {
  it('shows cover, description, owner link, track count and both badges', async () => {
    api(true, { 'GET /api/playlist/late-night': json(200, playlist) });
    renderApp('/playlist/late-night');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Late Night' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Quiet ones')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ada Lovelace' })).toHaveAttribute('href', '/user/ada');
    expect(screen.getByText('1 track')).toBeInTheDocument();
    expect(screen.getByText('Private')).toBeInTheDocument();
    expect(screen.getByText('Collaborative')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Tracks of Late Night' })).toHaveTextContent(
      'Computer Love',
    );
  });

  it("shows the owner's empty message, and another text to others", async () => {
    const empty = { ...playlist, track_count: 0, tracks: [] };
    api(true, { 'GET /api/playlist/late-night': json(200, empty) });
    const first = renderApp('/playlist/late-night');
    expect(
      await screen.findByText('This playlist is empty. Add tracks on Spotify to see them here.'),
    ).toBeInTheDocument();
    first.unmount();
    api(true, { 'GET /api/playlist/late-night': json(200, { ...empty, is_owner: false }) });
    renderApp('/playlist/late-night');
    expect(await screen.findByText('This playlist is empty.')).toBeInTheDocument();
  });

  it('says a private playlist is private without sending a logged-in viewer to log in', async () => {
    api(true, { 'GET /api/playlist/secret': json(403, { detail: 'This playlist is private' }) });
    renderApp('/playlist/secret');
    expect(
      await screen.findByRole('heading', { name: 'This playlist is private' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it('offers a visitor to log in, and renders "Playlist Not Found" for a 404', async () => {
    api(false, { 'GET /api/playlist/secret': json(403, { detail: 'This playlist is private' }) });
    const first = renderApp('/playlist/secret');
    const card = (await screen.findByRole('heading', { name: 'This playlist is private' })).closest(
      'div',
    );
    if (!card) throw new Error('no status card');
    expect(within(card).getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      '/login?next=%2Fplaylist%2Fsecret',
    );
    first.unmount();
    const fetchMock = api(false, {
      'GET /api/playlist/gone': json(404, { detail: 'Playlist not found' }),
    });
    renderApp('/playlist/gone');
    expect(await screen.findByRole('heading', { name: 'Playlist Not Found' })).toBeInTheDocument();
    await expectAskedOnce(fetchMock, '/api/playlist/gone');
  });
});

describe('playlists page', () => {
  it('shows the count and each playlist with cover, name, tracks, created date and badges', async () => {
    const list: PlaylistList = {
      items: [
        playlist,
        {
          ...playlist,
          id: 'road',
          name: 'Road Trip',
          is_public: true,
          is_collaborative: false,
          track_count: 12,
          added_at: null,
        },
      ],
      total: 2,
    };
    api(true, { 'GET /api/spotify/playlists': json(200, list) });
    renderApp('/playlists');
    expect(await screen.findByText('2 playlists')).toBeInTheDocument();
    const cards = screen.getAllByRole('listitem');
    expect(
      within(cards[0] as HTMLElement).getByRole('link', { name: 'Late Night' }),
    ).toHaveAttribute('href', '/playlist/late-night');
    expect(within(cards[0] as HTMLElement).getByText('May 1, 2024')).toBeInTheDocument();
    expect(within(cards[0] as HTMLElement).getByText('Private')).toBeInTheDocument();
    expect(within(cards[0] as HTMLElement).getByText('Collaborative')).toBeInTheDocument();
    expect(within(cards[1] as HTMLElement).getByText('12 tracks')).toBeInTheDocument();
    expect(within(cards[1] as HTMLElement).queryByText('Private')).not.toBeInTheDocument();
    expect(document.title).toBe('Playlists - Earshot');
  });

  it('says when there are none', async () => {
    api(true, { 'GET /api/spotify/playlists': json(200, { items: [], total: 0 }) });
    renderApp('/playlists');
    expect(await screen.findByText("You don't have any playlists yet.")).toBeInTheDocument();
  });
});

describe('durations', () => {
  it('reads m:ss', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(65_000)).toBe('1:05');
    expect(formatDuration(435_999)).toBe('7:15');
    expect(formatDuration(3_600_000)).toBe('60:00');
  });
});
