import { useEffect, useRef } from 'react';
import { realtime } from './instance';
import type { ScanEventPayload } from './manager';

type Handler = (scan: ScanEventPayload) => void;

/**
 * Calls `onCreated` / `onUpdated` for the `created` / `updated` events of the user's scan channels
 * (Echo `private('scan')`, events `.created` and `.updated`) while the component is mounted. The
 * latest callbacks are used, so they need not be memoised. `onResync` is called when the connection comes back
 * after a drop, so the screen can fetch again what it missed.
 */
export function useScanEvents(onCreated?: Handler, onUpdated?: Handler, onResync?: () => void) {
  const created = useRef(onCreated);
  const updated = useRef(onUpdated);
  const resync = useRef(onResync);
  useEffect(() => {
    created.current = onCreated;
    updated.current = onUpdated;
    resync.current = onResync;
  });
  useEffect(() => {
    return realtime.subscribeScan({
      created: (scan) => created.current?.(scan),
      updated: (scan) => updated.current?.(scan),
      resync: () => resync.current?.(),
    });
  }, []);
}
