import type { DataExport } from '@earshot/contract/export';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadPage } from '../src/lib/browserLocation';
import { DATA_EXPORT_POLL_MS } from '../src/lib/constants';
import { ada, fakeApi, json, noContent, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

function settingsApi(deleteAnswer = noContent(), exportAnswers: Record<string, FakeAnswer> = {}) {
  return fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/user/export': json(200, { export: null }),
    'DELETE /api/user/me': deleteAnswer,
    ...exportAnswers,
  });
}

function dataExport(overrides: Partial<DataExport> = {}): DataExport {
  return {
    id: 'export-1',
    status: 'pending',
    phase: null,
    rows_written: 0,
    rows_total: 0,
    created_at: '2026-03-02T10:00:00.000Z',
    finished_at: null,
    expires_at: null,
    size_bytes: null,
    error: null,
    ...overrides,
  };
}

const running = dataExport({
  status: 'running',
  phase: 'plays.csv',
  rows_written: 843_000,
  rows_total: 2_000_001,
});
const ready = dataExport({
  status: 'ready',
  rows_written: 2_000_001,
  rows_total: 2_000_001,
  finished_at: '2026-03-02T10:00:40.000Z',
  expires_at: '2026-03-03T10:00:40.000Z',
  size_bytes: 127_369_919,
});

/** Answers one after the other, the last one from then on. */
function inTurn(...answers: FakeAnswer[]): FakeAnswer {
  let next = 0;
  return () => answers[Math.min(next++, answers.length - 1)]!();
}

async function exportCard() {
  const heading = await screen.findByRole('heading', { name: 'Download my data' });
  const section = heading.closest('section');
  if (!section) throw new Error('no Download my data card');
  return within(section);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Settings: Download my data', () => {
  it('starts an export, shows its progress, then the link to the ZIP', async () => {
    // Only intervals are faked: the state is polled when the test says so.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const fetchMock = settingsApi(noContent(), {
      // The start shows the new export at once, then asks again; then the polls.
      'GET /api/user/export': inTurn(
        json(200, { export: null }),
        json(200, { export: dataExport() }),
        json(200, { export: running }),
        json(200, { export: ready }),
      ),
      'POST /api/user/export': json(202, dataExport()),
    });
    renderApp('/settings');

    const card = await exportCard();
    await userEvent.click(await card.findByRole('button', { name: 'Download my data' }));
    const bar = await card.findByRole('progressbar', { name: 'Export progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    expect(card.getByText('Waiting to start…')).toBeInTheDocument();
    expect(card.queryByRole('button')).not.toBeInTheDocument();
    expect(
      fetchMock.mock.calls.filter(
        ([url, init]) => url === '/api/user/export' && init?.method === 'POST',
      ),
    ).toHaveLength(1);

    await act(async () => vi.advanceTimersByTime(DATA_EXPORT_POLL_MS));
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '42'));
    expect(bar).toHaveAttribute('aria-valuetext', '42%');
    expect(card.getByText('Writing plays.csv… 42%')).toBeInTheDocument();

    await act(async () => vi.advanceTimersByTime(DATA_EXPORT_POLL_MS));
    const link = await card.findByRole('link', { name: 'Download ZIP' });
    expect(link).toHaveAttribute('href', '/api/user/export/download');
    expect(link).toHaveAttribute('download');
    expect(card.getByText(/^Your data is ready: 127\.4 MB ZIP, until /)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Make a new export' })).toBeEnabled();
  });

  it('shows a running export after a reload, from the server', async () => {
    settingsApi(noContent(), { 'GET /api/user/export': json(200, { export: running }) });
    renderApp('/settings');
    const card = await exportCard();
    const bar = await card.findByRole('progressbar', { name: 'Export progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '42');
    expect(card.queryByRole('button', { name: 'Download my data' })).not.toBeInTheDocument();
  });

  it('says why an export failed and offers to try again', async () => {
    const failed = dataExport({
      status: 'failed',
      error: 'The export failed while reading your data. Please try again.',
      finished_at: '2026-03-02T10:00:05.000Z',
    });
    const fetchMock = settingsApi(noContent(), {
      'GET /api/user/export': inTurn(
        json(200, { export: failed }),
        json(200, { export: dataExport({ id: 'export-2' }) }),
      ),
      'POST /api/user/export': json(202, dataExport({ id: 'export-2' })),
    });
    renderApp('/settings');
    const card = await exportCard();
    expect(await card.findByRole('alert')).toHaveTextContent(
      'The export failed: The export failed while reading your data. Please try again.',
    );
    expect(card.queryByRole('link', { name: 'Download ZIP' })).not.toBeInTheDocument();
    await userEvent.click(card.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('progressbar', { name: 'Export progress' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true);
  });

  it('says why an export could not start', async () => {
    settingsApi(noContent(), {
      'POST /api/user/export': json(500, { detail: 'Internal Server Error' }),
    });
    renderApp('/settings');
    const card = await exportCard();
    await userEvent.click(await card.findByRole('button', { name: 'Download my data' }));
    expect(await card.findByRole('alert')).toHaveTextContent(
      'Failed to start the export: Internal Server Error',
    );
    expect(card.getByRole('button', { name: 'Download my data' })).toBeEnabled();
  });

  it('says so when the export cannot be looked at', { timeout: 15_000 }, async () => {
    settingsApi(noContent(), {
      'GET /api/user/export': json(503, { detail: 'Service Unavailable' }),
    });
    renderApp('/settings');
    const card = await exportCard();
    // After the queries' default retries.
    expect(await card.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent(
      'Failed to load your export: Service Unavailable',
    );
  });
});

describe('Settings: Delete my account', () => {
  it('needs the typed username, deletes, then reloads to / as a visitor', async () => {
    const fetchMock = settingsApi();
    renderApp('/settings');

    const button = await screen.findByRole('button', { name: 'Delete my account' });
    expect(button).toBeDisabled();
    expect(screen.getByRole('link', { name: /Manage apps/ })).toHaveAttribute(
      'href',
      'https://www.spotify.com/account/apps/',
    );
    const field = screen.getByLabelText(/Type your username/);
    await userEvent.type(field, 'someone-else');
    expect(button).toBeDisabled();
    await userEvent.clear(field);
    await userEvent.type(field, 'ADA');
    await userEvent.click(button);

    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/'));
    const call = fetchMock.mock.calls.find(
      ([url, init]) => url === '/api/user/me' && init?.method === 'DELETE',
    );
    expect(call?.[1]?.body).toBe(JSON.stringify({ confirmation: 'ADA' }));
  });

  it('says why a deletion failed and stays', async () => {
    settingsApi(json(400, { detail: 'Type your username to confirm the deletion.' }));
    renderApp('/settings');
    await userEvent.type(await screen.findByLabelText(/Type your username/), 'ada');
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to delete the account: Type your username to confirm the deletion.',
    );
    expect(loadPage).not.toHaveBeenCalled();
  });
});
