import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useBlocker } from 'react-admin';
import { Confirm } from './Confirm';
import { useFormState, type Control } from 'react-hook-form';

const T = 'app.leave';
const D = 'app.discard';

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

  useUnloadPrompt(dirty, released);

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

/** While `dirty` (and not released), a reload or a closed tab gets the browser's own prompt. */
function useUnloadPrompt(dirty: boolean, released?: RefObject<boolean>) {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (released?.current) return;
      event.preventDefault();
      // Chromium before 119 asks only when returnValue is set.
      event.returnValue = true;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty, released]);
}

/**
 * For a form in a dialog: while `dirty`, closing it (Escape, a click beside it, Cancel) asks 'Discard changes?' first
 * (Keep editing stays, Discard closes), and a reload or a closed tab gets the browser's prompt. It blocks no route
 * itself (React Router consults only the newest blocker, which would silence the page's own form behind the dialog):
 * under a described form, `useReportUnsaved` makes that form's guard ask for it too.
 */
export function useDiscardGuard(dirty: boolean) {
  const [pending, setPending] = useState<(() => void) | null>(null);
  useUnloadPrompt(dirty);
  const dialog = (
    <Confirm
      isOpen={pending !== null}
      title={`${D}.title`}
      content={`${D}.content`}
      confirm={`${D}.confirm`}
      cancel={`${D}.cancel`}
      confirmColor="warning"
      onConfirm={() => {
        const close = pending;
        setPending(null);
        close?.();
      }}
      onClose={() => setPending(null)}
    />
  );
  return {
    dialog,
    /** Closes at once when nothing is unsaved, else once the user confirms. */
    close: (onClose: () => void) => (dirty ? setPending(() => onClose) : onClose()),
  };
}

/** Whether input beside a guarded form (a dialog under it) is unsaved, and how that input says so. */
const UnsavedBeside = createContext<{ dirty: boolean; report: (dirty: boolean) => void }>({ dirty: false, report: () => undefined });

/** Around a described form and what it shows below it: the form's leave guard also asks for their unsaved input. */
export function UnsavedBesideProvider({ children }: { children: ReactNode }) {
  const [dirty, report] = useState(false);
  const value = useMemo(() => ({ dirty, report }), [dirty]);
  return <UnsavedBeside.Provider value={value}>{children}</UnsavedBeside.Provider>;
}

/** Tells the leave guard of the form around (UnsavedBesideProvider) that this input, outside that form, is unsaved. */
export function useReportUnsaved(dirty: boolean) {
  const { report } = useContext(UnsavedBeside);
  useEffect(() => {
    report(dirty);
    return () => report(false);
  }, [dirty, report]);
}

/**
 * react-admin's `WarnWhenUnsavedChangesComponent`: a form given `warnWhenUnsavedChanges` asks with the same dialog as
 * Quote Generation rather than the browser's `confirm()`. A save in flight is not held back, so its own redirect goes
 * through; a refused save (a conflict, a server error) leaves the form dirty and guarded. A form that stays on its
 * page after saving resets to what it saved (new default values), which ends its guard.
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
  const beside = useContext(UnsavedBeside).dirty;
  return useLeaveGuard((useUnsavedInput(formControl) || beside) && enable, formRootPathName).dialog;
}

/** Whether the form around (or `control`'s) holds input not yet saved: a changed field and no save in flight. */
export function useUnsavedInput(control?: Control) {
  const { dirtyFields, isSubmitting } = useFormState(control ? { control } : undefined);
  return Object.keys(dirtyFields).length > 0 && !isSubmitting;
}
