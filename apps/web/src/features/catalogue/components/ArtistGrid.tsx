import type { ArtistCredit } from '@earshot/contract/catalogue';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';

/** A grid of artists (album artists), each a link to their page. */
export function ArtistGrid({
  title,
  artists,
}: {
  title: string;
  artists: readonly ArtistCredit[];
}) {
  if (artists.length === 0) return null;
  return (
    <section className="card" aria-label={title}>
      <h2 className="card__title">{title}</h2>
      <ul className="artist-grid">
        {artists.map((artist) => (
          <li key={artist.id}>
            <Link className="artist-grid__item" to={`/artist/${encodeURIComponent(artist.id)}`}>
              <Avatar name={artist.name} picture={artist.picture} size={72} />
              <span>{artist.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
