import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { loadPage } from '../src/lib/browserLocation';
import { ada, fakeApi, json, noContent } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

function settingsApi(deleteAnswer = noContent()) {
  return fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
    'DELETE /api/user/me': deleteAnswer,
  });
}

describe('Settings: Download my data', () => {
  it('links to the ZIP download', async () => {
    settingsApi();
    renderApp('/settings');
    const link = await screen.findByRole('link', { name: 'Download my data' });
    expect(link).toHaveAttribute('href', '/api/user/export');
    expect(link).toHaveAttribute('download');
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
