import {
  dehydrate,
  hydrate,
  type DehydratedState,
  type Query,
  type QueryClient,
} from '@tanstack/react-query';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { IMAGE_CACHE_NAME } from './offlineCacheNames';
import {
  SAVED_QUERIES_MAX,
  SAVED_QUERIES_MAX_AGE_MS,
  SAVED_QUERIES_WRITE_DELAY_MS,
} from './constants';

/**
 * The answers a signed-in user last saw, kept in IndexedDB so the app can show them offline
 * (decision 0027). They belong to one user: a save for another user starts afresh, and logging
 * out or a session that ended deletes them.
 */
interface SavedQueries {
  /** The user whose answers these are. */
  owner: string;
  queries: DehydratedState['queries'];
}

/** What to keep and for whom. */
export interface SavedQueriesPolicy {
  /** The signed-in user's id, or null when nobody is (then nothing is saved). */
  owner: (queryClient: QueryClient) => string | null;
  /** Whether a successful query is one of the pages kept for offline use. */
  keeps: (query: Query) => boolean;
}

const SAVED_KEY = 'queries';
/** Set in local storage while answers are saved: visitors' browsers never open the database. */
const SAVED_MARKER = 'earshot.savedQueries';
let store: UseStore | undefined;
/** The stop of each running `keepSavingQueries`: forgetting the copies stops them all. */
const runningSavers = new Set<() => void>();
// Opened on first use: visitors never need it.
const savedStore = () => (store ??= createStore('earshot-offline', 'saved-queries'));
/** Some browsers (and modes of them) have no IndexedDB: the app then keeps no copies. */
const canSave = () => typeof indexedDB !== 'undefined';

/** The app works without saved answers: a failure only leaves the offline copies missing. */
export function reportSavedQueriesError(error: unknown): void {
  console.error('Offline copies of pages failed', error);
}

/** Puts the saved answers into `queryClient`; newer answers it already holds are kept. */
export async function restoreSavedQueries(queryClient: QueryClient): Promise<void> {
  if (!canSave() || localStorage.getItem(SAVED_MARKER) === null) return;
  const saved = await get<SavedQueries>(SAVED_KEY, savedStore());
  if (!saved) return;
  const oldest = Date.now() - SAVED_QUERIES_MAX_AGE_MS;
  hydrate(queryClient, {
    queries: saved.queries.filter((query) => query.state.dataUpdatedAt >= oldest),
  });
}

/**
 * Deletes the saved answers and the pictures the service worker kept: on logging out, and when
 * the session turns out to be over, so nothing personal stays for whoever uses the browser next.
 */
export async function forgetOfflineCopies(): Promise<void> {
  // The page still runs until it reloads after a logout: nothing it holds may be saved again.
  for (const stop of runningSavers) stop();
  if ('caches' in window) await caches.delete(IMAGE_CACHE_NAME);
  if (!canSave() || localStorage.getItem(SAVED_MARKER) === null) return;
  await del(SAVED_KEY, savedStore());
  localStorage.removeItem(SAVED_MARKER);
}

/**
 * The saved answers merged with the kept ones of `current`: newest first, at most
 * `SAVED_QUERIES_MAX`, none older than `SAVED_QUERIES_MAX_AGE_MS`.
 */
function merged(
  saved: SavedQueries | undefined,
  owner: string,
  current: DehydratedState['queries'],
): SavedQueries {
  const byHash = new Map<string, DehydratedState['queries'][number]>();
  // Another user's answers are never carried over.
  if (saved?.owner === owner) for (const query of saved.queries) byHash.set(query.queryHash, query);
  for (const query of current) byHash.set(query.queryHash, query);
  const oldest = Date.now() - SAVED_QUERIES_MAX_AGE_MS;
  const queries = [...byHash.values()]
    .filter((query) => query.state.dataUpdatedAt >= oldest)
    .sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt)
    .slice(0, SAVED_QUERIES_MAX);
  return { owner, queries };
}

async function save(
  queryClient: QueryClient,
  policy: SavedQueriesPolicy,
  stopped: () => boolean,
): Promise<void> {
  const owner = policy.owner(queryClient);
  if (owner === null || !canSave()) return;
  const current = dehydrate(queryClient, {
    shouldDehydrateQuery: (query) => query.state.status === 'success' && policy.keeps(query),
    shouldDehydrateMutation: () => false,
  }).queries;
  const saved = await get<SavedQueries>(SAVED_KEY, savedStore());
  if (stopped()) return;
  localStorage.setItem(SAVED_MARKER, '1');
  await set(SAVED_KEY, merged(saved, owner, current), savedStore());
}

/**
 * Saves the kept answers a short while after it starts and after one of them changes (one write
 * for a burst of answers). Other queries (now playing, the player, …) change far more often, and each save
 * clones every kept answer into IndexedDB on the main thread: they never start one. Returns the
 * unsubscribe.
 */
export function keepSavingQueries(
  queryClient: QueryClient,
  policy: SavedQueriesPolicy,
  onError: (error: unknown) => void,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const scheduleSave = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      save(queryClient, policy, () => stopped).catch(onError);
    }, SAVED_QUERIES_WRITE_DELAY_MS);
  };
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    if (policy.keeps(event.query)) scheduleSave();
  });
  // Answers that arrived before this started are saved too.
  scheduleSave();
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
    runningSavers.delete(stop);
  };
  runningSavers.add(stop);
  return stop;
}
