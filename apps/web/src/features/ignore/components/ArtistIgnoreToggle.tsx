import { useQuery } from '@tanstack/react-query';
import { useIgnoreArtistMutation, type IgnoredArtistTarget } from '../api/ignoreArtist';
import { ignoredListQueryOptions } from '../api/ignoredList';
import { useUnignoreArtistMutation } from '../api/unignoreArtist';
import './ignore.css';

interface ArtistIgnoreToggleProps {
  artist: IgnoredArtistTarget;
  /** Visitors see the button disabled (docs/product.md, "Validation rules"). */
  signedIn: boolean;
  onChanged?: () => Promise<unknown>;
}

function SignedInToggle({ artist, onChanged }: Omit<ArtistIgnoreToggleProps, 'signedIn'>) {
  const list = useQuery(ignoredListQueryOptions());
  const ignore = useIgnoreArtistMutation(artist, onChanged);
  const addBack = useUnignoreArtistMutation(artist, onChanged);
  const entry = list.data?.artists.find((ignored) => ignored.artist_id === artist.id);
  const pending = ignore.isPending || addBack.isPending;
  if (entry) {
    // A global ignore is the admins' to lift.
    return (
      <button
        type="button"
        className="button button--secondary ignore-button"
        disabled={pending || entry.is_global}
        onClick={() => addBack.mutate()}
      >
        {addBack.isPending ? 'Adding back…' : 'Add back'}
      </button>
    );
  }
  return (
    <button
      type="button"
      className="button button--secondary ignore-button"
      aria-label={`Ignore ${artist.name}`}
      disabled={pending || list.isPending}
      onClick={() => ignore.mutate()}
    >
      {ignore.isPending ? 'Ignoring…' : 'Ignore'}
    </button>
  );
}

/** The artist page's ignore button, or "Add back" once the viewer ignores the artist. */
export function ArtistIgnoreToggle({ artist, signedIn, onChanged }: ArtistIgnoreToggleProps) {
  if (!signedIn) {
    return (
      <button
        type="button"
        className="button button--secondary ignore-button"
        disabled
        title="Log in to ignore artists"
      >
        Ignore
      </button>
    );
  }
  return <SignedInToggle artist={artist} onChanged={onChanged} />;
}
