import { Fragment } from 'react';
import { Link } from 'react-router';

/** Links to the artists of a track or album, separated by commas. */
export function ArtistLinks({ artists }: { artists: readonly { id: string; name: string }[] }) {
  return (
    <>
      {artists.map((artist, index) => (
        <Fragment key={`${artist.id}-${index}`}>
          {index > 0 && ', '}
          <Link className="byline-link" to={`/artist/${encodeURIComponent(artist.id)}`}>
            {artist.name}
          </Link>
        </Fragment>
      ))}
    </>
  );
}
