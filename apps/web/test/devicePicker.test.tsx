import type { PlaybackState } from '@earshot/contract/playback';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { activityPage, deferred, ignoredList } from './activityFixtures';
import { ada, fakeApi, json, noContent, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

const playing: PlaybackState = {
  state: {
    is_playing: true,
    progress_ms: 1000,
    device: { name: 'Ada’s phone', type: 'Smartphone' },
    item: {
      liked: false,
      track: {
        id: 'track-dq',
        uid: 'uid-dq',
        title: 'Dancing Queen',
        artists: [{ id: 'abba', name: 'ABBA' }],
        album: null,
        duration: 230_000,
        popularity: null,
      },
    },
  },
};

const devices = {
  devices: [
    { id: 'phone', name: 'Ada’s phone', type: 'Smartphone', is_active: true },
    { id: 'speaker', name: 'Living Room', type: 'Speaker', is_active: false },
  ],
};

function renderWithPlayer(answers: Record<string, FakeAnswer>) {
  const fetchMock = fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/ignore': ignoredList(),
    'GET /api/recent': activityPage([]),
    'GET /api/spotify/playback': json(200, playing),
    ...answers,
  });
  renderApp('/recent');
  return fetchMock;
}

async function openDevices() {
  const player = await screen.findByRole('region', { name: 'Mini player' });
  // The player's controls come in once it has answered.
  await userEvent.click(await within(player).findByRole('button', { name: 'Devices' }));
  return screen.findByRole('menu');
}

// Opening a Radix menu in jsdom is slow on a loaded machine.
describe('the device picker', { timeout: 20_000 }, () => {
  it('says "Loading devices…", then lists the devices with the active one marked', async () => {
    const list = deferred();
    renderWithPlayer({ 'GET /api/spotify/devices': list.answer });
    const menu = await openDevices();
    expect(within(menu).getByText('Loading devices…')).toBeInTheDocument();

    list.resolve(json(200, devices));
    const phone = await within(menu).findByRole('menuitem', { name: /Ada’s phone/ });
    expect(phone).toHaveAttribute('aria-current', 'true');
    expect(phone).toHaveTextContent('Playing here');
    expect(within(menu).getByRole('menuitem', { name: /Living Room/ })).not.toHaveAttribute(
      'aria-current',
    );
    expect(within(menu).getByRole('menuitem', { name: /This browser/ })).toBeInTheDocument();
  });

  it('says "No devices found" when there are none', async () => {
    renderWithPlayer({ 'GET /api/spotify/devices': json(200, { devices: [] }) });
    const menu = await openDevices();
    expect(await within(menu).findByText('No devices found')).toBeInTheDocument();
  });

  it('moves playback to the chosen device, and says so when it fails', async () => {
    let fail = false;
    const fetchMock = renderWithPlayer({
      'GET /api/spotify/devices': json(200, devices),
      'POST /api/spotify/transfer': () =>
        fail ? json(424, { detail: 'Spotify is not answering' })() : noContent()(),
    });
    let menu = await openDevices();
    await userEvent.click(await within(menu).findByRole('menuitem', { name: /Living Room/ }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([url]) => url === '/api/spotify/transfer')).toHaveLength(
        1,
      ),
    );
    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/spotify/transfer') ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ device_id: 'speaker', play: true });

    fail = true;
    menu = await openDevices();
    await userEvent.click(await within(menu).findByRole('menuitem', { name: /Living Room/ }));
    expect(await screen.findByText('Failed to transfer playback')).toBeInTheDocument();
  });
});
