import { importStatus, type ImportProgress, type ImportStatus } from '@earshot/contract/import';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { IMPORT_STATUS_POLL_MS } from '../../../lib/constants';

/** Whether an import still has work ahead (its progress changes until it is done or failed). */
export function isImportInProgress(progress: ImportProgress | null): boolean {
  return progress !== null && (progress.state === 'queued' || progress.state === 'running');
}

/** The viewer's import status: wait time, last import, plays imported, the latest import. */
export function fetchImportStatus(signal?: AbortSignal): Promise<ImportStatus> {
  return requestJson('/api/spotify/import', importStatus, { signal });
}

/** Polled while an import is queued or running, so its progress bar moves. */
export function importStatusQueryOptions() {
  return queryOptions({
    queryKey: ['spotify', 'import'],
    queryFn: ({ signal }) => fetchImportStatus(signal),
    refetchInterval: (query) =>
      isImportInProgress(query.state.data?.current ?? null) ? IMPORT_STATUS_POLL_MS : false,
  });
}

export function useImportStatusQuery() {
  return useQuery(importStatusQueryOptions());
}
