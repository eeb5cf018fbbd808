import type { TopArtist, TopSong } from '@earshot/contract/profile';
import type { TrackSummary } from '@earshot/contract/track';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { Cover } from '../../../components/ui/Cover';
import { formatPlays, rankMedal } from '../profileFormat';

/**
 * A medal for ranks 1 to 3, drawn in CSS (no emoji: phones without an emoji font would show
 * empty boxes), then "#n".
 */
function Rank({ rank }: { rank: number }) {
  const medal = rankMedal(rank);
  if (!medal) {
    return (
      <span className="highlight__rank" aria-label={`Rank ${rank}`} role="img">
        #{rank}
      </span>
    );
  }
  return (
    <span
      className={`highlight__rank medal medal--${medal}`}
      aria-label={`Rank ${rank}, ${medal} medal`}
      role="img"
    >
      {rank}
    </span>
  );
}

/** The ignore buttons of the entries, from the ignore feature (composed in `app/`). */
export interface HighlightIgnoreSlots {
  renderIgnoreSong: (track: TrackSummary) => ReactNode;
  renderIgnoreArtist: (artist: TopArtist) => ReactNode;
}

interface SongEntryProps {
  song: TopSong;
  rank: number;
  renderIgnore: HighlightIgnoreSlots['renderIgnoreSong'];
}

function SongEntry({ song, rank, renderIgnore }: SongEntryProps) {
  const { track } = song;
  const artists = track.artists.map((artist) => artist.name).join(', ');
  return (
    <li className="highlight">
      <Rank rank={rank} />
      <Cover className="highlight__cover" picture={track.album?.picture} size={40} />
      <div className="highlight__text">
        <Link to={`/track/${encodeURIComponent(track.id)}`} className="highlight__title">
          {track.title}
        </Link>
        <span className="highlight__meta">
          <span className="highlight__detail">{artists}</span>
          <span className="highlight__plays">{formatPlays(song.play_count)}</span>
        </span>
      </div>
      {renderIgnore(track)}
    </li>
  );
}

interface ArtistEntryProps {
  artist: TopArtist;
  rank: number;
  renderIgnore: HighlightIgnoreSlots['renderIgnoreArtist'];
}

function ArtistEntry({ artist, rank, renderIgnore }: ArtistEntryProps) {
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
      {renderIgnore(artist)}
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

interface TopHighlightsProps extends HighlightIgnoreSlots {
  songsLast30Days: readonly TopSong[];
  songsAllTime: readonly TopSong[];
  artists: readonly TopArtist[];
}

/** Top songs (last 30 days, all time) and top artists, for friends and the owner. */
export function TopHighlights({
  songsLast30Days,
  songsAllTime,
  artists,
  renderIgnoreSong,
  renderIgnoreArtist,
}: TopHighlightsProps) {
  const songEntries = (songs: readonly TopSong[]) =>
    songs.map((song, index) => (
      <SongEntry
        key={song.track.uid}
        song={song}
        rank={index + 1}
        renderIgnore={renderIgnoreSong}
      />
    ));
  return (
    <section className="card highlights" aria-labelledby="top-highlights-title">
      <h2 id="top-highlights-title" className="card__title">
        Top Highlights
      </h2>
      <div className="highlights__grid">
        <HighlightList title="Top songs · last 30 days">
          {songEntries(songsLast30Days)}
        </HighlightList>
        <HighlightList title="Top songs · all time">{songEntries(songsAllTime)}</HighlightList>
        <HighlightList title="Top artists">
          {artists.map((artist, index) => (
            <ArtistEntry
              key={artist.id}
              artist={artist}
              rank={index + 1}
              renderIgnore={renderIgnoreArtist}
            />
          ))}
        </HighlightList>
      </div>
    </section>
  );
}
