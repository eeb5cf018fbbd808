import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CopyLinkField } from '../../../components/ui/CopyLinkField';
import { PageMeta } from '../../../components/ui/PageMeta';
import { SETTINGS_LINK_COPIED_MS } from '../../../lib/constants';
import { DataExportCard } from './DataExportCard';
import { DeleteAccountCard } from './DeleteAccountCard';
import { StreamingAccountCard, type StreamingConnection } from './StreamingAccountCard';
import { UsernameEditor } from './UsernameEditor';
import './settings.css';

interface SettingsPageProps {
  username: string;
  email: string | null;
  connection: StreamingConnection;
  connectAction: ReactNode;
  /** Called with the new username once saved, to refresh the current user. */
  onUsernameSaved: (username: string) => void;
}

/** The page around the settings' cards, for users and visitors alike. */
function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <section className="settings" aria-labelledby="settings-title">
      <PageMeta title="Settings" noindex />
      <h1 id="settings-title" className="settings__title">
        Settings
      </h1>
      {children}
    </section>
  );
}

/** `/settings` for a logged-in user (docs/product.md §2, Settings). */
export function SettingsPage({
  username,
  email,
  connection,
  connectAction,
  onUsernameSaved,
}: SettingsPageProps) {
  const profilePath = `/user/${encodeURIComponent(username)}`;
  return (
    <SettingsLayout>
      <section className="card settings__card" aria-labelledby="settings-profile-title">
        <h2 id="settings-profile-title" className="card__title">
          Public profile
        </h2>
        <UsernameEditor username={username} onSaved={onUsernameSaved} />
        <CopyLinkField
          label="Public profile link"
          url={`${window.location.origin}${profilePath}`}
          copyText="Copy"
          copiedText="Copied"
          copiedMs={SETTINGS_LINK_COPIED_MS}
        />
        <Link to={profilePath} className="settings__link">
          View your public profile
        </Link>
      </section>

      <StreamingAccountCard email={email} connection={connection} connectAction={connectAction} />

      <section className="card settings__card" aria-labelledby="settings-import-title">
        <h2 id="settings-import-title" className="card__title">
          Listening history
        </h2>
        <p className="settings__muted">
          Spotify only shares about the last 24 hours of plays from when you connect. Import your
          extended streaming history to bring in everything before that.
        </p>
        <Link to="/spotify/import" className="button button--secondary settings__import">
          Import extended history
        </Link>
      </section>
      <DataExportCard />
      <DeleteAccountCard username={username} />
    </SettingsLayout>
  );
}

/** `/settings` for a visitor. */
export function SettingsLoginPrompt() {
  return (
    <SettingsLayout>
      <div className="card settings__card">
        <p>Please log in to view your settings.</p>
        <Link to="/login?next=%2Fsettings" className="button button--primary settings__import">
          Log in
        </Link>
      </div>
    </SettingsLayout>
  );
}
