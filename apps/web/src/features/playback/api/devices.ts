import { deviceList, type DeviceList } from '@earshot/contract/playback';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, requestJson } from '../../../lib/apiClient';

/** `GET /api/spotify/devices`. A 401 gives no devices (docs/product.md, Who may do what). */
export async function fetchDevices(signal?: AbortSignal): Promise<DeviceList> {
  try {
    return await requestJson('/api/spotify/devices', deviceList, {
      signal,
      redirectOnAuthFailure: false,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { devices: [] };
    throw error;
  }
}

export function devicesQueryOptions() {
  return queryOptions({
    queryKey: ['spotify', 'devices'],
    queryFn: ({ signal }) => fetchDevices(signal),
    // Devices come and go: asked afresh each time the picker opens.
    staleTime: 0,
  });
}

export function useDevicesQuery(enabled: boolean) {
  return useQuery({ ...devicesQueryOptions(), enabled });
}
