import { Link } from 'react-router';
import { activityPath, withSearch, type ActivityScope } from '../activityScope';
import type { ActivityFeed } from '../api/activityFeed';

const CHIPS: readonly { label: string; scope: ActivityScope }[] = [
  { label: 'All', scope: { kind: 'all' } },
  { label: 'Mine', scope: { kind: 'me' } },
  { label: 'Friends', scope: { kind: 'friends' } },
];

interface ActivityScopeChipsProps {
  feed: ActivityFeed;
  scope: ActivityScope;
  q: string;
}

/**
 * All / Mine / Friends switch the page (the search is kept). Viewing one user adds a disabled,
 * active chip with that user.
 */
export function ActivityScopeChips({ feed, scope, q }: ActivityScopeChipsProps) {
  return (
    <nav className="chips" aria-label="Whose activity">
      {CHIPS.map((chip) => {
        const active = chip.scope.kind === scope.kind;
        return (
          <Link
            key={chip.label}
            to={withSearch(activityPath(feed, chip.scope), q)}
            className={active ? 'chip chip--active' : 'chip'}
            aria-current={active ? 'page' : undefined}
          >
            {chip.label}
          </Link>
        );
      })}
      {scope.kind === 'user' && (
        <span
          role="link"
          aria-disabled="true"
          aria-current="page"
          className="chip chip--active chip--disabled"
        >
          {scope.username}
        </span>
      )}
    </nav>
  );
}
