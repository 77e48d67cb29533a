/**
 * The browser's first date format (ICU's start-up: its data, the time zone's rules, the locale's patterns) costs a
 * phone's main thread tens of ms, in whatever render first shows a date (the dashboard's "today" in Melbourne, a
 * list's dates). In Chromium that start-up is shared by the page's threads, so a worker that formats one date first
 * takes it off the main thread. Elsewhere the worker only costs a little background work.
 */
export function warmUpIntl() {
  try {
    new Worker(new URL('./intlWarmup.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    // No workers (or refused): the first format pays for itself, as without this.
  }
}
