import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    // Test files wait on servers, sockets and timers as much as they compute: a worker more than
    // the cores keeps them all busy (vitest's default, cores − 1, leaves one of two idle).
    maxWorkers: availableParallelism() + 1,
    // Tests that start servers take seconds on a loaded 2-core machine; a timeout here only
    // guards against a hung test, it measures nothing.
    testTimeout: 20_000,
  },
});
