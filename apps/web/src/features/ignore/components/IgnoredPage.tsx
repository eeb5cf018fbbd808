import type { ActivityItem } from '@earshot/contract/activity';
import type { IgnoredList } from '@earshot/contract/ignore';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { LoadingState } from '../../../components/ui/LoadingState';
import { PageMeta } from '../../../components/ui/PageMeta';
import { ignoredListQueryOptions } from '../api/ignoredList';
import type { IgnoreTarget } from '../api/ignoreTarget';
import { IgnoredItemActions } from './IgnoredItemActions';
import './ignore.css';

export const IGNORED_INTRO =
  'Ignored artists and tracks are left out of your stats and suggestions. If something should ' +
  'not count for anyone (white noise, a podcast filed as music, a mislabelled upload), report ' +
  'it: an admin reviews the request and, once approved, it is excluded globally.';

interface IgnoredRowProps {
  target: IgnoreTarget;
  title: React.ReactNode;
  detail?: string;
  isGlobal: boolean;
  reported: boolean;
  isAdmin: boolean;
}

function IgnoredRow({ target, title, detail, isGlobal, reported, isAdmin }: IgnoredRowProps) {
  return (
    <li className="ignored-row">
      <div className="ignored-row__text">
        <span className="ignored-row__title">{title}</span>
        {detail && <span className="ignored-row__detail">{detail}</span>}
      </div>
      <div className="ignored-row__badges">
        {isGlobal && <span className="ignore-badge ignore-badge--global">Global</span>}
        {reported && !isGlobal && <span className="ignore-badge">Reported</span>}
      </div>
      <IgnoredItemActions
        target={target}
        isGlobal={isGlobal}
        reported={reported}
        isAdmin={isAdmin}
      />
    </li>
  );
}

function trackRow(item: ActivityItem, isAdmin: boolean) {
  const { track } = item;
  return (
    <IgnoredRow
      key={track.uid}
      target={{ kind: 'track', key: track.uid, name: track.title }}
      title={track.title}
      detail={track.artists.map((artist) => artist.name).join(', ')}
      isGlobal={item.is_global}
      reported={item.reported}
      isAdmin={isAdmin}
    />
  );
}

function IgnoredSection({
  title,
  count,
  empty,
  children,
}: {
  title: string;
  count: number;
  empty: string;
  children: React.ReactNode;
}) {
  const id = `ignored-${title.toLowerCase()}`;
  return (
    <section className="card ignored-section" aria-labelledby={id}>
      <h2 id={id} className="card__title ignored-section__title">
        {title} <span className="ignored-section__count">{count}</span>
      </h2>
      {count === 0 ? (
        <p className="ignored-section__empty">{empty}</p>
      ) : (
        <ul className="ignored-section__list">{children}</ul>
      )}
    </section>
  );
}

function IgnoredLists({ list, isAdmin }: { list: IgnoredList; isAdmin: boolean }) {
  return (
    <>
      <IgnoredSection title="Artists" count={list.artists.length} empty="No ignored artists yet.">
        {list.artists.map((artist) => (
          <IgnoredRow
            key={artist.artist_id}
            target={{ kind: 'artist', key: artist.artist_id, name: artist.name }}
            title={
              <Link to={`/artist/${encodeURIComponent(artist.artist_id)}`}>{artist.name}</Link>
            }
            isGlobal={artist.is_global}
            reported={artist.reported}
            isAdmin={isAdmin}
          />
        ))}
      </IgnoredSection>
      <IgnoredSection title="Tracks" count={list.tracks.length} empty="No ignored tracks yet.">
        {list.tracks.map((item) => trackRow(item, isAdmin))}
      </IgnoredSection>
    </>
  );
}

/** `/ignored`: what the viewer left out of their stats, with un-ignore, report and (admins) global unignore. */
export function IgnoredPage({ isAdmin }: { isAdmin: boolean }) {
  const list = useQuery(ignoredListQueryOptions());
  return (
    <div className="ignored-page">
      <PageMeta title="Ignored Items" noindex />
      <h1 className="ignored-page__title">Ignored Items</h1>
      <p className="ignored-page__intro">{IGNORED_INTRO}</p>
      {list.isPending ? (
        <LoadingState />
      ) : list.isError ? (
        <p className="ignored-page__error" role="alert">
          {list.error.message}
        </p>
      ) : (
        <IgnoredLists list={list.data} isAdmin={isAdmin} />
      )}
    </div>
  );
}
