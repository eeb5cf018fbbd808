import { formatCount } from '@earshot/contract/english';
import type { ProfileStats } from '@earshot/contract/profile';
import type { ReactNode } from 'react';
import { formatDate, formatListeningTime, listeningTimeDuration } from '../profileFormat';

function ListeningTime({ seconds }: { seconds: number }) {
  return <time dateTime={listeningTimeDuration(seconds)}>{formatListeningTime(seconds)}</time>;
}

/** The stats everyone may see (docs/product.md §3, Public profile). */
export function ProfileStatsCard({ stats }: { stats: ProfileStats }) {
  const rows: { label: string; value: ReactNode }[] = [
    { label: 'Total likes', value: formatCount(stats.total_likes) },
    { label: 'Total plays', value: formatCount(stats.total_plays) },
    {
      label: 'Total listening time',
      value: <ListeningTime seconds={stats.total_listening_time_sec} />,
    },
    {
      label: 'Listening time, last 30 days',
      value: <ListeningTime seconds={stats.listening_time_last_30_days_sec} />,
    },
    {
      label: 'Tracking since',
      value:
        stats.tracking_since === null ? (
          'No plays yet'
        ) : (
          <time dateTime={stats.tracking_since}>{formatDate(stats.tracking_since)}</time>
        ),
    },
    { label: 'Most played decade', value: stats.most_played_decade ?? 'Not known yet' },
    { label: 'Most played genre', value: stats.most_played_genre ?? 'Not known yet' },
    { label: 'Playlists', value: formatCount(stats.playlists) },
    { label: 'Artists', value: formatCount(stats.artists) },
  ];

  return (
    <section className="card profile-stats" aria-labelledby="profile-stats-title">
      <h2 id="profile-stats-title" className="card__title">
        Stats
      </h2>
      <dl className="profile-stats__list">
        {rows.map((row) => (
          <div key={row.label} className="profile-stats__item">
            <dt className="profile-stats__label">{row.label}</dt>
            <dd className="profile-stats__value">{row.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
