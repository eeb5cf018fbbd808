import { createContext, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';
import { NOTIFICATION_DURATION_MS, NOTIFICATION_EXIT_ANIMATION_MS } from './constants';

export type NotificationKind = 'error' | 'success' | 'info';

export interface AppNotification {
  id: number;
  kind: NotificationKind;
  message: string;
  /** True during the exit animation, just before the notification is removed. */
  leaving: boolean;
}

export interface NotifyOptions {
  kind?: NotificationKind;
  /** How long the notification stays; `NOTIFICATION_DURATION_MS` by default. */
  durationMs?: number;
}

/** A notification's countdown to its exit: running since `startedAt`, or paused. */
interface Countdown {
  remainingMs: number;
  startedAt: number;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * The notification stack (docs/product.md §2): new notifications go to the front, each removes
 * itself after its duration, and a removed one first stays `leaving` for the exit animation.
 * While the toasts are paused (hovered, focused: a reader needs the time) no countdown runs.
 */
export class NotificationStack {
  private items: readonly AppNotification[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly countdowns = new Map<number, Countdown>();
  private readonly exitTimers = new Map<number, ReturnType<typeof setTimeout>>();
  private paused = false;
  private nextId = 1;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = (): readonly AppNotification[] => this.items;

  push = (message: string, options: NotifyOptions = {}): number => {
    const id = this.nextId++;
    this.items = [{ id, kind: options.kind ?? 'info', message, leaving: false }, ...this.items];
    const countdown: Countdown = {
      remainingMs: options.durationMs ?? NOTIFICATION_DURATION_MS,
      startedAt: 0,
      timer: null,
    };
    this.countdowns.set(id, countdown);
    if (!this.paused) this.run(id, countdown);
    this.emit();
    return id;
  };

  dismiss = (id: number): void => {
    const item = this.items.find((candidate) => candidate.id === id);
    if (!item || item.leaving) return;
    this.stop(id);
    this.items = this.items.map((candidate) =>
      candidate.id === id ? { ...candidate, leaving: true } : candidate,
    );
    this.exitTimers.set(
      id,
      setTimeout(() => {
        this.exitTimers.delete(id);
        this.items = this.items.filter((candidate) => candidate.id !== id);
        this.emit();
      }, NOTIFICATION_EXIT_ANIMATION_MS),
    );
    this.emit();
  };

  /** Holds every countdown where it is (exits already under way finish). */
  pause = (): void => {
    if (this.paused) return;
    this.paused = true;
    const now = Date.now();
    for (const countdown of this.countdowns.values()) {
      if (countdown.timer === null) continue;
      clearTimeout(countdown.timer);
      countdown.timer = null;
      countdown.remainingMs -= now - countdown.startedAt;
    }
  };

  /** Lets the countdowns run on from where they were held. */
  resume = (): void => {
    if (!this.paused) return;
    this.paused = false;
    for (const [id, countdown] of this.countdowns) this.run(id, countdown);
  };

  private run(id: number, countdown: Countdown): void {
    countdown.startedAt = Date.now();
    countdown.timer = setTimeout(() => this.dismiss(id), Math.max(0, countdown.remainingMs));
  }

  private stop(id: number): void {
    const timer = this.countdowns.get(id)?.timer;
    if (timer) clearTimeout(timer);
    this.countdowns.delete(id);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

const NotificationStackContext = createContext<NotificationStack | null>(null);

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [stack] = useState(() => new NotificationStack());
  return (
    <NotificationStackContext.Provider value={stack}>{children}</NotificationStackContext.Provider>
  );
}

/** The stack, to push or dismiss notifications. */
export function useNotificationStack(): NotificationStack {
  const stack = useContext(NotificationStackContext);
  if (!stack) throw new Error('useNotificationStack must be used inside NotificationsProvider');
  return stack;
}

/** The current notifications, newest first. */
export function useNotifications(): readonly AppNotification[] {
  const stack = useNotificationStack();
  return useSyncExternalStore(stack.subscribe, stack.getSnapshot);
}
