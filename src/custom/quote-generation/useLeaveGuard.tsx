import { useEffect, useRef } from 'react';
import { Confirm, useBlocker } from 'react-admin';

const T = 'app.quotes.generation.leave';

/**
 * While `dirty`, leaving the page asks first: a link or the back button inside the app opens a confirmation (Stay
 * keeps the edits, Leave goes on), a reload or a closed tab gets the browser's own prompt. `release()` lets the next
 * navigation through without asking: the save's own move to the invoice.
 */
export function useLeaveGuard(dirty: boolean) {
  // A ref, not state: the save releases and navigates in the same tick, before a re-render could pass the new value.
  const released = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !released.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (released.current) return;
      event.preventDefault();
      // Chromium before 119 asks only when returnValue is set.
      event.returnValue = true;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const dialog = (
    <Confirm
      isOpen={blocker.state === 'blocked'}
      title={`${T}.title`}
      content={`${T}.content`}
      confirm={`${T}.confirm`}
      cancel={`${T}.cancel`}
      confirmColor="warning"
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    />
  );
  return {
    dialog,
    release: () => {
      released.current = true;
    },
  };
}
