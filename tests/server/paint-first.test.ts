import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { paintFirst, startModule } from '../../scripts/paint-first';

/**
 * The built index.html paints the product's name and spinner before the app's code is evaluated (issue 8): the entry
 * is fetched at once (modulepreload) and imported by a start module only after the first contentful paint.
 */
const BUILT = `<head>
    <script type="module" crossorigin src="/assets/index-AbC123.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-X.js">
</head>`;

/** Runs the start module with the browser's pieces faked; `import()` becomes a counter. */
function runStart() {
  vi.useFakeTimers();
  const imported: string[] = [];
  let report: ((list: { getEntriesByName(n: string): unknown[] }, o: { disconnect(): void }) => void) | null = null;
  class FakeObserver {
    constructor(callback: typeof report) {
      report = callback;
    }
    observe() {}
    disconnect() {}
  }
  const code = startModule('index-AbC123.js').replace("import('./index-AbC123.js')", "imported.push('index-AbC123.js')");
  runInNewContext(code, { PerformanceObserver: FakeObserver, requestAnimationFrame: () => 0, setTimeout, imported });
  const paint = (name: string) => report!({ getEntriesByName: (n) => (n === name ? [{}] : []) }, { disconnect() {} });
  return { imported, paint };
}

describe('paint first', () => {
  it('fetches the entry at once and runs it from a start module', () => {
    const out = paintFirst(BUILT)!;
    expect(out.html).toContain('<link rel="modulepreload" crossorigin href="/assets/index-AbC123.js">');
    expect(out.html).toContain(`<script type="module" crossorigin src="/${out.start.fileName}"></script>`);
    expect(out.html).not.toContain('src="/assets/index-AbC123.js"');
    expect(out.start.fileName).toMatch(/^assets\/start-[\w-]{8}\.js$/);
    expect(out.start.code).toContain("import('./index-AbC123.js')");
    expect(paintFirst('<head></head>')).toBeNull();
  });

  it('imports the app only after the first contentful paint, in a task of its own, once', () => {
    try {
      const { imported, paint } = runStart();
      paint('first-paint');
      vi.advanceTimersByTime(10);
      expect(imported).toEqual([]);
      paint('first-contentful-paint');
      expect(imported).toEqual([]);
      vi.advanceTimersByTime(0);
      expect(imported).toEqual(['index-AbC123.js']);
      vi.advanceTimersByTime(2000);
      expect(imported).toEqual(['index-AbC123.js']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('starts anyway after a second when nothing is painted (a hidden tab)', () => {
    try {
      const { imported } = runStart();
      vi.advanceTimersByTime(999);
      expect(imported).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(imported).toEqual(['index-AbC123.js']);
    } finally {
      vi.useRealTimers();
    }
  });
});
