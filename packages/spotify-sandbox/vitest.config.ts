import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    // Tests that start servers take seconds on a loaded 2-core machine; a timeout here only
    // guards against a hung test, it measures nothing.
    testTimeout: 20_000,
  },
});
