import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// findBy*/waitFor wait up to 5 s: on a loaded two-core CI machine 1 s is not always enough.
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  // jsdom has no layout: record scrolling instead of logging "not implemented".
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});
