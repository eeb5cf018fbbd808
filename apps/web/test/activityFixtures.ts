import type { ActivityItem, ActivityPage } from '@earshot/contract/activity';
import type { IgnoredList } from '@earshot/contract/ignore';
import { waitFor } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { ada, json, type FakeAnswer } from './fakeApi';

export const grace = { id: 'user-grace', username: 'grace', name: 'Grace Hopper' };
export const adaAsActivityUser = { id: ada.id, username: ada.username, name: ada.name };

let trackNumber = 0;

/** An activity item; each call makes a new track unless `uid`/`id` say otherwise. */
export function activityItem(
  overrides: {
    user?: ActivityItem['user'];
    title?: string;
    id?: string;
    uid?: string;
    liked?: boolean;
    date?: string;
    playCount?: number;
  } = {},
): ActivityItem {
  trackNumber += 1;
  const id = overrides.id ?? `track-${trackNumber}`;
  return {
    user: overrides.user ?? grace,
    track: {
      id,
      uid: overrides.uid ?? `uid-${id}`,
      title: overrides.title ?? `Song ${trackNumber}`,
      artists: [
        { id: 'artist-abba', name: 'ABBA' },
        { id: 'artist-queen', name: 'Queen' },
      ],
      album: {
        id: `album-${id}`,
        name: `Album of ${id}`,
        picture: 'https://i.scdn.co/image/cover',
        release_date: '1979-10-12',
      },
      duration: 215_000,
      popularity: 70,
    },
    liked: overrides.liked ?? false,
    date: overrides.date ?? new Date(Date.UTC(2024, 4, 17, 12, trackNumber % 60)).toISOString(),
    play_count: overrides.playCount ?? 3,
    reason: null,
    context_uri: null,
    is_global: false,
    reported: false,
  };
}

export function activityPage(items: ActivityItem[], nextBefore: string | null = null) {
  return json(200, { items, next_before: nextBefore } satisfies ActivityPage);
}

export function ignoredList(tracks: ActivityItem[] = []) {
  return json(200, { artists: [], tracks } satisfies IgnoredList);
}

/** Answers in turn, repeating the last one. */
export function inSequence(...answers: FakeAnswer[]): FakeAnswer {
  let call = 0;
  return (url) => {
    const answer = answers[Math.min(call, answers.length - 1)];
    call += 1;
    if (!answer) throw new Error('inSequence needs an answer');
    return answer(url);
  };
}

/** An answer that waits until `resolve` is called. */
export function deferred() {
  let resolve: (answer: FakeAnswer) => void = () => undefined;
  const response = new Promise<Response>((done) => {
    resolve = (answer) => done(answer());
  });
  return { answer: () => response, resolve };
}

/** The requests to one path, as parsed URLs. */
export function requestsTo(fetchMock: ReturnType<typeof vi.fn>, path: string): URL[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://earshot.test'))
    .filter((url) => url.pathname === path);
}

/** A controllable IntersectionObserver for jsdom, which has none. */
export class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly observed = new Set<Element>();
  disconnected = false;

  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.instances.push(this);
  }

  observe(element: Element) {
    this.observed.add(element);
  }

  unobserve(element: Element) {
    this.observed.delete(element);
  }

  disconnect() {
    this.disconnected = true;
    this.observed.clear();
  }

  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }

  /** Reports every observed element as (not) intersecting. */
  report(isIntersecting: boolean) {
    const entries = [...this.observed].map(
      (target) => ({ target, isIntersecting }) as IntersectionObserverEntry,
    );
    this.callback(entries, this as unknown as IntersectionObserver);
  }

  static install() {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  }

  /** The observers still watching something. */
  static live(): FakeIntersectionObserver[] {
    return FakeIntersectionObserver.instances.filter((observer) => !observer.disconnected);
  }
}

/** The observer watching a list's end, once the list watches it. */
export function watchingObserver(): Promise<FakeIntersectionObserver> {
  return waitFor(() => {
    const [watching] = FakeIntersectionObserver.live();
    expect(watching).toBeDefined();
    return watching!;
  });
}
