import type { IgnoredList } from '@earshot/contract/ignore';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { activityItem, adaAsActivityUser } from './activityFixtures';
import { ada, fakeApi, json, noContent, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

const hum = { ...activityItem({ uid: 'uid-hum', title: 'Fridge Hum' }), user: adaAsActivityUser };
const rain = {
  ...activityItem({ uid: 'uid-rain', title: 'Rain Sounds' }),
  user: adaAsActivityUser,
  is_global: true,
  reported: true,
};
const noise = { artist_id: 'artist-noise', name: 'Noise Bros', is_global: false, reported: false };

/** The server's list, changed by the calls the page makes. */
function serverList(initial: IgnoredList) {
  let list = initial;
  const state = (ignored: boolean, reported: boolean, is_global: boolean) =>
    json(200, { ignored, reported, is_global });
  const answers: Record<string, FakeAnswer> = {
    'GET /api/ignore': () => json(200, list)(),
    'DELETE /api/ignore/track/uid-hum': () => {
      list = { ...list, tracks: list.tracks.filter((item) => item.track.uid !== 'uid-hum') };
      return state(false, false, false)();
    },
    'POST /api/ignore/artist/artist-noise/report': () => {
      list = { ...list, artists: list.artists.map((artist) => ({ ...artist, reported: true })) };
      return state(true, true, false)();
    },
    'DELETE /api/admin/ignore/track/uid-rain': () => {
      list = {
        ...list,
        tracks: list.tracks.map((item) =>
          item.track.uid === 'uid-rain' ? { ...item, is_global: false } : item,
        ),
      };
      return noContent()();
    },
  };
  return answers;
}

function rowOf(name: string): HTMLElement {
  const row = screen.getByText(name).closest('li');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

describe('the Ignored page', () => {
  it('shows the intro and both empty texts', async () => {
    fakeApi({
      'GET /api/user/me': json(200, ada),
      'GET /api/ignore': json(200, { artists: [], tracks: [] }),
    });
    renderApp('/ignored');
    expect(await screen.findByText('No ignored artists yet.')).toBeInTheDocument();
    expect(screen.getByText('No ignored tracks yet.')).toBeInTheDocument();
    expect(screen.getByText(/excluded globally/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Ignored Items', level: 1 })).toBeInTheDocument();
  });

  it('lists artists and tracks with counts, un-ignores and reports', async () => {
    const fetchMock = fakeApi({
      'GET /api/user/me': json(200, ada),
      ...serverList({ artists: [noise], tracks: [hum, rain] }),
    });
    renderApp('/ignored');

    const artists = await screen.findByRole('region', { name: /Artists/ });
    expect(within(artists).getByRole('heading')).toHaveTextContent('Artists 1');
    expect(screen.getByRole('region', { name: /Tracks/ })).toHaveTextContent('Tracks 2');
    // A global item cannot be reported again, and only admins see Global Unignore.
    expect(within(rowOf('Rain Sounds')).getByText('Global')).toBeInTheDocument();
    expect(within(rowOf('Rain Sounds')).queryByRole('button', { name: /Report/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Global Unignore/ })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Report Noise Bros' }));
    await waitFor(() => expect(within(rowOf('Noise Bros')).getByText('Reported')).toBeVisible());
    expect(within(rowOf('Noise Bros')).queryByRole('button', { name: /Report/ })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Unignore Fridge Hum' }));
    await waitFor(() => expect(screen.queryByText('Fridge Hum')).toBeNull());
    expect(screen.getByRole('region', { name: /Tracks/ })).toHaveTextContent('Tracks 1');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/ignore/track/uid-hum',
      expect.objectContaining({ method: 'DELETE' }),
    );
  });

  it('offers admins Global Unignore on global items', async () => {
    const fetchMock = fakeApi({
      'GET /api/user/me': json(200, { ...ada, is_admin: true }),
      ...serverList({ artists: [noise], tracks: [hum, rain] }),
    });
    renderApp('/ignored');

    const button = await screen.findByRole('button', { name: 'Global Unignore Rain Sounds' });
    expect(screen.getAllByRole('button', { name: /Global Unignore/ })).toHaveLength(1);
    await userEvent.click(button);
    await waitFor(() => expect(within(rowOf('Rain Sounds')).queryByText('Global')).toBeNull());
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/admin/ignore/track/uid-rain',
      expect.objectContaining({ method: 'DELETE' }),
    );
  });
});
