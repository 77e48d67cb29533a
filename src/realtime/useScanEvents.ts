import { useEffect, useRef } from 'react';
import { realtime } from './instance';
import type { ScanEventPayload } from './manager';

type Handler = (scan: ScanEventPayload) => void;

/**
 * Calls `onCreated` / `onUpdated` for the `created` / `updated` events of the user's scan channels
 * (Echo `private('scan')`, events `.created` and `.updated`) while the component is mounted. The
 * latest callbacks are used, so they need not be memoised.
 */
export function useScanEvents(onCreated?: Handler, onUpdated?: Handler) {
  const created = useRef(onCreated);
  const updated = useRef(onUpdated);
  useEffect(() => {
    created.current = onCreated;
    updated.current = onUpdated;
  });
  useEffect(() => {
    return realtime.subscribeScan({
      created: (scan) => created.current?.(scan),
      updated: (scan) => updated.current?.(scan),
    });
  }, []);
}
