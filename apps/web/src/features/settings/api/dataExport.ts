import {
  dataExport,
  dataExportState,
  type DataExport,
  type DataExportState,
} from '@earshot/contract/export';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { DATA_EXPORT_POLL_MS } from '../../../lib/constants';

/** Where a ready export is downloaded (the server names the file). */
export const DATA_EXPORT_DOWNLOAD_PATH = '/api/user/export/download';

/** Whether an export still has work ahead (its progress changes until it is ready or failed). */
export function isExportInProgress(current: DataExport | null | undefined): boolean {
  return current?.status === 'pending' || current?.status === 'running';
}

/** `GET /api/user/export`: the user's latest export, or null. */
export function fetchDataExport(signal?: AbortSignal): Promise<DataExportState> {
  return requestJson('/api/user/export', dataExportState, { signal });
}

/** Polled while an export is pending or running, so its progress bar moves. */
export function dataExportQueryOptions() {
  return queryOptions({
    queryKey: ['user', 'export'],
    queryFn: ({ signal }) => fetchDataExport(signal),
    refetchInterval: (query) =>
      isExportInProgress(query.state.data?.export) ? DATA_EXPORT_POLL_MS : false,
  });
}

export function useDataExportQuery() {
  return useQuery(dataExportQueryOptions());
}

/** `POST /api/user/export`: starts an export, or answers the one already running. */
export function startDataExport(): Promise<DataExport> {
  return requestJson('/api/user/export', dataExport, { method: 'POST' });
}

/** Starts an export and shows it at once; its progress is then polled. */
export function useStartDataExportMutation() {
  const queryClient = useQueryClient();
  const { queryKey } = dataExportQueryOptions();
  return useMutation({
    mutationFn: startDataExport,
    onSuccess: (started) => {
      queryClient.setQueryData<DataExportState>(queryKey, { export: started });
      void queryClient.invalidateQueries({ queryKey });
    },
  });
}
