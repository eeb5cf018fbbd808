import type { CurrentUser } from '@earshot/contract/user';
import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { currentUserQueryOptions } from '../features/account/api/currentUser';
import { activityQueryKeys, type ActivityFilters } from '../features/activity/api/activityFeed';
import { ignoredListQueryKey } from '../features/ignore/api/ignoredList';
import { profileQueryKeys } from '../features/profile/api/publicProfile';
import {
  keepSavingQueries,
  reportSavedQueriesError,
  type SavedQueriesPolicy,
} from '../lib/savedQueries';

const currentUserKey = currentUserQueryOptions().queryKey;

const startsWith = (query: Query, prefix: readonly unknown[]) =>
  prefix.every((part, index) => query.queryKey[index] === part);

/**
 * What the app shows offline (docs/product.md §2, Global behaviour): the signed-in user (the
 * shell), the Recent and Likes pages as last seen without a search text, the ignored list their
 * rows are marked by, and the profiles visited.
 */
function isOfflinePage(query: Query): boolean {
  if (startsWith(query, currentUserKey) || startsWith(query, ignoredListQueryKey)) return true;
  if (startsWith(query, profileQueryKeys.all)) return true;
  if (startsWith(query, activityQueryKeys.all)) {
    const filters = query.queryKey[2] as ActivityFilters | undefined;
    // Searches are many and seldom seen again; the feeds themselves are what one opens.
    return filters?.q === '';
  }
  return false;
}

const offlinePagesPolicy: SavedQueriesPolicy = {
  owner: (queryClient) => queryClient.getQueryData<CurrentUser>(currentUserKey)?.id ?? null,
  keeps: isOfflinePage,
};

/** Keeps the signed-in user's pages saved for offline use while the app runs. */
export function keepOfflinePages(queryClient: QueryClient): () => void {
  return keepSavingQueries(queryClient, offlinePagesPolicy, reportSavedQueriesError);
}

/** Rendered while a user is signed in (its chunk loads only then, decision 0023). */
export function OfflinePagesKeeper() {
  const queryClient = useQueryClient();
  useEffect(() => keepOfflinePages(queryClient), [queryClient]);
  return null;
}
