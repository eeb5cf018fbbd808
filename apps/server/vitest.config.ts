import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Test files wait on servers, sockets and timers as much as they compute: a worker more than
    // the cores keeps them all busy (vitest's default, cores − 1, leaves one of two idle).
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
