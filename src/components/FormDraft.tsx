import { useEffect, useRef } from 'react';
import { useNotify, useRecordContext } from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import { useLocation } from 'react-router-dom';
import { onSessionEnd, useCurrentUser } from '../session';

const PREFIX = 'scanquote.draft';
const NONE: string[] = [];
const keyOf = (userId: number, pathname: string) => `${PREFIX}:${userId}:${pathname}`;

/** A value that survives JSON: no chosen file (an upload is chosen again), nothing else that JSON would drop. */
function storable(value: unknown): boolean {
  if (typeof Blob !== 'undefined' && value instanceof Blob) return false;
  if (Array.isArray(value)) return value.every(storable);
  if (value && typeof value === 'object') return Object.values(value).every(storable);
  return typeof value !== 'function';
}

/**
 * Keeps what a form holds when the session ends under it. The server refusing the session signs the user out and
 * brings them back to this page after they sign in again; the form's changed fields (never `omit`, such as
 * passwords, and never a chosen file) wait in this tab's session storage, under the user and the page, and are put
 * back into the form on its return, still unsaved, with a note saying so. Another user signing in on this tab does
 * not get them. A form that edits a record waits for it (`waitForRecord`), so the record's own values do not replace
 * the draft. Only the changed fields come back, over the record as read after signing in: as if the user had typed
 * them again on the current copy.
 */
export function FormDraft({ omit = NONE, waitForRecord = false }: { omit?: string[]; waitForRecord?: boolean }) {
  const { getValues, reset } = useFormContext();
  const { dirtyFields } = useFormState();
  const { pathname } = useLocation();
  const user = useCurrentUser();
  const userId = user?.id;
  const record = useRecordContext();
  const notify = useNotify();
  useEffect(() => {
    if (!userId) return undefined;
    return onSessionEnd(() => {
      const values = getValues();
      const changed = Object.keys(dirtyFields).filter((name) => !omit.includes(name) && storable(values[name]));
      if (!changed.length) return;
      const draft = Object.fromEntries(changed.map((name) => [name, values[name]]));
      try {
        sessionStorage.setItem(keyOf(userId, pathname), JSON.stringify(draft));
      } catch {
        // A full or closed storage: the draft is lost, as it would have been without this.
      }
    });
  }, [userId, pathname, getValues, omit, dirtyFields]);

  const restored = useRef(false);
  const waiting = waitForRecord && !record;
  useEffect(() => {
    if (restored.current || waiting || !userId) return;
    const key = keyOf(userId, pathname);
    const stored = sessionStorage.getItem(key);
    if (!stored) return;
    restored.current = true;
    sessionStorage.removeItem(key);
    // After the form's own reset to its record, which runs in the same commit's later effects.
    setTimeout(() => {
      try {
        reset({ ...getValues(), ...(JSON.parse(stored) as Record<string, unknown>) }, { keepDefaultValues: true });
        notify('app.draft.restored', { type: 'info' });
      } catch {
        // A draft this version cannot read is dropped.
      }
    });
  }, [waiting, userId, pathname, getValues, reset, notify]);

  return null;
}
