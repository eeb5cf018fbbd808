import { lazy } from 'react';

/** "Ignore track" as a track menu shows it: its menu code loads with the menu (decision 0034). */
export const LazyIgnoreTrackMenuItem = lazy(() =>
  import('./IgnoreTrackMenuItem').then((module) => ({ default: module.IgnoreTrackMenuItem })),
);
