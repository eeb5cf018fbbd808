import { useBackendStatusQuery } from '../api/backendStatus';

/** The backend's version and whether the last check reached it; refreshed every 60 s. */
export function BackendStatus() {
  const status = useBackendStatusQuery();
  const connection = status.isPending ? 'checking' : status.isError ? 'offline' : 'online';
  const label = { checking: 'Checking…', offline: 'Disconnected', online: 'Connected' }[connection];

  return (
    <p className="backend-status">
      <span className={`status-dot status-dot--${connection}`} aria-hidden="true" />
      <span>{label}</span>
      {status.data && (
        <span className="backend-status__version">Backend {status.data.version}</span>
      )}
    </p>
  );
}
