import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deferred } from './activityFixtures';
import { ada, fakeApi, json, loggedOut } from './fakeApi';
import { renderApp } from './renderApp';

const THANKS = "Thanks! We'll let you in as soon as an admin accepts your address.";

describe('the beta page', () => {
  it('keeps submit disabled while empty or sending, then shows the answer', async () => {
    const post = deferred();
    const fetchMock = fakeApi({
      'GET /api/user/me': loggedOut,
      'POST /api/user/beta/request': post.answer,
    });
    renderApp('/spotify/beta');

    const submit = await screen.findByRole('button', { name: 'Request access' });
    expect(submit).toBeDisabled();
    const field = screen.getByLabelText('E-mail address');
    expect(field).toHaveAttribute('type', 'email');
    expect(field).toBeRequired();
    await userEvent.type(field, 'new.listener@example.com');
    await userEvent.click(submit);
    expect(await screen.findByRole('button', { name: 'Sending…' })).toBeDisabled();

    post.resolve(json(200, { detail: THANKS }));
    expect(await screen.findByRole('status')).toHaveTextContent(THANKS);
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/user/beta/request');
    expect(call?.[1]?.body).toBe(JSON.stringify({ email: 'new.listener@example.com' }));
  });

  it.each(['a@b', 'no-at-sign.example.com', 'two@@example.com'])(
    'says "%s" is no e-mail address in plain words, without asking the server',
    async (typed) => {
      const fetchMock = fakeApi({ 'GET /api/user/me': loggedOut });
      renderApp('/spotify/beta');
      const field = await screen.findByLabelText('E-mail address');
      await userEvent.type(field, typed);
      fireEvent.submit(field);

      expect(await screen.findByRole('alert')).toHaveTextContent(
        /^Please enter a valid e-mail address\.$/,
      );
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/api/user/beta/request');

      await userEvent.type(field, 'x');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    },
  );

  it("shows the server's message, else the fallback", async () => {
    let answer = json(400, { detail: 'That e-mail address is too long.' });
    fakeApi({
      'GET /api/user/me': loggedOut,
      'POST /api/user/beta/request': () => answer(),
    });
    renderApp('/spotify/beta');
    await userEvent.type(await screen.findByLabelText('E-mail address'), 'x@y.example');
    await userEvent.click(screen.getByRole('button', { name: 'Request access' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That e-mail address is too long.');

    answer = () => new Response('', { status: 502 });
    await userEvent.click(screen.getByRole('button', { name: 'Request access' }));
    expect(await screen.findByText('Something went wrong. Please try again.')).toBeInTheDocument();
  });

  it('explains a refused invite-only login', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    renderApp('/spotify/beta?invite=required');
    expect(await screen.findByRole('alert')).toHaveTextContent(/invite-only for now/);
  });

  it('is for visitors only', async () => {
    fakeApi({ 'GET /api/user/me': json(200, ada) });
    const { router } = renderApp('/spotify/beta');
    await screen.findByRole('button', { name: /Notifications/ });
    expect(router.state.location.pathname).toBe('/');
  });
});
