import { useEffect, useRef } from 'react';
import { useScanEvents } from './useScanEvents';

/** How long a burst of quote events waits before the one reload it causes. */
export const QUOTE_RELOAD_MS = 1000;

/**
 * Calls `reload` once a quote in the user's scope has changed on the server: a save, a deletion or a status change
 * (sent, viewed, answered, revoked, expired) arrives as its scan's `updated` event carrying `quote_id` (server:
 * quote-events.ts). Events
 * close together make one reload, `QUOTE_RELOAD_MS` after the first; a connection back after a drop reloads too.
 * The reload asks the server again, which applies the scope and the screen's own filters.
 */
export function useQuoteEvents(reload: () => void) {
  const latest = useRef(reload);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    latest.current = reload;
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useScanEvents(
    undefined,
    (scan) => {
      if (scan.quote_id == null) return;
      timer.current ??= setTimeout(() => {
        timer.current = null;
        latest.current();
      }, QUOTE_RELOAD_MS);
    },
    () => latest.current(),
  );
}
