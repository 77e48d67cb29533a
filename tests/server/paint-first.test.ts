import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { paintFirst, startModule } from '../../scripts/paint-first';

/**
 * The built index.html paints the product's name and spinner before the app's code is fetched or evaluated:
 * a start module adds the entry's and its chunks' modulepreload links and imports the entry only after the first
 * contentful paint.
 */
const BUILT = `<head>
    <script type="module" crossorigin src="/assets/index-AbC123.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-X.js">
</head>`;

/** Runs the start module with the browser's pieces faked; `import()` and each added link are logged in order. */
function runStart() {
  vi.useFakeTimers();
  const imported: string[] = [];
  const document = {
    createElement: () => ({}) as Record<string, string>,
    head: { append: (link: Record<string, string>) => imported.push(`${link.rel} ${link.href} ${link.crossOrigin}`) },
  };
  let report: ((list: { getEntriesByName(n: string): unknown[] }, o: { disconnect(): void }) => void) | null = null;
  class FakeObserver {
    constructor(callback: typeof report) {
      report = callback;
    }
    observe() {}
    disconnect() {}
  }
  const code = startModule('index-AbC123.js', ['/assets/index-AbC123.js', '/assets/jsx-runtime-X.js']).replace(
    "import('./index-AbC123.js')",
    "imported.push('index-AbC123.js')",
  );
  runInNewContext(code, { PerformanceObserver: FakeObserver, requestAnimationFrame: () => 0, setTimeout, imported, document });
  const paint = (name: string) => report!({ getEntriesByName: (n) => (n === name ? [{}] : []) }, { disconnect() {} });
  return { imported, paint };
}

describe('paint first', () => {
  it('leaves the HTML only the start module, which knows the entry and its chunks', () => {
    const out = paintFirst(BUILT)!;
    expect(out.html).toBe(`<head>\n    <script type="module" crossorigin src="/${out.start.fileName}"></script>\n</head>`);
    expect(out.start.fileName).toMatch(/^assets\/start-[\w-]{8}\.js$/);
    expect(out.start.code).toContain('["/assets/index-AbC123.js","/assets/jsx-runtime-X.js"]');
    expect(out.start.code).toContain("import('./index-AbC123.js')");
    expect(paintFirst('<head></head>')).toBeNull();
  });

  it('fetches and imports the app only after the first contentful paint, in a task of its own, once', () => {
    try {
      const { imported, paint } = runStart();
      paint('first-paint');
      vi.advanceTimersByTime(10);
      expect(imported).toEqual([]);
      paint('first-contentful-paint');
      expect(imported).toEqual([]);
      vi.advanceTimersByTime(0);
      const started = ['modulepreload /assets/index-AbC123.js ', 'modulepreload /assets/jsx-runtime-X.js ', 'index-AbC123.js'];
      expect(imported).toEqual(started);
      vi.advanceTimersByTime(2000);
      expect(imported).toEqual(started);
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
      expect(imported.at(-1)).toBe('index-AbC123.js');
    } finally {
      vi.useRealTimers();
    }
  });
});
