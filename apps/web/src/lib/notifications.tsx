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

/**
 * The notification stack (docs/product.md §2): new notifications go to the front, each removes
 * itself after its duration, and a removed one first stays `leaving` for the exit animation.
 */
export class NotificationStack {
  private items: readonly AppNotification[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();
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
    this.timers.set(
      id,
      setTimeout(() => this.dismiss(id), options.durationMs ?? NOTIFICATION_DURATION_MS),
    );
    this.emit();
    return id;
  };

  dismiss = (id: number): void => {
    const item = this.items.find((candidate) => candidate.id === id);
    if (!item || item.leaving) return;
    clearTimeout(this.timers.get(id));
    this.items = this.items.map((candidate) =>
      candidate.id === id ? { ...candidate, leaving: true } : candidate,
    );
    this.timers.set(
      id,
      setTimeout(() => {
        this.timers.delete(id);
        this.items = this.items.filter((candidate) => candidate.id !== id);
        this.emit();
      }, NOTIFICATION_EXIT_ANIMATION_MS),
    );
    this.emit();
  };

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
