import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoot } from '../src/app/AppRoot';
import { isPromoted, PROMOTED_KEY, VISITOR_ID_KEY, visitorId } from '../src/lib/visitor';
import type * as VisitorModule from '../src/lib/visitor';
import { ada, fakeApi, json, loggedOut } from './fakeApi';
import { renderApp } from './renderApp';

const routes = [
  { element: <AppRoot pages={[]} />, children: [{ index: true, element: <p>Home page</p> }] },
];

let pages = 0;

/** The visitor module as a newly loaded page has it (a separate instance, by its URL's query). */
async function newPageVisitorModule(): Promise<typeof VisitorModule> {
  pages += 1;
  return (await import(
    /* @vite-ignore */ `../src/lib/visitor.ts?page=${pages}`
  )) as typeof VisitorModule;
}

describe("the visitor's local storage", () => {
  beforeEach(() => {
    localStorage.clear();
  });

  it('makes a random anonymous visitor id on the first visit and keeps it', async () => {
    // A new page's module: an earlier test's refused storage leaves its page's id behind.
    const fresh = await newPageVisitorModule();
    const id = fresh.visitorId();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(localStorage.getItem(VISITOR_ID_KEY)).toBe(id);
    expect(fresh.visitorId()).toBe(id);

    localStorage.clear();
    expect(fresh.visitorId()).not.toBe(id);
  });

  it('keeps one id for the page when storage refuses', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const id = visitorId();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(visitorId()).toBe(id);
    expect(isPromoted()).toBe(false);
  });

  it('has no promoted flag until the visitor signs in', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    renderApp('/', routes);
    await screen.findByRole('link', { name: /log in|connect/i });
    expect(isPromoted()).toBe(false);
    expect(localStorage.getItem(PROMOTED_KEY)).toBeNull();
  });

  it('sets the promoted flag once a signed-in user is seen, and keeps it', async () => {
    fakeApi({ 'GET /api/user/me': json(200, ada) });
    renderApp('/', routes);
    await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' });
    expect(localStorage.getItem(PROMOTED_KEY)).toBe('true');
    expect(isPromoted()).toBe(true);
  });
});
