import type { FriendshipStatus } from '@earshot/contract/friendship';
import type { PublicProfile } from '@earshot/contract/profile';
import type { ReactNode } from 'react';
import { Avatar } from '../../../components/ui/Avatar';
import { LoadingState } from '../../../components/ui/LoadingState';
import { PageMeta } from '../../../components/ui/PageMeta';
import { NotSavedOffline, SavedCopyNote } from '../../../components/ui/SavedCopyNote';
import { NotFoundStatusPage, StatusPage } from '../../../components/ui/StatusPage';
import { ApiError } from '../../../lib/apiClient';
import {
  PRODUCT_NAME,
  profileDescription,
  profileStructuredData,
  profileTitle,
} from '@earshot/contract/site';
import { usePublicProfileQuery } from '../api/publicProfile';
import { ListeningActivityChart } from './ListeningActivityChart';
import { ProfileStatsCard } from './ProfileStatsCard';
import { TopHighlights, type HighlightIgnoreSlots } from './TopHighlights';
import './profile.css';

/** The friend button's inputs: another user's profile seen by a logged-in viewer. */
export interface FriendButtonSlot {
  username: string;
  status: Exclude<FriendshipStatus, 'self'>;
  /** When the status was fetched (with the profile). */
  fetchedAt: number;
}

interface ProfileSlots extends HighlightIgnoreSlots {
  /** Renders the friend button; only called for logged-in viewers of someone else's profile. */
  renderFriendButton: (slot: FriendButtonSlot) => ReactNode;
}

interface PublicProfilePageProps extends ProfileSlots {
  /** The username or id from the address. */
  handle: string;
}

function ProfileMeta({ profile }: { profile: PublicProfile }) {
  const { user, stats } = profile;
  const path = `/user/${encodeURIComponent(user.username)}`;
  return (
    <PageMeta
      title={profileTitle(user)}
      description={profileDescription(user, stats)}
      canonicalPath={path}
      image={user.picture}
      type="profile"
      structuredData={profileStructuredData(user, stats, `${window.location.origin}${path}`)}
    />
  );
}

interface ProfileViewProps extends ProfileSlots {
  profile: PublicProfile;
  fetchedAt: number;
}

function ProfileView({
  profile,
  fetchedAt,
  renderFriendButton,
  renderIgnoreSong,
  renderIgnoreArtist,
}: ProfileViewProps) {
  const { user, stats, friendship, taste_match: tasteMatch } = profile;
  const displayName = user.name || user.username;
  const showsFriendButton = friendship !== null && friendship !== 'self';

  return (
    <article className="profile" aria-labelledby="profile-name">
      <ProfileMeta profile={profile} />
      <SavedCopyNote savedAt={fetchedAt} />
      <header className="card profile-header">
        <Avatar name={displayName} picture={user.picture} size={96} />
        <div className="profile-header__identity">
          <h1 id="profile-name" className="profile-header__name">
            {displayName}
          </h1>
          <p className="profile-header__username">@{user.username}</p>
          {tasteMatch !== null && (
            <p className="profile-header__match">{tasteMatch}% taste match</p>
          )}
        </div>
        {showsFriendButton && (
          <div className="profile-header__action">
            {renderFriendButton({ username: user.username, status: friendship, fetchedAt })}
          </div>
        )}
      </header>
      <ProfileStatsCard stats={stats} />
      {stats.weekly_plays !== null && <ListeningActivityChart weeks={stats.weekly_plays} />}
      {stats.top_songs_30_days !== null &&
        stats.top_songs_all_time !== null &&
        stats.top_artists !== null && (
          <TopHighlights
            songsLast30Days={stats.top_songs_30_days}
            songsAllTime={stats.top_songs_all_time}
            artists={stats.top_artists}
            renderIgnoreSong={renderIgnoreSong}
            renderIgnoreArtist={renderIgnoreArtist}
          />
        )}
    </article>
  );
}

/**
 * `/user/{username or id}` (docs/product.md §2, Public profile), for visitors too. Highlights and
 * the activity chart come only when the server includes them (friends and the owner).
 */
export function PublicProfilePage({ handle, ...slots }: PublicProfilePageProps) {
  const profile = usePublicProfileQuery(handle);

  if (profile.isPending) {
    return (
      <>
        <PageMeta title="Profile" />
        {profile.fetchStatus === 'paused' ? <NotSavedOffline /> : <LoadingState />}
      </>
    );
  }
  if (profile.isError) {
    if (profile.error instanceof ApiError && profile.error.status === 404) {
      return (
        <NotFoundStatusPage
          title="Profile not found"
          message={`No one on ${PRODUCT_NAME} has this username. It may have changed, or the link may be mistyped.`}
        />
      );
    }
    return (
      <StatusPage title="Failed to load profile" role="alert">
        <p className="status-page__message">{profile.error.message}</p>
        <button
          type="button"
          className="button button--primary"
          disabled={profile.isFetching}
          onClick={() => void profile.refetch()}
        >
          Retry
        </button>
      </StatusPage>
    );
  }
  return <ProfileView profile={profile.data} fetchedAt={profile.dataUpdatedAt} {...slots} />;
}
