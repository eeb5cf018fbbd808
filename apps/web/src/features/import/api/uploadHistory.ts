import { uploadAccepted, type ImportStatus, type UploadAccepted } from '@earshot/contract/import';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, requestJson } from '../../../lib/apiClient';
import { importStatusQueryOptions } from './importStatus';

export const UPLOAD_RECEIVED_MESSAGE = 'Upload received';
export const UPLOAD_FAILED_MESSAGE = 'Upload failed';

/** Uploads Spotify's export (.zip) as the multipart field `file`; the import runs as a job. */
export function postHistoryUpload(file: File): Promise<UploadAccepted> {
  const form = new FormData();
  form.append('file', file);
  return requestJson('/api/spotify/import', uploadAccepted, { method: 'POST', body: form });
}

/** The text for a failed upload (docs/product.md §8): the server's message, else "Upload failed". */
export function uploadErrorMessage(error: Error): string {
  return error instanceof ApiError && error.status !== 0 && error.message !== ''
    ? error.message
    : UPLOAD_FAILED_MESSAGE;
}

/** Uploads, then shows the accepted import at once and polls its progress. */
export function useUploadHistoryMutation() {
  const queryClient = useQueryClient();
  const statusKey = importStatusQueryOptions().queryKey;
  return useMutation({
    mutationFn: postHistoryUpload,
    onSuccess: (answer) => {
      queryClient.setQueryData<ImportStatus>(statusKey, (status) =>
        status ? { ...status, current: answer.import } : status,
      );
      void queryClient.invalidateQueries({ queryKey: statusKey });
    },
  });
}
