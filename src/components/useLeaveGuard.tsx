import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-admin';
import { Confirm } from './Confirm';
import { useFormState, type Control } from 'react-hook-form';

const T = 'app.leave';

/**
 * While `dirty`, leaving the page asks first: a link or the back button inside the app opens a confirmation (Stay
 * keeps the edits, Leave goes on), a reload or a closed tab gets the browser's own prompt. `release()` lets the next
 * navigation through without asking: a save's own move to another page. A path under `insidePath` (a form's tabs)
 * is not a departure, and neither is the sign-in page: an ended session leaves whatever the form holds.
 */
export function useLeaveGuard(dirty: boolean, insidePath?: string) {
  // A ref, not state: the save releases and navigates in the same tick, before a re-render could pass the new value.
  const released = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (!dirty || released.current || nextLocation.pathname === '/login') return false;
    if (insidePath) return !nextLocation.pathname.startsWith(insidePath);
    return currentLocation.pathname !== nextLocation.pathname;
  });

  // A save that resets the form in the same tick as its redirect: once the form is clean, the move goes on.
  useEffect(() => {
    if (blocker.state === 'blocked' && !dirty) blocker.proceed?.();
  }, [blocker, dirty]);

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
      isOpen={blocker.state === 'blocked' && dirty}
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

/**
 * react-admin's `WarnWhenUnsavedChangesComponent`: a form given `warnWhenUnsavedChanges` asks with the same dialog as
 * Quote Generation rather than the browser's `confirm()`. A submitted form is not held back: its save redirects.
 */
export function FormLeaveGuard({
  enable = true,
  formRootPathName,
  formControl,
}: {
  enable?: boolean;
  formRootPathName?: string;
  formControl?: Control;
}) {
  const { dirtyFields, isSubmitting, isSubmitSuccessful } = useFormState(formControl ? { control: formControl } : undefined);
  const dirty = enable && Object.keys(dirtyFields).length > 0 && !isSubmitting && !isSubmitSuccessful;
  return useLeaveGuard(dirty, formRootPathName).dialog;
}
