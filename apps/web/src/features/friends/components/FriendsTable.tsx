import { formatCount } from '@earshot/contract/english';
import type { Friend } from '@earshot/contract/friendship';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { LoadingState } from '../../../components/ui/LoadingState';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { useFriendListQuery } from '../api/friendList';
import { FriendRowActions } from './FriendRowActions';

/** When a friend last played; a request's row does not know (plays are for friends to see). */
function LastPlay({ friend }: { friend: Friend }) {
  if (friend.status !== 'accepted') {
    return (
      <>
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">Shown once you are friends</span>
      </>
    );
  }
  return friend.last_play === null ? 'Never' : <RelativeTime iso={friend.last_play} />;
}

function FriendRow({ friend }: { friend: Friend }) {
  const username = encodeURIComponent(friend.username);
  return (
    <tr>
      <td className="friends-table__avatar">
        <Avatar name={friend.name || friend.username} picture={friend.picture} size={40} />
      </td>
      <th scope="row" className="friends-table__user">
        <Link to={`/user/${username}`} className="friends-table__username">
          {friend.username}
        </Link>
        {friend.name && friend.name !== friend.username && (
          <span className="friends-table__name">{friend.name}</span>
        )}
      </th>
      <td className="friends-table__number">
        {friend.status === 'accepted' ? (
          <Link
            to={`/likes/user/${username}`}
            className="friends-table__likes"
            aria-label={`${formatCount(friend.likes)} likes of ${friend.username}`}
          >
            {formatCount(friend.likes)}
          </Link>
        ) : (
          // Their likes page opens only to friends: a request's row shows the count alone.
          <span className="friends-table__likes">{formatCount(friend.likes)}</span>
        )}
      </td>
      <td className="friends-table__last-play">
        <LastPlay friend={friend} />
      </td>
      <td className="friends-table__actions">
        <FriendRowActions friend={friend} />
      </td>
    </tr>
  );
}

/** The friends table (docs/product.md §2, "Friends"): friends and requests both ways. */
export function FriendsTable() {
  const friends = useFriendListQuery();

  if (friends.isPending) return <LoadingState />;
  if (friends.isError) {
    return (
      <p className="friends-page__message friends-page__message--error" role="alert">
        Failed to load friends.
      </p>
    );
  }
  if (friends.data.friends.length === 0) {
    return <p className="friends-page__message">No friends yet.</p>;
  }
  return (
    <div className="card friends-table__card">
      <table className="friends-table">
        <caption className="visually-hidden">Your friends and friend requests</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Avatar</span>
            </th>
            <th scope="col">Username</th>
            <th scope="col" className="friends-table__number">
              # Likes
            </th>
            <th scope="col" className="friends-table__last-play">
              Last Play
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {friends.data.friends.map((friend) => (
            <FriendRow key={friend.id} friend={friend} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
