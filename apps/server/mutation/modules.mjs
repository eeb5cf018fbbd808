/** The modules under mutation testing and the test files that pin their behaviour. */
export const mutationModules = {
  'sync-recent': {
    file: 'src/services/sync-recent.ts',
    tests: ['test/sync-recent.test.ts', 'test/sync-schedule.test.ts'],
  },
  'import-rows': {
    file: 'src/services/import/rows.ts',
    tests: ['test/import-rows.test.ts'],
  },
  social: {
    file: 'src/services/social.ts',
    tests: ['test/friendship.test.ts'],
    /** The pair lock only matters with several connections: run its tests on PostgreSQL. */
    postgres: true,
  },
  moderation: {
    file: 'src/services/moderation.ts',
    tests: ['test/moderation.test.ts', 'test/beta.test.ts'],
  },
  activity: {
    file: 'src/services/activity.ts',
    tests: ['test/activity.test.ts', 'test/activity-rules.test.ts'],
  },
  'catalogue-pages': {
    file: 'src/services/catalogue-pages.ts',
    tests: ['test/catalogue.test.ts', 'test/visitor-catalogue.test.ts', 'test/web-app.test.ts'],
  },
  suggestions: {
    file: 'src/services/suggestions.ts',
    tests: ['test/suggestions.test.ts'],
  },
  'song-windows': {
    file: 'src/services/song-windows.ts',
    tests: ['test/song-windows.test.ts'],
    /** The roll's lock only matters with several connections: run its tests on PostgreSQL. */
    postgres: true,
  },
  playback: {
    file: 'src/services/playback.ts',
    tests: ['test/playback.test.ts'],
  },
  likes: {
    file: 'src/services/likes.ts',
    tests: ['test/likes.test.ts', 'test/spotify-busy.test.ts', 'test/sync.test.ts'],
    /** The user's lock only matters with several connections: run its tests on PostgreSQL. */
    postgres: true,
  },
  live: {
    file: 'src/services/live.ts',
    tests: ['test/live.test.ts', 'test/live-hub.test.ts'],
  },
};
