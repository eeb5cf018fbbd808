import type { TrackSummary } from '@earshot/contract/track';
import { useIgnoreArtistMutation, type IgnoredArtistTarget } from '../api/ignoreArtist';
import { useIgnoreTrackMutation, type IgnoredListOwner } from '../api/ignoreTrack';
import { useTrackIgnoreState } from '../hooks/useTrackIgnoreState';
import { IgnoreIcon } from '../../../components/ui/icons';
import './ignore.css';

interface IgnoreButtonProps {
  /** What is ignored, for the button's accessible name. */
  name: string;
  pending: boolean;
  ignored: boolean;
  onIgnore: () => void;
}

function IgnoreButton({ name, pending, ignored, onIgnore }: IgnoreButtonProps) {
  return (
    <button
      type="button"
      className="button button--secondary ignore-button ignore-button--compact"
      aria-label={ignored ? `${name} ignored` : `Ignore ${name}`}
      disabled={pending || ignored}
      onClick={onIgnore}
    >
      {/* A phone shows the icon alone, so that the title beside it keeps its room. */}
      <IgnoreIcon size={18} />
      <span className="ignore-button__text">
        {pending ? 'Ignoring…' : ignored ? 'Ignored' : 'Ignore'}
      </span>
    </button>
  );
}

interface IgnoreTrackButtonProps {
  track: TrackSummary;
  viewer: IgnoredListOwner;
  onIgnored?: () => Promise<unknown>;
}

/** Ignores a song of a list; says "Ignored" once it is, wherever it was ignored from. */
export function IgnoreTrackButton({ track, viewer, onIgnored }: IgnoreTrackButtonProps) {
  const state = useTrackIgnoreState(track.uid);
  const ignore = useIgnoreTrackMutation({ track, viewer, failureName: track.title, onIgnored });
  return (
    <IgnoreButton
      name={track.title}
      pending={state === 'ignoring'}
      // The call's own answer counts too: the ignored list may have failed to load.
      ignored={state === 'ignored' || ignore.isSuccess}
      onIgnore={() => ignore.mutate()}
    />
  );
}

interface IgnoreArtistButtonProps {
  artist: IgnoredArtistTarget;
  onIgnored?: () => Promise<unknown>;
}

/** Ignores an artist of a list. */
export function IgnoreArtistButton({ artist, onIgnored }: IgnoreArtistButtonProps) {
  const ignore = useIgnoreArtistMutation(artist, onIgnored);
  return (
    <IgnoreButton
      name={artist.name}
      pending={ignore.isPending}
      ignored={ignore.isSuccess}
      onIgnore={() => ignore.mutate()}
    />
  );
}
