import { createHash } from 'node:crypto';

/**
 * What makes the built index.html paint the product's name and spinner before the app's code runs (for
 * Lighthouse's first paint): a tiny start module fetches the entry and its chunks and imports the entry only once the browser
 * reports the first contentful paint. Without it, the browser compiles preloaded chunks and may run the entry before
 * the first frame (a few hundred ms on a phone) while the page stays blank; and Lighthouse's simulation of a slow
 * phone counts every script that happened to arrive before the observed paint as needed for it (first and largest
 * contentful paint swung between 0.7 and 2.6 s from run to run). The fetch starts one frame later than a link in the
 * HTML would start it: a few ms of a download that takes a second or more on such a phone.
 */
export interface PaintFirst {
  html: string;
  /** The start module: its file name under the build's assets and its code. */
  start: { fileName: string; code: string };
}

/**
 * The start module's code: fetches `chunks` (paths from the site's root: the entry and the chunks it imports) by
 * modulepreload links, then imports the entry `entryFile` (a name beside the start module under assets/).
 */
export function startModule(entryFile: string, chunks: string[]): string {
  // Started once the browser reports the first contentful paint (the name and spinner on screen), in a task of its
  // own. A hidden tab paints nothing: the timer starts the app there after a second (a visible tab has long painted).
  return `let started = false;
const start = () => {
  if (started) return;
  started = true;
  for (const chunk of ${JSON.stringify(chunks)}) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = chunk;
    document.head.append(link);
  }
  import('./${entryFile}');
};
try {
  new PerformanceObserver((list, observer) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    setTimeout(start, 0);
  }).observe({ type: 'paint', buffered: true });
} catch {
  requestAnimationFrame(() => setTimeout(start, 0));
}
setTimeout(start, 1000);
`;
}

/**
 * Rewrites Vite's built index.html: `<script type="module" crossorigin src="/assets/<entry>">` and Vite's modulepreload
 * links (the chunks the entry imports) become one module script for the start module, which fetches them all once
 * the page has painted. Null when the HTML has no such entry script.
 */
export function paintFirst(html: string, assetsDir = 'assets'): PaintFirst | null {
  const tag = new RegExp(`<script type="module" crossorigin src="/${assetsDir}/([^"/]+\\.js)"></script>`);
  const match = tag.exec(html);
  if (!match) return null;
  const entry = match[1];
  const preload = new RegExp(`\\s*<link rel="modulepreload" crossorigin href="/${assetsDir}/([^"/]+\\.js)">`, 'g');
  const chunks = [entry, ...[...html.matchAll(preload)].map((m) => m[1])].map((f) => `/${assetsDir}/${f}`);
  const code = startModule(entry, chunks);
  const hash = createHash('sha256').update(code).digest('base64url').slice(0, 8);
  const fileName = `${assetsDir}/start-${hash}.js`;
  return {
    html: html.replace(preload, '').replace(match[0], `<script type="module" crossorigin src="/${fileName}"></script>`),
    start: { fileName, code },
  };
}
