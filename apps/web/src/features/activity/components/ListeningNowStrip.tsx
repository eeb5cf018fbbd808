import type { LiveNowPlaying } from '@earshot/contract/live';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { LIVE_NOW_PLAYING_GRACE_MS, LIVE_PROGRESS_TICK_MS } from '../../../lib/constants';
import { useNowPlaying } from '../../../lib/live';
import { Cover } from '../../../components/ui/Cover';

function formatTime(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Where the track is now: the progress told, moved on by the time since (capped at its end). */
function progressAt(now: LiveNowPlaying, at: number): number {
  const told = now.progress_ms ?? 0;
  const since = now.observed_at ? Math.max(0, at - Date.parse(now.observed_at)) : 0;
  const duration = now.track?.duration ?? Number.POSITIVE_INFINITY;
  return Math.min(told + (now.is_playing ? since : 0), duration);
}

/**
 * Whether the entry still says something true at `at`: its track has not ended more than the
 * grace ago (no word since means the asks stopped, not an endless song).
 */
function stillCurrent(now: LiveNowPlaying, at: number): boolean {
  if (!now.track?.duration || !now.observed_at) return true;
  const endsAt = Date.parse(now.observed_at) + now.track.duration - (now.progress_ms ?? 0);
  return at <= endsAt + LIVE_NOW_PLAYING_GRACE_MS;
}

/** A clock for the progress bars, ticking only while something is shown. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setNow(Date.now()), LIVE_PROGRESS_TICK_MS);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** "Listening now" on Recent: the friends playing right now, with cover, title and progress. */
export function ListeningNowStrip({ viewerId }: { viewerId: string }) {
  const told = useNowPlaying().filter((entry) => entry.user.id !== viewerId && entry.track);
  const now = useNow(told.length > 0);
  const playing = told.filter((entry) => stillCurrent(entry, now));
  if (playing.length === 0) return null;

  return (
    <section className="listening-now" aria-labelledby="listening-now-title">
      <h2 id="listening-now-title" className="listening-now__title">
        Listening now
      </h2>
      <ul className="listening-now__list">
        {playing.map((entry) => {
          const track = entry.track!;
          const progress = progressAt(entry, now);
          const percent = track.duration ? Math.round((progress / track.duration) * 100) : 0;
          return (
            <li key={entry.user.id} className="listening-now__item">
              <Cover className="listening-now__cover" picture={track.album?.picture} />
              <div className="listening-now__text">
                <Link
                  className="listening-now__track"
                  to={`/track/${encodeURIComponent(track.id)}`}
                >
                  {track.title}
                </Link>
                <Link
                  className="listening-now__user"
                  to={`/user/${encodeURIComponent(entry.user.username)}`}
                >
                  {entry.user.name}
                </Link>
                <div
                  className="listening-now__progress"
                  role="progressbar"
                  aria-label={`${track.title} progress`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={percent}
                  aria-valuetext={
                    track.duration
                      ? `${formatTime(progress)} of ${formatTime(track.duration)}`
                      : formatTime(progress)
                  }
                >
                  <span style={{ width: `${percent}%` }} />
                </div>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
