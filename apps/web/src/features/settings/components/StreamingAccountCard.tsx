import type { ReactNode } from 'react';

/** What is known about the Spotify connection (from `GET /api/spotify/stats`). */
export type StreamingConnection =
  | { state: 'checking' }
  | { state: 'active' }
  | { state: 'inactive' }
  | { state: 'failed'; message: string };

interface StreamingAccountCardProps {
  /** The account's e-mail; null when Spotify does not share it. */
  email: string | null;
  connection: StreamingConnection;
  /** The button that (re)connects Spotify through the authorization flow. */
  connectAction: ReactNode;
}

function ConnectionStatus({ connection, connectAction }: Omit<StreamingAccountCardProps, 'email'>) {
  switch (connection.state) {
    case 'checking':
      return (
        <span className="settings__status">
          <span className="status-dot status-dot--checking" aria-hidden="true" />
          Checking…
        </span>
      );
    case 'active':
      return (
        <span className="settings__status">
          <span className="status-dot status-dot--online" aria-hidden="true" />
          Active
        </span>
      );
    case 'inactive':
      return connectAction;
    case 'failed':
      return (
        <span className="settings__status-block">
          <span className="settings__error" role="alert">
            Couldn&apos;t check the connection: {connection.message}
          </span>
          {connectAction}
        </span>
      );
  }
}

/** The streaming-account card of the settings (docs/product.md §2, Settings). */
export function StreamingAccountCard({
  email,
  connection,
  connectAction,
}: StreamingAccountCardProps) {
  return (
    <section className="card settings__card" aria-labelledby="settings-spotify-title">
      <h2 id="settings-spotify-title" className="card__title">
        Spotify account
      </h2>
      <dl className="settings__facts">
        <div className="settings__fact">
          <dt>E-mail</dt>
          <dd>
            {email ?? (
              <span className="settings__muted">
                Hidden by Spotify: it does not share this account&apos;s e-mail with us.
              </span>
            )}
          </dd>
        </div>
        <div className="settings__fact">
          <dt>Status</dt>
          <dd>
            <ConnectionStatus connection={connection} connectAction={connectAction} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
