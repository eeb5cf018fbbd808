import type { ComponentType } from 'react';
import { DiscoverIcon, LikesIcon, RecentsIcon } from '../../components/ui/icons';

export interface MainTab {
  label: string;
  to: string;
  Icon: ComponentType;
  isActive: (pathname: string) => boolean;
}

function isPathUnder(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

/** The Recents, Likes and Discover tabs with their highlighting rules (docs/product.md §2, Global behaviour). */
export const MAIN_TABS: readonly MainTab[] = [
  {
    label: 'Recents',
    to: '/',
    Icon: RecentsIcon,
    isActive: (pathname) => pathname === '/' || isPathUnder(pathname, '/recent'),
  },
  {
    label: 'Likes',
    to: '/likes',
    Icon: LikesIcon,
    isActive: (pathname) => isPathUnder(pathname, '/likes'),
  },
  {
    label: 'Discover',
    to: '/discover',
    Icon: DiscoverIcon,
    isActive: (pathname) => isPathUnder(pathname, '/discover'),
  },
];
