import { lazyPage } from './lazyPage';

/** The activity feeds' page, and its screen that `/` shows logged-in users: one chunk. */
export const ActivityPage = lazyPage(() =>
  import('./routes/ActivityRoute').then((module) => module.ActivityRoute),
);
export const ActivityScreenPage = lazyPage(() =>
  import('./routes/ActivityRoute').then((module) => module.ActivityScreen),
);
