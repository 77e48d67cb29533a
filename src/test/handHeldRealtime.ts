import type { ScanEventHandlers } from '../realtime';

/**
 * A hand-held live connection for screen tests, in place of `src/realtime/instance`: the screens subscribe to it and
 * the test plays the server's events through `liveSubscribers`. In a test file:
 * `vi.mock('../../realtime/instance', () => import('../../test/handHeldRealtime'))`.
 */
export const liveSubscribers = new Set<ScanEventHandlers>();

export const realtime = {
  subscribeScan: (handlers: ScanEventHandlers) => {
    liveSubscribers.add(handlers);
    return () => liveSubscribers.delete(handlers);
  },
  disconnect: () => undefined,
};
