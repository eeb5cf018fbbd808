import { render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../src/app/providers';
import { createAppRoutes } from '../src/app/router';
import { firstPaintRows } from '../src/features/activity/components/ActivityList';
import { createQueryClient } from '../src/lib/queryClient';
import { activityItem, activityPage, ignoredList } from './activityFixtures';
import { ada, fakeApi, json } from './fakeApi';

/** A screen `height` px tall, at most 600 px wide or wider. */
function screenOf(height: number, narrow: boolean) {
  vi.stubGlobal('innerHeight', height);
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(max-width: 600px)' && narrow,
  }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the rows a feed's first answer paints before the rest", () => {
  it('fill the screen at the least row height, and no more', () => {
    screenOf(823, true); // a phone: rows are 117-137 px there
    expect(firstPaintRows()).toBe(8);
    screenOf(667, true);
    expect(firstPaintRows()).toBe(6);
    screenOf(900, false); // a laptop: rows are 69 px
    expect(firstPaintRows()).toBe(14);
    screenOf(690, false);
    expect(firstPaintRows()).toBe(10);
  });
});

describe("a feed's first answer", () => {
  it('commits the rows of the first paint first and the others in a later commit', async () => {
    const items = Array.from({ length: 30 }, (_, index) =>
      activityItem({ title: `Song ${index}` }),
    );
    fakeApi({
      'GET /api/user/me': json(200, ada),
      'GET /api/spotify/stats': json(200, { active: true }),
      'GET /api/ignore': ignoredList(),
      'GET /api/recent': activityPage(items),
    });
    // The rows in the document at each commit, in order.
    const rowsAtCommits: number[] = [];
    const queryClient = createQueryClient();
    const router = createMemoryRouter(createAppRoutes(queryClient), {
      initialEntries: ['/recent'],
    });
    render(
      <AppProviders queryClient={queryClient}>
        <Profiler
          id="app"
          onRender={() => rowsAtCommits.push(document.querySelectorAll('.activity-row').length)}
        >
          <RouterProvider router={router} />
        </Profiler>
      </AppProviders>,
    );

    expect(await screen.findByText('Song 29')).toBeInTheDocument();
    // The first navigation waited for the answer (decision 0047), yet its first commit with rows
    // holds only those of the first paint (jsdom's window: 768 px, wide).
    const withRows = rowsAtCommits.filter((count) => count > 0);
    expect(firstPaintRows()).toBe(12);
    expect(withRows[0]).toBe(12);
    expect(withRows.at(-1)).toBe(30);
  });
});
