import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clampMenuPosition } from '../src/components/ui/pointerMenuPosition';
import { CONTEXT_MENU_LONG_PRESS_MS } from '../src/lib/constants';
import {
  activityItem,
  activityPage,
  FakeIntersectionObserver,
  ignoredList,
} from './activityFixtures';
import { ada, fakeApi, json } from './fakeApi';
import { renderApp } from './renderApp';

describe('menu position clamping (bounds 180 x 120)', () => {
  const viewport = { width: 1024, height: 768 };

  it.each([
    ['inside the viewport: at the pointer', { x: 100, y: 200 }, { x: 100, y: 200 }],
    ['at the right edge: moved left', { x: 1000, y: 200 }, { x: 844, y: 200 }],
    ['at the bottom edge: moved up', { x: 100, y: 760 }, { x: 100, y: 648 }],
    ['in the corner: moved both ways', { x: 1024, y: 768 }, { x: 844, y: 648 }],
    ['exactly fitting: unchanged', { x: 844, y: 648 }, { x: 844, y: 648 }],
    ['outside left and top: pulled in', { x: -20, y: -5 }, { x: 0, y: 0 }],
  ])('%s', (_case, pointer, expected) => {
    expect(clampMenuPosition(pointer, viewport)).toEqual(expected);
  });

  it('keeps the top-left corner on screen when the viewport is smaller than the bounds', () => {
    expect(clampMenuPosition({ x: 90, y: 60 }, { width: 150, height: 100 })).toEqual({
      x: 0,
      y: 0,
    });
  });
});

const dancing = activityItem({ id: 'track-dq', uid: 'uid-dq', title: 'Dancing Queen' });
const waterloo = activityItem({ id: 'track-w', uid: 'uid-w', title: 'Waterloo' });

async function renderRecent() {
  fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/ignore': ignoredList([waterloo]),
    'GET /api/recent': activityPage([dancing, waterloo]),
  });
  renderApp('/recent');
  await screen.findByText('Ignored');
}

function rowOf(title: string): HTMLElement {
  const row = screen.getByRole('link', { name: title }).closest('li');
  if (!row) throw new Error(`no row for ${title}`);
  return row;
}

function menuAnchor(): HTMLElement | null {
  return document.querySelector<HTMLElement>('.pointer-menu__anchor');
}

beforeEach(() => {
  FakeIntersectionObserver.install();
});

describe('track context menu', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens on a right click instead of the browser menu, offering "Ignore track"', async () => {
    await renderRecent();

    const notPrevented = fireEvent.contextMenu(rowOf('Dancing Queen'), {
      clientX: 120,
      clientY: 240,
    });

    expect(notPrevented).toBe(false);
    const menu = await screen.findByRole('menu', { name: 'Track actions: Dancing Queen' });
    const item = within(menu).getByRole('menuitem', { name: 'Ignore track' });
    expect(item).not.toHaveAttribute('aria-disabled');
    expect(menuAnchor()).toHaveStyle({ left: '120px', top: '240px' });
  });

  it('says "Already ignored", disabled, for an ignored track', async () => {
    await renderRecent();

    fireEvent.contextMenu(within(rowOf('Waterloo')).getByRole('link', { name: 'ABBA' }), {
      clientX: 50,
      clientY: 60,
    });

    const menu = await screen.findByRole('menu', { name: 'Track actions: Waterloo' });
    expect(within(menu).getByRole('menuitem', { name: 'Already ignored' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(within(menu).queryByRole('menuitem', { name: 'Ignore track' })).toBeNull();
  });

  it('stays inside the viewport near its edges', async () => {
    await renderRecent();

    fireEvent.contextMenu(rowOf('Dancing Queen'), {
      clientX: window.innerWidth - 10,
      clientY: window.innerHeight - 5,
    });

    await screen.findByRole('menu');
    expect(menuAnchor()).toHaveStyle({
      left: `${window.innerWidth - 180}px`,
      top: `${window.innerHeight - 120}px`,
    });
  });

  it('closes with Escape', async () => {
    await renderRecent();
    fireEvent.contextMenu(rowOf('Dancing Queen'), { clientX: 10, clientY: 10 });
    const menu = await screen.findByRole('menu');

    fireEvent.keyDown(menu, { key: 'Escape' });

    await vi.waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it('opens after a 550 ms long press, at the finger', async () => {
    await renderRecent();
    const row = rowOf('Dancing Queen');

    vi.useFakeTimers();
    fireEvent.touchStart(row, { touches: [{ clientX: 70, clientY: 80 }] });
    act(() => vi.advanceTimersByTime(CONTEXT_MENU_LONG_PRESS_MS - 1));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();

    expect(await screen.findByRole('menu', { name: 'Track actions: Dancing Queen' })).toBeVisible();
    expect(menuAnchor()).toHaveStyle({ left: '70px', top: '80px' });
    // Lifting the finger after the long press does not follow the link under it.
    expect(fireEvent.touchEnd(row)).toBe(false);
  });

  it.each([
    ['the finger moves (or scrolls)', 'touchMove'],
    ['the finger lifts', 'touchEnd'],
    ['the touch is cancelled', 'touchCancel'],
  ] as const)('does not open when %s before 550 ms', async (_case, event) => {
    await renderRecent();
    const row = rowOf('Dancing Queen');

    vi.useFakeTimers();
    fireEvent.touchStart(row, { touches: [{ clientX: 70, clientY: 80 }] });
    act(() => vi.advanceTimersByTime(CONTEXT_MENU_LONG_PRESS_MS - 100));
    fireEvent[event](row, { touches: [{ clientX: 70, clientY: 120 }] });
    act(() => vi.advanceTimersByTime(CONTEXT_MENU_LONG_PRESS_MS));

    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(menuAnchor()).toBeNull();
  });
});
