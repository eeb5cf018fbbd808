import { CopyLinkField } from '../../../components/ui/CopyLinkField';
import { PageMeta } from '../../../components/ui/PageMeta';
import { FRIENDS_LINK_COPIED_MS } from '../../../lib/constants';
import { AddFriendForm } from './AddFriendForm';
import { FriendsTable } from './FriendsTable';
import './friends.css';

/** `/friends`: the viewer's public stats link, a way to add friends, and the friends table. */
export function FriendsPage({ viewerUsername }: { viewerUsername: string }) {
  const statsUrl = `${window.location.origin}/user/${encodeURIComponent(viewerUsername)}`;
  return (
    <section className="friends-page" aria-labelledby="friends-page-title">
      <PageMeta title="Friends" noindex />
      <h1 id="friends-page-title" className="friends-page__title">
        Friends
      </h1>
      <div className="friends-page__tools">
        <div className="card friends-page__share">
          <CopyLinkField
            label="Your public stats page"
            url={statsUrl}
            copiedText="Copied!"
            copiedMs={FRIENDS_LINK_COPIED_MS}
          />
          <p className="friends-page__hint">Share it so friends can find and add you.</p>
        </div>
        <AddFriendForm />
      </div>
      <FriendsTable />
    </section>
  );
}
