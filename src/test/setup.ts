import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { dropInsertedStyles } from './emotionStyles';

// Files share a worker and its libraries (vitest.config.ts), but each gets fresh app modules: module state and vi.mock stay per file.
vi.resetModules();

// Screens load lazily: give async queries room on a busy machine.
configure({ asyncUtilTimeout: 15000 });

// Without vitest globals, Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  dropInsertedStyles();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
// Each test starts signed out with nothing pending (a toast left in sessionStorage would queue before the test's own).
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
