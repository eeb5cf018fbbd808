import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PageMeta } from '../../../components/ui/PageMeta';
import { activityFilters, type ActivityScope } from '../activityScope';
import type { ActivityFeed } from '../api/activityFeed';
import { FEED_TEXTS } from '../feedTexts';
import { ActivityList, type TrackSlots } from './ActivityList';
import { ActivityScopeChips } from './ActivityScopeChips';
import { ActivitySearchBox } from './ActivitySearchBox';
import { ListeningNowStrip } from './ListeningNowStrip';
import { LiveStatusNote } from './LiveStatusNote';
import './activity.css';

interface ActivityPageProps extends TrackSlots {
  feed: ActivityFeed;
  scope: ActivityScope;
  /** The logged-in user: "Mine" and the `/me` links. */
  viewerId: string;
  /** Shown between the heading and the list (e.g. a connection warning). */
  banner?: ReactNode;
}

/** The Recent Activity and Likes pages (docs/product.md §2). */
export function ActivityPage({ feed, scope, viewerId, banner, ...slots }: ActivityPageProps) {
  const [searchParams] = useSearchParams();
  const q = searchParams.get('q') ?? '';
  const texts = FEED_TEXTS[feed];

  return (
    <section className="activity-page">
      <PageMeta title={texts.title} />
      <header className="activity-page__header">
        <h1 className="activity-page__title">{texts.title}</h1>
        <ActivitySearchBox />
      </header>
      <LiveStatusNote />
      {banner}
      {/* Recent keeps a place for "Listening now" that is not above the list (decision 0035): a
          column beside it on wide screens, a bar docked above the player on narrow ones. Friends
          starting or stopping never move the rows. */}
      <div
        className={
          feed === 'recent'
            ? 'activity-page__columns activity-page__columns--with-aside'
            : 'activity-page__columns'
        }
      >
        {feed === 'recent' && <ListeningNowStrip viewerId={viewerId} />}
        <div className="activity-page__body">
          <ActivityScopeChips feed={feed} scope={scope} q={q} />
          <ActivityList
            feed={feed}
            filters={activityFilters(scope, viewerId, q)}
            viewerId={viewerId}
            {...slots}
          />
        </div>
      </div>
    </section>
  );
}
