import { formatCount } from '@earshot/contract/english';
import type { ViewerListening } from '@earshot/contract/catalogue';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { formatPlays } from '../catalogueFormat';

function ownPlaysText(plays: number, subject: string): string {
  if (plays === 0) return `You haven't played ${subject} yet.`;
  return plays === 1
    ? `You played ${subject} once.`
    : `You played ${subject} ${formatCount(plays)} times.`;
}

/**
 * "Who do I know who listens to this?": the viewer's own plays and the friends who play it,
 * with their counts. Visitors (null) see nothing.
 */
export function ListeningCard({
  listening,
  subject,
}: {
  listening: ViewerListening | null;
  /** What was played, in a sentence: "this track", "this album", or the artist's name. */
  subject: string;
}) {
  if (listening === null) return null;
  const { play_count: ownPlays, friends } = listening;
  return (
    <section className="card listening" aria-labelledby="listening-title">
      <h2 id="listening-title" className="card__title">
        Your listening
      </h2>
      <p className="listening__own">{ownPlaysText(ownPlays, subject)}</p>
      {friends.length === 0 ? (
        <p className="listening__none">None of your friends has played {subject} yet.</p>
      ) : (
        <ul className="listening__friends" aria-label="Friends who play it">
          {friends.map((friend) => (
            <li key={friend.id} className="listening__friend">
              <Link to={`/user/${encodeURIComponent(friend.username)}`}>
                <Avatar name={friend.name || friend.username} picture={friend.picture} size={36} />
                <span className="listening__friend-name">{friend.name || friend.username}</span>
              </Link>
              <span className="listening__friend-plays">{formatPlays(friend.play_count)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
