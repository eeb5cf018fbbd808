import type { AdminNotifications, ModerationHistory } from '@earshot/contract/admin';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ada, fakeApi, json, noContent, requestedUrls, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

const admin = { ...ada, is_admin: true };

const waiting: AdminNotifications = {
  reports: {
    tracks: [
      {
        uid: 'uid-hum',
        title: 'Fridge Hum',
        artists: [{ id: 'artist-noise', name: 'Noise Bros' }],
        report_count: 3,
      },
    ],
    artists: [{ artist_id: 'artist-static', name: 'Static Choir', report_count: 1 }],
  },
  beta_requests: { pending: ['new.listener@example.com'] },
};

const history: ModerationHistory = {
  decisions: [
    {
      id: 7,
      action: 'approve',
      target_kind: 'track',
      target_key: 'uid-rain',
      target_label: 'Rain Sounds — Nature',
      report_count: 2,
      decided_at: new Date().toISOString(),
      admin: { id: 'user-ada', username: 'ada', name: 'Ada Lovelace' },
    },
  ],
};

function adminApi(user: typeof ada, extra: Record<string, FakeAnswer> = {}) {
  return fakeApi({
    'GET /api/user/me': json(200, user),
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/friendship/pending': json(200, { requests: [] }),
    'GET /api/admin/history': json(200, history),
    ...extra,
  });
}

async function openBell(name: string | RegExp) {
  await userEvent.click(await screen.findByRole('button', { name }));
  return screen.findByRole('dialog');
}

// The whole app renders behind the bell: slow on a busy machine.
describe('bell panel: the admin part', { timeout: 15_000 }, () => {
  it('lists reported tracks, reported artists and beta requests, counted on the bell', async () => {
    adminApi(admin, { 'GET /api/admin/notifications': json(200, waiting) });
    renderApp('/');

    const panel = await openBell('Notifications (3)');
    expect(within(panel).getByText('Reported tracks')).toBeInTheDocument();
    expect(within(panel).getByText('Fridge Hum')).toBeInTheDocument();
    expect(within(panel).getByText('Noise Bros · 3 reports')).toBeInTheDocument();
    expect(within(panel).getByText('Static Choir')).toBeInTheDocument();
    expect(within(panel).getByText('1 report')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Approve Fridge Hum' })).toBeEnabled();
    expect(within(panel).getByRole('button', { name: 'Reject Static Choir' })).toBeEnabled();
    expect(
      within(panel).getByRole('button', { name: 'Accept new.listener@example.com' }),
    ).toBeEnabled();
    expect(within(panel).queryByText('No notifications')).not.toBeInTheDocument();

    await userEvent.click(within(panel).getByText('Decision history'));
    expect(await within(panel).findByText('Rain Sounds — Nature')).toBeInTheDocument();
    expect(within(panel).getByText(/Ada Lovelace\s+approved/)).toBeInTheDocument();
  });

  it('approves a report, then shows the refreshed list', async () => {
    let approved = false;
    const fetchMock = adminApi(admin, {
      'GET /api/admin/notifications': () =>
        json(
          200,
          approved ? { ...waiting, reports: { ...waiting.reports, tracks: [] } } : waiting,
        )(),
      'POST /api/admin/ignore/track/uid-hum/approve': () => {
        approved = true;
        return noContent()();
      },
    });
    renderApp('/');

    const panel = await openBell('Notifications (3)');
    await userEvent.click(within(panel).getByRole('button', { name: 'Approve Fridge Hum' }));
    await waitFor(() => expect(within(panel).queryByText('Fridge Hum')).not.toBeInTheDocument());
    expect(requestedUrls(fetchMock)).toContain('/api/admin/ignore/track/uid-hum/approve');
    // As a toast and in the panel's list.
    expect(await screen.findAllByText('Fridge Hum is now ignored for everyone.')).not.toHaveLength(
      0,
    );
  });

  it('accepts a beta request and tells the admin about Development Mode', async () => {
    const fetchMock = adminApi(admin, {
      'GET /api/admin/notifications': json(200, waiting),
      'POST /api/admin/notifications/beta/accept': json(200, {
        email: 'new.listener@example.com',
        accepted: true,
      }),
    });
    renderApp('/');

    const panel = await openBell('Notifications (3)');
    await userEvent.click(
      within(panel).getByRole('button', { name: 'Accept new.listener@example.com' }),
    );
    expect(await within(panel).findByText(/at most 5 users/)).toBeInTheDocument();
    const accept = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/beta/accept'));
    expect(accept?.[1]?.body).toBe(JSON.stringify({ email: 'new.listener@example.com' }));
  });

  it('says "Malformed admin notifications response" for an answer off the contract', async () => {
    adminApi(admin, { 'GET /api/admin/notifications': json(200, { reports: 'nope' }) });
    renderApp('/');
    const panel = await openBell('Notifications');
    expect(
      await within(panel).findByText('Malformed admin notifications response'),
    ).toBeInTheDocument();
  });

  it('never asks for admin notifications for other users', async () => {
    const fetchMock = adminApi(ada);
    renderApp('/');
    const panel = await openBell('Notifications');
    expect(within(panel).getByText('No notifications')).toBeInTheDocument();
    expect(within(panel).queryByText('Decision history')).not.toBeInTheDocument();
    expect(requestedUrls(fetchMock).some((url) => url.startsWith('/api/admin'))).toBe(false);
  });
});
