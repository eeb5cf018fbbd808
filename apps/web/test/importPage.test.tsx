import type { ImportProgress, ImportStatus } from '@earshot/contract/import';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  IMPORT_STATUS_POLL_MS,
  IMPORT_WAIT_TICK_MS,
  NOTIFICATION_DURATION_MS,
  NOTIFICATION_EXIT_ANIMATION_MS,
} from '../src/lib/constants';
import { ada, fakeApi, json, loggedOut, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

const idle: ImportStatus = {
  full_history_sync_wait: 0,
  last_full_history_sync: null,
  total_plays_synced: 0,
  current: null,
  recent_plays_gap_at: null,
};

function importRun(overrides: Partial<ImportProgress> = {}): ImportProgress {
  return {
    id: 'import-1',
    state: 'queued',
    files_done: 0,
    files_total: 3,
    rows_read: 0,
    plays_added: 0,
    skipped: {},
    errors: [],
    created_at: '2026-03-02T10:00:00.000Z',
    finished_at: null,
    interrupted: false,
    ...overrides,
  };
}

const finished = importRun({
  state: 'done',
  files_done: 3,
  rows_read: 12_500,
  plays_added: 10_234,
  skipped: {
    duplicate: 40,
    short: 1_900,
    podcast: 250,
    audiobook: 3,
    video: 2,
    incognito: 11,
    no_track: 5,
    malformed: 55,
  },
  finished_at: '2026-03-02T12:00:09.000Z',
});

/** Answers one after the other, the last one from then on. */
function inTurn(...answers: FakeAnswer[]): FakeAnswer {
  let next = 0;
  return () => {
    const answer = answers[Math.min(next, answers.length - 1)];
    next += 1;
    if (!answer) throw new Error('inTurn needs an answer');
    return answer();
  };
}

function importApi(status: FakeAnswer, extra: Record<string, FakeAnswer> = {}) {
  return fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/friendship/pending': json(200, { requests: [] }),
    'GET /api/spotify/import': status,
    ...extra,
  });
}

const zip = () =>
  new File(['PK\u0003\u0004 history'], 'my_spotify_data.zip', { type: 'application/zip' });

function uploadButton() {
  return screen.getByRole('button', { name: /^(Upload|Uploading…)$/ });
}

async function chooseZip(user = userEvent.setup()) {
  await user.upload(await screen.findByLabelText('Spotify export (.zip)'), zip());
  return user;
}

function card(heading: string) {
  const section = screen.getByRole('heading', { name: heading }).closest('section');
  if (!section) throw new Error(`no card headed ${heading}`);
  return section;
}

