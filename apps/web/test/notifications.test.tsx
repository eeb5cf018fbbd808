import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoot } from '../src/app/AppRoot';
import { NOTIFICATION_DURATION_MS, NOTIFICATION_EXIT_ANIMATION_MS } from '../src/lib/constants';
import { NotificationStack, useNotificationStack } from '../src/lib/notifications';
import { ada, fakeApi, json } from './fakeApi';
import { renderApp } from './renderApp';

describe('notification stack', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('puts new notifications at the front', () => {
    const stack = new NotificationStack();
    stack.push('first');
    stack.push('second', { kind: 'error' });
    expect(stack.getSnapshot().map((item) => [item.message, item.kind])).toEqual([
      ['second', 'error'],
      ['first', 'info'],
    ]);
  });

  it('removes a notification after its duration and a 200 ms exit animation', () => {
    const stack = new NotificationStack();
    const listener = vi.fn();
    stack.subscribe(listener);
    stack.push('Failed to load likes.', { kind: 'error' });

    vi.advanceTimersByTime(NOTIFICATION_DURATION_MS - 1);
    expect(stack.getSnapshot()[0]?.leaving).toBe(false);

    vi.advanceTimersByTime(1);
    expect(stack.getSnapshot()[0]?.leaving).toBe(true);

    vi.advanceTimersByTime(NOTIFICATION_EXIT_ANIMATION_MS);
    expect(stack.getSnapshot()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('honours a custom duration and an early dismissal', () => {
    const stack = new NotificationStack();
    const short = stack.push('short', { durationMs: 1_000 });
    const dismissed = stack.push('dismissed');

    stack.dismiss(dismissed);
    vi.advanceTimersByTime(NOTIFICATION_EXIT_ANIMATION_MS);
    expect(stack.getSnapshot().map((item) => item.id)).toEqual([short]);

    // The short one has now run its full second.
    vi.advanceTimersByTime(1_000 - NOTIFICATION_EXIT_ANIMATION_MS);
    expect(stack.getSnapshot()[0]?.leaving).toBe(true);
    vi.advanceTimersByTime(NOTIFICATION_EXIT_ANIMATION_MS);
    expect(stack.getSnapshot()).toEqual([]);
  });

  it('holds every countdown while paused, and runs on from there', () => {
    const stack = new NotificationStack();
    const early = stack.push('early');
    vi.advanceTimersByTime(4_000);
    stack.pause();
    const late = stack.push('late');

    vi.advanceTimersByTime(60_000);
    expect(stack.getSnapshot().map((item) => [item.id, item.leaving])).toEqual([
      [late, false],
      [early, false],
    ]);

    stack.resume();
    vi.advanceTimersByTime(NOTIFICATION_DURATION_MS - 4_000);
    expect(stack.getSnapshot().map((item) => [item.id, item.leaving])).toEqual([
      [late, false],
      [early, true],
    ]);
    vi.advanceTimersByTime(4_000);
    expect(stack.getSnapshot().find((item) => item.id === late)?.leaving).toBe(true);
  });
});

function Raise({ message }: { message: string }) {
  const stack = useNotificationStack();
  return (
    <button type="button" onClick={() => stack.push(message, { kind: 'error' })}>
      Raise {message}
    </button>
  );
}

describe('notification toasts', () => {
  const routes = [
    {
      element: <AppRoot pages={[]} />,
      children: [
        {
          index: true,
          element: (
            <>
              <Raise message="first" />
              <Raise message="second" />
            </>
          ),
        },
      ],
    },
  ];

  beforeEach(() => {
    fakeApi({ 'GET /api/user/me': json(200, ada) });
  });

  it('shows a notification for 6 s, then plays its 200 ms exit and leaves', async () => {
    renderApp('/', routes);
    const raise = await screen.findByRole('button', { name: 'Raise first' });
    vi.useFakeTimers();
    try {
      fireEvent.click(raise);
      const toast = screen.getByRole('alert');
      expect(toast).toHaveTextContent('first');

      act(() => vi.advanceTimersByTime(NOTIFICATION_DURATION_MS - 1));
      expect(toast).not.toHaveClass('toast--leaving');

      act(() => vi.advanceTimersByTime(1));
      expect(toast).toHaveClass('toast--leaving');
      act(() => vi.advanceTimersByTime(NOTIFICATION_EXIT_ANIMATION_MS - 1));
      expect(toast).toBeInTheDocument();

      act(() => vi.advanceTimersByTime(1));
      expect(toast).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the newest first', async () => {
    renderApp('/', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Raise first' }));
    fireEvent.click(screen.getByRole('button', { name: 'Raise second' }));
    expect(screen.getAllByRole('alert').map((toast) => toast.textContent)).toEqual([
      'second',
      'first',
    ]);
  });

  it('holds the countdowns while pointed at or focused, and runs them on after', async () => {
    renderApp('/', routes);
    const raise = await screen.findByRole('button', { name: 'Raise first' });
    vi.useFakeTimers();
    try {
      fireEvent.click(raise);
      const toast = screen.getByRole('alert');

      fireEvent.pointerEnter(toast);
      act(() => vi.advanceTimersByTime(NOTIFICATION_DURATION_MS * 2));
      expect(toast).not.toHaveClass('toast--leaving');
      fireEvent.pointerLeave(toast);

      act(() => within(toast).getByRole('button', { name: 'Dismiss notification' }).focus());
      act(() => vi.advanceTimersByTime(NOTIFICATION_DURATION_MS * 2));
      expect(toast).not.toHaveClass('toast--leaving');

      act(() => raise.focus());
      act(() => vi.advanceTimersByTime(NOTIFICATION_DURATION_MS - 1_000));
      expect(toast).not.toHaveClass('toast--leaving');
      act(() => vi.advanceTimersByTime(1_000));
      expect(toast).toHaveClass('toast--leaving');
    } finally {
      vi.useRealTimers();
    }
  });
});

function RaiseNotification() {
  const stack = useNotificationStack();
  return (
    <button type="button" onClick={() => stack.push('Failed to load likes.', { kind: 'error' })}>
      Raise
    </button>
  );
}

describe('notification bell', () => {
  const routes = [
    {
      element: <AppRoot pages={[]} />,
      children: [{ index: true, element: <RaiseNotification /> }],
    },
  ];

  beforeEach(() => {
    fakeApi({ 'GET /api/user/me': json(200, ada) });
  });

  it('says "No notifications" when the stack is empty', async () => {
    renderApp('/', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('No notifications');
  });

  it('lists the notifications of the stack, which can be dismissed', async () => {
    renderApp('/', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Raise' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load likes.');

    await userEvent.click(await screen.findByRole('button', { name: 'Notifications (1)' }));
    const panel = await screen.findByRole('dialog');
    expect(within(panel).getByText('Failed to load likes.')).toBeInTheDocument();

    await userEvent.click(within(panel).getByRole('button', { name: 'Dismiss notification' }));
    expect(within(panel).getByText('No notifications')).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, NOTIFICATION_EXIT_ANIMATION_MS)));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
