import { adminNotifications, type AdminNotifications } from '@earshot/contract/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, requestJson, type ResponseSchema } from '../../../lib/apiClient';
import {
  ADMIN_NOTIFICATIONS_REFETCH_MS,
  ADMIN_NOTIFICATIONS_STALE_MS,
} from '../../../lib/constants';
import { adminQueryKeys } from './adminQueryKeys';

export const MALFORMED_ADMIN_NOTIFICATIONS = 'Malformed admin notifications response';

/** Takes the body as it is, so that a mismatch gets its own message below. */
const anyJson: ResponseSchema<unknown> = { parse: (data) => data };

/** `GET /api/admin/notifications`: reports per song and artist, and pending beta requests. */
export async function fetchAdminNotifications(signal?: AbortSignal): Promise<AdminNotifications> {
  const body = await requestJson('/api/admin/notifications', anyJson, { signal });
  const parsed = adminNotifications.safeParse(body);
  if (!parsed.success) throw new ApiError(200, MALFORMED_ADMIN_NOTIFICATIONS);
  return parsed.data;
}

export function adminNotificationsQueryOptions() {
  return queryOptions({
    queryKey: adminQueryKeys.notifications,
    queryFn: ({ signal }) => fetchAdminNotifications(signal),
    staleTime: ADMIN_NOTIFICATIONS_STALE_MS,
    refetchInterval: ADMIN_NOTIFICATIONS_REFETCH_MS,
  });
}

/** Polled for admins only: mount it where the viewer is an admin. */
export function useAdminNotificationsQuery(enabled: boolean) {
  return useQuery({ ...adminNotificationsQueryOptions(), enabled });
}
