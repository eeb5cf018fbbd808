import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LiveStreamProvider } from '../lib/live';
import { NotificationsProvider } from '../lib/notifications';

export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <NotificationsProvider>
        <LiveStreamProvider>{children}</LiveStreamProvider>
      </NotificationsProvider>
    </QueryClientProvider>
  );
}
