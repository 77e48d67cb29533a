import { useCallback, useEffect, useRef } from 'react';
import { useNotify, useRecordContext } from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import { useLocation } from 'react-router-dom';
import { onSessionEnd, useCurrentUser } from '../session';

const PREFIX = 'scanquote.draft';
const NONE: string[] = [];

/** A value that survives JSON: no chosen file (an upload is chosen again), nothing else that JSON would drop. */
function storable(value: unknown): boolean {
  if (typeof Blob !== 'undefined' && value instanceof Blob) return false;
  if (Array.isArray(value)) return value.every(storable);
  if (value && typeof value === 'object') return Object.values(value).every(storable);
  return typeof value !== 'function';
}

/**
 * What a page's form holds when the session ends under it. The server refusing the session signs the user out and
 * brings them back to this page after they sign in again; `capture()` (what is unsaved, or null) is kept in this
 * tab's session storage under the user and the page, and handed to `restore` once the page is back for the same
 * user and `ready`, with a note saying so. Another user signing in on this tab does not get it; it is given back
 * once.
 */
export function useDraft<T>(capture: () => T | null, restore: (draft: T) => void, ready = true) {
  const { pathname } = useLocation();
  const userId = useCurrentUser()?.id;
  const notify = useNotify();
  const key = userId ? `${PREFIX}:${userId}:${pathname}` : null;

  useEffect(() => {
    if (!key) return undefined;
    return onSessionEnd(() => {
      const draft = capture();
      if (draft === null) return;
      try {
        sessionStorage.setItem(key, JSON.stringify(draft));
      } catch {
        // A full or closed storage: the draft is lost, as it would have been without this.
      }
    });
  }, [key, capture]);

  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || !ready || !key) return;
    const stored = sessionStorage.getItem(key);
    if (!stored) return;
    restored.current = true;
    sessionStorage.removeItem(key);
    // After the page's own first effects (a form's reset to its record runs in the same commit, after its children's).
    setTimeout(() => {
      try {
        restore(JSON.parse(stored) as T);
        notify('app.draft.restored', { type: 'info' });
      } catch {
        // A draft this version cannot read is dropped.
      }
    });
  }, [ready, key, restore, notify]);
}

/**
 * `useDraft` for a react-admin form, placed inside it: the changed fields (never `omit`, such as passwords, and
 * never a chosen file) come back over the record as read after signing in, as if the user had typed them again on
 * the current copy, and stay unsaved. A form that edits a record waits for it (`waitForRecord`), so the record's own
 * values do not replace the draft.
 */
export function FormDraft({ omit = NONE, waitForRecord = false }: { omit?: string[]; waitForRecord?: boolean }) {
  const { getValues, reset } = useFormContext();
  const { dirtyFields } = useFormState();
  const record = useRecordContext();
  const capture = useCallback(() => {
    const values = getValues();
    const changed = Object.keys(dirtyFields).filter((name) => !omit.includes(name) && storable(values[name]));
    return changed.length ? Object.fromEntries(changed.map((name) => [name, values[name]])) : null;
  }, [getValues, dirtyFields, omit]);
  const restore = useCallback(
    (draft: Record<string, unknown>) => reset({ ...getValues(), ...draft }, { keepDefaultValues: true }),
    [getValues, reset],
  );
  useDraft(capture, restore, !waitForRecord || !!record);
  return null;
}
