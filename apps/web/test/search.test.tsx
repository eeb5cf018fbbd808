import type { SearchResults } from '@earshot/contract/search';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_MODAL_DEBOUNCE_MS } from '../src/lib/constants';
import { ada, fakeApi, json, loggedOut, requestedUrls, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';
import { DEFAULT_PAGE_TITLE } from '@earshot/contract/site';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

const found: SearchResults = {
  tracks: [
    {
      type: 'track',
      id: 'tr-joga',
      data: {
        track: {
          id: 'tr-joga',
          uid: 'tr-joga',
          title: 'Jóga',
          artists: [
            { id: 'ar-bjork', name: 'Björk' },
            { id: 'ar-sjon', name: 'Sjón' },
          ],
          album: { id: 'al-homogenic', name: 'Homogenic', picture: null, release_date: null },
          duration: 305_000,
          popularity: null,
        },
      },
    },
  ],
  albums: [
    { type: 'album', id: 'al-homogenic', data: { picture: null, name: 'Homogenic' } },
    { type: 'album', id: 'al-post', data: { picture: null, name: 'Post' } },
  ],
  artists: [
    {
      type: 'artist',
      id: 'ar-bjork',
      data: { picture: null, name: 'Björk', genres: ['art pop', 'electronica'] },
    },
  ],
  users: [
    {
      type: 'user',
      id: 'user-bjorn',
      data: { picture: null, name: 'Björn Berg', username: 'bjorn' },
    },
  ],
};

const nothing: SearchResults = { tracks: [], albums: [], artists: [], users: [] };

let searchAnswer: FakeAnswer;
let fetchMock: ReturnType<typeof fakeApi>;

function setUp(user: FakeAnswer = json(200, ada)) {
  searchAnswer = json(200, found);
  fetchMock = fakeApi({
    'GET /api/user/me': user,
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/friendship/pending': json(200, { requests: [] }),
    'GET /api/search': () => searchAnswer(),
  });
}

/** The search calls made so far, as their query strings. */
function searches(): URLSearchParams[] {
  return requestedUrls(fetchMock)
    .filter((url) => url.startsWith('/api/search?'))
    .map((url) => new URLSearchParams(url.slice('/api/search?'.length)));
}

async function openByButton() {
  await userEvent.click(await screen.findByRole('button', { name: 'Search' }));
  return screen.findByRole('dialog', { name: 'Search' });
}

/** The texts of a result a reader sees (not the initial drawn in place of a missing picture). */
function shownTexts(option: HTMLElement): string[] {
  return within(option)
    .getAllByText(/.+/)
    .filter((element) => !element.closest('[aria-hidden="true"]'))
    .map((element) => element.textContent);
}

const searchBox = () => screen.getByRole('combobox', { name: 'Search' });

afterEach(() => {
  vi.useRealTimers();
});

// Each test drives several user steps (open, type, wait out the debounce, choose): on a loaded
// two-core machine they take longer than the default 5 s together.
describe('search modal', { timeout: 15_000 }, () => {
  beforeEach(() => setUp());

  it('opens from the header button over the current page, which stays shown', async () => {
    const { router } = renderApp('/nowhere');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();

    const dialog = await openByButton();

    expect(router.state.location.pathname).toBe('/search/');
    expect(within(dialog).getByRole('combobox', { name: 'Search' })).toHaveFocus();
    expect(screen.getByText('Page Not Found', { selector: 'h1' })).toBeInTheDocument();
    expect(document.head.querySelectorAll('title')).toHaveLength(1);
    expect(document.title).toBe('Page Not Found - Earshot');
  });

  it('opens with the / key, but not while typing in a field', async () => {
    const { router } = renderApp('/nowhere');
    await screen.findByRole('heading', { name: 'Page Not Found' });

    await userEvent.keyboard('/');

    expect(await screen.findByRole('dialog', { name: 'Search' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/search/');
    // Inside the search box "/" is a character like any other.
    await userEvent.keyboard('a/b');
    expect(searchBox()).toHaveValue('a/b');
    expect(router.state.location.pathname).toBe('/search/a%2Fb');
  });

  it('is open for visitors too', async () => {
    setUp(loggedOut);
    renderApp('/nowhere');
    await openByButton();
    await userEvent.type(searchBox(), 'jo');
    expect(await screen.findByRole('option', { name: /Jóga/ })).toBeInTheDocument();
  });

  it('searches once typing pauses for 300 ms, with the trimmed query and limit 50', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderApp('/nowhere');
    await user.click(await screen.findByRole('button', { name: 'Search' }));
    // The navigation runs the route's loader first: the modal opens a moment after the click.
    await waitFor(() => expect(searchBox()).toHaveFocus());
    await user.keyboard(' bj');
    act(() => vi.advanceTimersByTime(SEARCH_MODAL_DEBOUNCE_MS - 50));
    await user.keyboard('ork ');
    act(() => vi.advanceTimersByTime(SEARCH_MODAL_DEBOUNCE_MS - 50));
    expect(searches()).toEqual([]);
    // The address follows every keystroke.
    expect(router.state.location.pathname).toBe('/search/%20bjork%20');

    act(() => vi.advanceTimersByTime(50));
    await waitFor(() => expect(searches()).toHaveLength(1));
    expect(Object.fromEntries(searches()[0]!)).toEqual({ q: 'bjork', limit: '50' });
  });

  it('does not search a blank query', async () => {
    renderApp('/nowhere');
    await openByButton();
    await userEvent.type(searchBox(), '   ');
    await new Promise((resolve) => setTimeout(resolve, SEARCH_MODAL_DEBOUNCE_MS + 100));
    expect(searches()).toEqual([]);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('groups results by type, each with its picture texts and its page', async () => {
    renderApp('/nowhere');
    await openByButton();
    await userEvent.type(searchBox(), 'bj');

    const list = await screen.findByRole('listbox', { name: 'Search results' });
    const groups = await within(list).findAllByRole('group');
    // Named by their captions (not headings: a listbox holds only groups and options).
    const captionOf = (group: HTMLElement) =>
      document.getElementById(group.getAttribute('aria-labelledby') ?? '')?.textContent;
    expect(groups.map(captionOf)).toEqual(['Tracks', 'Albums', 'Artists', 'Users']);
    const options = within(list).getAllByRole('option');
    expect(options.map(shownTexts)).toEqual([
      ['Jóga', 'Björk, Sjón'],
      ['Homogenic'],
      ['Post'],
      ['Björk', 'art pop, electronica'],
      ['Björn Berg', 'bjorn'],
    ]);
    expect(options.map((option) => option.getAttribute('href'))).toEqual([
      '/track/tr-joga',
      '/album/al-homogenic',
      '/album/al-post',
      '/artist/ar-bjork',
      '/user/bjorn',
    ]);
  });

  it('says when nothing matches', async () => {
    searchAnswer = json(200, nothing);
    renderApp('/nowhere');
    await openByButton();
    await userEvent.type(searchBox(), 'zzq');
    expect(await screen.findByText('No results found for "zzq"')).toBeInTheDocument();
  });

  it('says why a search failed', async () => {
    searchAnswer = json(502, { detail: 'Spotify could not answer: Service unavailable' });
    renderApp('/nowhere');
    await openByButton();
    await userEvent.type(searchBox(), 'love');
    expect(
      await screen.findByText('Failed to search: Spotify could not answer: Service unavailable'),
    ).toBeInTheDocument();
  });

  it('moves through the results with the arrows and opens the chosen one with Enter', async () => {
    const { router } = renderApp('/nowhere');
    await openByButton();
    await userEvent.type(searchBox(), 'bj');
    await screen.findAllByRole('option');
    const selected = () => screen.getByRole('option', { selected: true }).getAttribute('href');

    expect(selected()).toBe('/track/tr-joga');
    expect(searchBox()).toHaveAttribute(
      'aria-activedescendant',
      screen.getByRole('option', { selected: true }).id,
    );
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(selected()).toBe('/album/al-post');
    await userEvent.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    // Up from the first goes round to the last.
    expect(selected()).toBe('/user/bjorn');

    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/bjorn'));
    // The modal stays over the page until the profile's chunk has loaded.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('opens a result when clicked', async () => {
    const { router } = renderApp('/nowhere');
    await openByButton();
    await userEvent.type(searchBox(), 'bj');
    await userEvent.click(await screen.findByRole('option', { name: /Homogenic/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/album/al-homogenic'));
  });

  it('closing goes back to the page it was opened over', async () => {
    const { router } = renderApp('/nowhere');
    await openByButton();
    await userEvent.type(searchBox(), 'bj');

    await userEvent.keyboard('{Escape}');

    await waitFor(() => expect(router.state.location.pathname).toBe('/nowhere'));
    // The page under it renders once the navigation back commits.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The keyboard is back where it was, on the button that opened the modal.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Search' })).toHaveFocus());
  });

  it('opens /search/{query} with that query, searched at once, and closes to home', async () => {
    const { router } = renderApp('/search/bj%C3%B6rk');

    expect(await screen.findByRole('dialog', { name: 'Search' })).toBeInTheDocument();
    expect(searchBox()).toHaveValue('björk');
    await waitFor(() => expect(searches().map((query) => query.get('q'))).toEqual(['björk']));
    expect(await screen.findAllByRole('option')).toHaveLength(5);
    // The route renders nothing of its own under the modal, but it names the document.
    expect(screen.queryByRole('heading', { name: 'Page Not Found' })).not.toBeInTheDocument();
    expect(document.title).toBe(DEFAULT_PAGE_TITLE);
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute(
      'content',
      'noindex',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Close search' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
