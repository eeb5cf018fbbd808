import '@testing-library/jest-dom/vitest';
import { SIGNED_IN_COOKIE } from '@earshot/contract/session';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// findBy*/waitFor wait up to 10 s: a page loaded on demand is transformed on its first import,
// which took over 5 s on a two-core machine at a load average of 20 (three such misses in one run).
configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  // The server's signed-in cookie: pages ask who the user is (a visitor's answer is then a 401).
  document.cookie = `${SIGNED_IN_COOKIE}=1; path=/`;
  // jsdom has no layout: record scrolling instead of logging "not implemented".
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});
