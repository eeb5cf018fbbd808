import { Link, useLocation } from 'react-router';
import { prefetchOnIntent } from '../prefetch';
import { MAIN_TABS } from './mainTabs';

interface MainTabsProps {
  /** In the header on wide screens; as a bar at the bottom at 600 px and narrower. */
  placement: 'header' | 'bottom';
}

export function MainTabs({ placement }: MainTabsProps) {
  const { pathname } = useLocation();
  return (
    <nav
      className={`main-tabs main-tabs--${placement}`}
      aria-label={placement === 'header' ? 'Main' : 'Main (bottom bar)'}
    >
      {MAIN_TABS.map(({ label, to, Icon, isActive }) => {
        const active = isActive(pathname);
        return (
          <Link
            key={label}
            to={to}
            className={active ? 'main-tabs__tab main-tabs__tab--active' : 'main-tabs__tab'}
            aria-current={active ? 'page' : undefined}
            {...prefetchOnIntent(to)}
          >
            <Icon />
            <span>{label}</span>
          </Link>
        );
      })}
    </nav>
  );
}
