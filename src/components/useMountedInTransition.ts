import { startTransition, useEffect, useState } from 'react';

/**
 * False on the first render, then true through a transition: a heavy subtree given to `ready` is rendered in slices
 * React can pause between (about 5 ms each), not in the one long task an update from an effect gets (react-admin
 * registers its resources from effects, which React renders without yielding). It would otherwise add main-thread blocking time.
 */
export function useMountedInTransition(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => startTransition(() => setReady(true)), []);
  return ready;
}