function figure(container: HTMLElement, term: string) {
  return within(container).getByText(term, { selector: 'dt' }).nextElementSibling;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('/spotify/import page', () => {
  it('sends visitors to log in and back', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    const { router } = renderApp('/spotify/import');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?next=%2Fspotify%2Fimport');
  });

  it('tells the user when a sync may have missed plays, until an import after it', async () => {
    const gapAt = '2026-03-05T21:40:00.000Z';
    importApi(json(200, { ...idle, recent_plays_gap_at: gapAt }));
    const { unmount } = renderApp('/spotify/import');
    const notice = await screen.findByText(/you played more than Spotify remembers/);
    expect(notice).toHaveTextContent(
      'you played more than Spotify remembers between two syncs (its last 50 plays), so some plays may be missing. Import your history to fill the gap.',
    );
    expect(within(notice).getByText(/2026/)).toHaveAttribute('dateTime', gapAt);
    unmount();

    importApi(
      json(200, {
        ...idle,
        recent_plays_gap_at: gapAt,
        last_full_history_sync: '2026-03-06T08:00:00.000Z',
      }),
    );
    renderApp('/spotify/import');
    expect(
      await screen.findByRole('heading', { name: 'Import your listening history' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('Mar 6, 2026')).toBeInTheDocument();
    expect(screen.queryByText(/you played more than Spotify remembers/)).toBeNull();
  });

  it('explains how to get the export and shows what was imported so far', async () => {
    importApi(
      json(200, {
        ...idle,
        last_full_history_sync: '2026-02-14T12:00:00.000Z',
        total_plays_synced: 48_211,
      }),
    );
    renderApp('/spotify/import');

    expect(
      await screen.findByRole('heading', { name: 'Import your listening history' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Import your listening history - Earshot');
    const how = card('Get your history from Spotify');
    expect(within(how).getByRole('link', { name: 'privacy page' })).toHaveAttribute(
      'href',
      'https://www.spotify.com/account/privacy/',
    );
    expect(how).toHaveTextContent('Download your data');
    expect(how).toHaveTextContent('Extended streaming history');
    expect(how).toHaveTextContent(/days, sometimes a few weeks/);
    expect(how).toHaveTextContent(/Account data.*only covers the last year/);

    const upload = card('Upload your export');
    await waitFor(() => expect(figure(upload, 'Plays imported')).toHaveTextContent('48,211'));
    expect(figure(upload, 'Last upload')).toHaveTextContent('Feb 14, 2026');
  });

  it('says "Never" before the first import', async () => {
    importApi(json(200, idle));
    renderApp('/spotify/import');
    await screen.findByRole('heading', { name: 'Upload your export' });
    const upload = card('Upload your export');
    await waitFor(() => expect(figure(upload, 'Last upload')).toHaveTextContent('Never'));
    expect(figure(upload, 'Plays imported')).toHaveTextContent('0');
  });
});

describe('/spotify/import picker and Upload button', () => {
  it('accepts only .zip and disables Upload until a ZIP is chosen', async () => {
    importApi(json(200, idle));
    renderApp('/spotify/import');
    const picker = await screen.findByLabelText('Spotify export (.zip)');
    expect(picker).toHaveAttribute('type', 'file');
    expect(picker).toHaveAttribute('accept', '.zip,application/zip');
    expect(uploadButton()).toBeDisabled();

    const user = userEvent.setup();
    await user.upload(picker, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(uploadButton()).toBeDisabled();

    await user.upload(picker, zip());
    expect(uploadButton()).toBeEnabled();
  });

  it('sends the file as multipart field "file" and is disabled while uploading', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = importApi(json(200, idle), {
      'POST /api/spotify/import': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderApp('/spotify/import');
    const user = await chooseZip();

    await user.click(uploadButton());

    expect(uploadButton()).toHaveTextContent('Uploading…');
    expect(uploadButton()).toBeDisabled();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    const init = post?.[1];
    expect(init?.credentials).toBe('include');
    expect(init?.headers).not.toHaveProperty('Content-Type');
    const body = init?.body;
    if (!(body instanceof FormData)) throw new Error('the upload is not multipart');
    expect([...body.keys()]).toEqual(['file']);
    expect((body.get('file') as File).name).toBe('my_spotify_data.zip');

    answer(json(202, { message: 'Upload received, 3 files', import: importRun() })() as Response);
    expect(await screen.findByText('Upload received, 3 files')).toHaveAttribute('role', 'status');
    // The picker is cleared: another upload needs a file chosen again.
    expect(uploadButton()).toHaveTextContent('Upload');
    expect(uploadButton()).toBeDisabled();
  });

  it('says "Upload received" when the server gives no message, then shows the progress', async () => {
    importApi(inTurn(json(200, idle), json(200, { ...idle, current: importRun() })), {
      'POST /api/spotify/import': json(202, { message: '', import: importRun() }),
    });
    renderApp('/spotify/import');
    const user = await chooseZip();
    await user.click(uploadButton());
    expect(await screen.findByText('Upload received')).toHaveAttribute('role', 'status');
    expect(await screen.findByRole('progressbar', { name: 'Import progress' })).toHaveAttribute(
      'aria-valuetext',
      '0 of 3 files',
    );
  });
});

describe('/spotify/import failed uploads', () => {
  it.each([
    [409, 'An import is already running. Wait for it to finish.'],
    [413, 'The file is larger than the 1 GiB limit.'],
    [400, 'This ZIP has no streaming history files.'],
    [429, 'Another import is possible in 12 minutes.'],
  ])('shows the server message of a %i inline and as a notification', async (status, detail) => {
    importApi(json(200, idle), { 'POST /api/spotify/import': json(status, { detail }) });
    renderApp('/spotify/import');
    const user = await chooseZip();

    await user.click(uploadButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    const inline = within(card('Upload your export')).getByText(detail);
    expect(screen.getByLabelText('Spotify export (.zip)')).toHaveAccessibleDescription(detail);
    expect(inline).not.toHaveAttribute('role', 'status');
    expect(uploadButton()).toBeEnabled();
  });

  it('says "Upload failed" without a server message, for 6 s as a notification', async () => {
    importApi(json(200, idle), {
      'POST /api/spotify/import': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp('/spotify/import');
    const user = await chooseZip(userEvent.setup({ advanceTimers: vi.advanceTimersByTime }));

    await user.click(uploadButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('Upload failed');
    act(() => vi.advanceTimersByTime(NOTIFICATION_DURATION_MS + NOTIFICATION_EXIT_ANIMATION_MS));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(within(card('Upload your export')).getByText('Upload failed')).toBeInTheDocument();
  });
});

describe('/spotify/import progress and summary', () => {
  it('shows a progress bar while the import runs, then its summary', async () => {
    // Only intervals are faked: the status is polled when the test says so.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    importApi(
      inTurn(
        json(200, { ...idle, current: importRun({ state: 'queued' }) }),
        json(200, {
          ...idle,
          current: importRun({
            state: 'running',
            files_done: 2,
            rows_read: 8_000,
            plays_added: 6_543,
          }),
        }),
        json(200, {
          ...idle,
          full_history_sync_wait: 3_600,
          last_full_history_sync: finished.finished_at,
          total_plays_synced: finished.plays_added,
          current: finished,
        }),
      ),
    );
    renderApp('/spotify/import');

    const bar = await screen.findByRole('progressbar', { name: 'Import progress' });
    expect(screen.getByRole('heading', { name: 'Import waiting to start…' })).toBeInTheDocument();
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    expect(uploadButton()).toBeDisabled();

    await act(async () => vi.advanceTimersByTime(IMPORT_STATUS_POLL_MS));
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '2'));
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '3');
    expect(bar).toHaveAttribute('aria-valuetext', '2 of 3 files');
    const progress = card('Importing your history…');
    expect(figure(progress, 'Files')).toHaveTextContent('2 of 3');
    expect(figure(progress, 'Rows read')).toHaveTextContent('8,000');
    expect(figure(progress, 'Plays added')).toHaveTextContent('6,543');

    await act(async () => vi.advanceTimersByTime(IMPORT_STATUS_POLL_MS));
    expect(await screen.findByRole('heading', { name: 'Your last import' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(figure(card('Upload your export'), 'Plays imported')).toHaveTextContent('10,234');
  });

  it('says so when the import was interrupted by a restart and resumes by itself', async () => {
    importApi(
      json(200, {
        ...idle,
        current: importRun({ state: 'running', files_done: 1, interrupted: true }),
      }),
    );
    renderApp('/spotify/import');
    const progress = await screen.findByRole('heading', { name: 'Import interrupted, resuming…' });
    expect(progress).toBeInTheDocument();
    expect(
      screen.getByText(/The server restarted during the import\. It resumes by itself/),
    ).toBeInTheDocument();
  });

  it('sums up plays added, rows read and why rows were skipped, in plain words', async () => {
    importApi(json(200, { ...idle, current: finished }));
    renderApp('/spotify/import');

    await screen.findByRole('heading', { name: 'Your last import' });
    const summary = card('Your last import');
    expect(summary).toHaveTextContent('Finished Mar 2, 2026');
    expect(figure(summary, 'Plays added')).toHaveTextContent('10,234');
    expect(figure(summary, 'Rows read')).toHaveTextContent('12,500');
    expect(figure(summary, 'Rows skipped')).toHaveTextContent('2,266');

    const reasons = card('Why rows were skipped');
    const listed = [...reasons.querySelectorAll('dt')].map((term) => [
      term.textContent,
      term.nextElementSibling?.textContent,
    ]);
    expect(listed).toEqual([
      ['Podcast episodes', '250'],
      ['Audiobook chapters', '3'],
      ['Videos', '2'],
      ['Shorter than 30 s', '1,900'],
      ['Played in a private session (incognito)', '11'],
      ['No track', '5'],
      ['Malformed rows', '55'],
      ['Already imported', '40'],
    ]);
    expect(screen.queryByRole('heading', { name: 'Problems' })).not.toBeInTheDocument();
  });

  it('lists file errors and leaves out reasons that skipped nothing', async () => {
    importApi(
      json(200, {
        ...idle,
        current: {
          ...finished,
          state: 'failed',
          skipped: { malformed: 3, podcast: 0, some_new_reason: 2 },
          errors: ['Streaming_History_Audio_2019.json is not valid JSON.'],
        },
      }),
    );
    renderApp('/spotify/import');

    await screen.findByRole('heading', { name: 'Your last import failed' });
    const reasons = card('Why rows were skipped');
    expect(within(reasons).queryByText('Podcast episodes')).not.toBeInTheDocument();
    expect(figure(reasons, 'Malformed rows')).toHaveTextContent('3');
    expect(figure(reasons, 'Some new reason')).toHaveTextContent('2');
    expect(within(card('Problems')).getByRole('listitem')).toHaveTextContent(
      'Streaming_History_Audio_2019.json is not valid JSON.',
    );
  });
});

describe('/spotify/import cool-down', () => {
  const locked = (wait: string) =>
    `Extended history import is temporarily unavailable. Please try again in ${wait}.`;

  it('counts the wait down by 60 s each minute and allows uploads again at 0', async () => {
    // Only intervals are faked: the countdown's ticks happen when the test says so.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    importApi(json(200, { ...idle, full_history_sync_wait: 3_600 + 2 * 60 }));
    renderApp('/spotify/import');
    await chooseZip();

    expect(await screen.findByText(locked('1 hour and 2 minutes'))).toBeInTheDocument();
    expect(uploadButton()).toBeDisabled();

    act(() => vi.advanceTimersByTime(IMPORT_WAIT_TICK_MS - 1));
    expect(screen.getByText(locked('1 hour and 2 minutes'))).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText(locked('1 hour and 1 minute'))).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(IMPORT_WAIT_TICK_MS));
    expect(screen.getByText(locked('1 hour'))).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(IMPORT_WAIT_TICK_MS));
    expect(screen.getByText(locked('59 minutes'))).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(58 * IMPORT_WAIT_TICK_MS));
    expect(screen.getByText(locked('1 minute'))).toBeInTheDocument();
    expect(uploadButton()).toBeDisabled();

    act(() => vi.advanceTimersByTime(IMPORT_WAIT_TICK_MS));
    expect(screen.queryByText(/temporarily unavailable/)).not.toBeInTheDocument();
    expect(uploadButton()).toBeEnabled();
  });

  it('rounds a part of a minute up', async () => {
    importApi(json(200, { ...idle, full_history_sync_wait: 2 * 3_600 + 30 }));
    renderApp('/spotify/import');
    expect(await screen.findByText(locked('2 hours and 1 minute'))).toBeInTheDocument();
  });
});
