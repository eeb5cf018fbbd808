import type { TopArtist, TopSong } from '@earshot/contract/profile';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { useNotificationStack } from '../../../lib/notifications';
import { useIgnoreArtistMutation } from '../api/ignoreArtist';
import { useIgnoreTrackMutation } from '../api/ignoreTrack';
import { formatPlays, rankLabel } from '../profileFormat';

function Rank({ rank }: { rank: number }) {
  const label = rankLabel(rank);
  return (
    <span className="highlight__rank" aria-label={`Rank ${rank}`} role="img">
      {label}
    </span>
  );
}

/** An album cover, or a plain square when there is none. */
function Cover({ picture }: { picture: string | null }) {
  if (picture) {
    return <img className="highlight__cover" src={picture} alt="" width={40} height={40} />;
  }
  return <span className="highlight__cover" aria-hidden="true" />;
}

interface IgnoreButtonProps {
  /** What is ignored, for the button's accessible name and the notifications. */
  name: string;
  ignore: ReturnType<typeof useIgnoreTrackMutation> | ReturnType<typeof useIgnoreArtistMutation>;
  target: string;
}

/** Ignores the entry in the viewer's stats; errors become notifications (spec section 8). */
function IgnoreButton({ name, ignore, target }: IgnoreButtonProps) {
  const notifications = useNotificationStack();
  return (
    <button
      type="button"
      className="button button--secondary highlight__ignore"
      aria-label={ignore.isSuccess ? `${name} ignored` : `Ignore ${name}`}
      disabled={ignore.isPending || ignore.isSuccess}
      onClick={() =>
        ignore.mutate(target, {
          onError: (error) =>
            notifications.push(`Failed to ignore ${name}: ${error.message}`, { kind: 'error' }),
        })
      }
    >
      {ignore.isPending ? 'Ignoring…' : ignore.isSuccess ? 'Ignored' : 'Ignore'}
    </button>
  );
}

function SongEntry({ song, rank }: { song: TopSong; rank: number }) {
  const ignore = useIgnoreTrackMutation();
  const { track } = song;
  const artists = track.artists.map((artist) => artist.name).join(', ');
  return (
    <li className="highlight">
      <Rank rank={rank} />
      <Cover picture={track.album?.picture ?? null} />
      <div className="highlight__text">
        <Link to={`/track/${encodeURIComponent(track.id)}`} className="highlight__title">
          {track.title}
        </Link>
        <span className="highlight__meta">
          <span className="highlight__detail">{artists}</span>
          <span className="highlight__plays">{formatPlays(song.play_count)}</span>
        </span>
      </div>
      <IgnoreButton name={track.title} ignore={ignore} target={track.uid} />
    </li>
  );
}

function ArtistEntry({ artist, rank }: { artist: TopArtist; rank: number }) {
  const ignore = useIgnoreArtistMutation();
  return (
    <li className="highlight">
      <Rank rank={rank} />
      <Avatar name={artist.name} picture={artist.picture} size={40} />
      <div className="highlight__text">
        <Link to={`/artist/${encodeURIComponent(artist.id)}`} className="highlight__title">
          {artist.name}
        </Link>
        <span className="highlight__meta">
          <span className="highlight__plays">{formatPlays(artist.play_count)}</span>
        </span>
      </div>
      <IgnoreButton name={artist.name} ignore={ignore} target={artist.id} />
    </li>
  );
}

function HighlightList({ title, children }: { title: string; children: ReactNode[] }) {
  return (
    <section className="highlights__section">
      <h3 className="highlights__title">{title}</h3>
      {children.length === 0 ? (
        <p className="highlights__empty">Nothing here yet.</p>
      ) : (
        <ol className="highlights__list">{children}</ol>
      )}
    </section>
  );
}

interface TopHighlightsProps {
  songsLast30Days: readonly TopSong[];
  songsAllTime: readonly TopSong[];
  artists: readonly TopArtist[];
}

/** Top songs (last 30 days, all time) and top artists, for friends and the owner. */
export function TopHighlights({ songsLast30Days, songsAllTime, artists }: TopHighlightsProps) {
  return (
    <section className="card highlights" aria-labelledby="top-highlights-title">
      <h2 id="top-highlights-title" className="card__title">
        Top Highlights
      </h2>
      <div className="highlights__grid">
        <HighlightList title="Top songs · last 30 days">
          {songsLast30Days.map((song, index) => (
            <SongEntry key={song.track.uid} song={song} rank={index + 1} />
          ))}
        </HighlightList>
        <HighlightList title="Top songs · all time">
          {songsAllTime.map((song, index) => (
            <SongEntry key={song.track.uid} song={song} rank={index + 1} />
          ))}
        </HighlightList>
        <HighlightList title="Top artists">
          {artists.map((artist, index) => (
            <ArtistEntry key={artist.id} artist={artist} rank={index + 1} />
          ))}
        </HighlightList>
      </div>
    </section>
  );
}
