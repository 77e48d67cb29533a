import { createHash } from 'node:crypto';

/**
 * What makes the built index.html paint the product's name and spinner before the app's code runs (issue 8,
 * Lighthouse): the entry chunk is still fetched at once (a modulepreload link beside the others), but evaluated
 * only after the browser's next paint, by a tiny start module. Without it, when the scripts are already at hand by
 * the end of parsing (a fast network, a warm cache), the browser runs them (a few hundred ms on a phone) before the
 * first frame, and the page stays blank meanwhile.
 */
export interface PaintFirst {
  html: string;
  /** The start module: its file name under the build's assets and its code. */
  start: { fileName: string; code: string };
}

/** The start module's code for the entry chunk `entryFile` (a name beside it under assets/). */
export function startModule(entryFile: string): string {
  // Started once the browser reports the first contentful paint (the name and spinner on screen), in a task of its
  // own. A hidden tab paints nothing: the timer starts the app there after a second (a visible tab has long painted).
  return `let started = false;
const start = () => {
  if (started) return;
  started = true;
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
 * Rewrites Vite's built index.html: `<script type="module" crossorigin src="/assets/<entry>">` becomes a modulepreload
 * link for the entry and a module script for the start module. Null when the HTML has no such entry script.
 */
export function paintFirst(html: string, assetsDir = 'assets'): PaintFirst | null {
  const tag = new RegExp(`<script type="module" crossorigin src="/${assetsDir}/([^"/]+\\.js)"></script>`);
  const match = tag.exec(html);
  if (!match) return null;
  const entry = match[1];
  const code = startModule(entry);
  const hash = createHash('sha256').update(code).digest('base64url').slice(0, 8);
  const fileName = `${assetsDir}/start-${hash}.js`;
  return {
    html: html.replace(
      match[0],
      `<link rel="modulepreload" crossorigin href="/${assetsDir}/${entry}">\n    <script type="module" crossorigin src="/${fileName}"></script>`,
    ),
    start: { fileName, code },
  };
}
