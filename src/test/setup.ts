import { cleanup, configure, getConfig, prettyDOM } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { indexLabels } from './labels';
import { insertNoStyles } from './styles';

// Files share a worker and its libraries (vitest.config.ts), but each gets fresh app modules: module state and vi.mock stay per file.
vi.resetModules();

indexLabels();
insertNoStyles();

// jsdom lays nothing out and has no IntersectionObserver: every observed element counts as on screen.
globalThis.IntersectionObserver ??= class {
  constructor(private readonly report: IntersectionObserverCallback) {}
  observe(target: Element) {
    queueMicrotask(() =>
      this.report([{ target, isIntersecting: true } as IntersectionObserverEntry], this as unknown as IntersectionObserver),
    );
  }
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
} as unknown as typeof IntersectionObserver;

// Screens load lazily: give async queries room on a busy machine.
configure({
  asyncUtilTimeout: 15000,
  // Testing Library's own message, written when read: a find or waitFor that polls while a screen loads failed its
  // query at every poll, and serialised the whole document into an error nobody read.
  getElementError: (message, container) => {
    const error = new Error();
    error.name = 'TestingLibraryElementError';
    let text: string | undefined;
    Object.defineProperty(error, 'message', {
      configurable: true,
      get: () =>
        (text ??= [message, `Ignored nodes: comments, ${getConfig().defaultIgnore}\n${prettyDOM(container)}`].filter(Boolean).join('\n\n')),
      set: (value: string) => (text = value),
    });
    return error;
  },
});

// Without vitest globals, Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
// Each test starts signed out with nothing pending (a toast left in sessionStorage would queue before the test's own).
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
