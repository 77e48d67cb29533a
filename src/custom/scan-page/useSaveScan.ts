import { useCallback } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { fieldErrorsOf } from '../../dataProvider/errors';
import { useScanPage, type Scan } from './context';

/** Why a save failed, in the user's language: the field's own message when the server named it, else the error's. */
export function useFailureReason() {
  const translate = useTranslate();
  return useCallback(
    (error: unknown, fields: string[]) => {
      const errors = fieldErrorsOf(error) ?? {};
      const own = fields.map((f) => errors[f]).find(Boolean);
      const message = own ?? (error instanceof Error && error.message ? error.message : 'app.error.server');
      return translate(message, { _: message });
    },
    [translate],
  );
}

/**
 * `PUT scans/{id}` with the changed vehicle fields, made from the version the edit began at. The page shows the new
 * values at once; a failed save puts the scan's values back and says why, a save refused because the scan changed
 * meanwhile opens the conflict dialog (both reject, so the caller can keep its own state).
 */
export function useSaveScan() {
  const { id, setScan, versionFor, caughtConflict } = useScanPage();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const reason = useFailureReason();
  const save = useCallback(
    async (changes: Partial<Scan>, label: string, body: Record<string, unknown>, success: string, version: number | undefined) => {
      const keys = Object.keys(changes) as (keyof Scan)[];
      let before: Partial<Scan> = {};
      setScan((s) => {
        before = Object.fromEntries(keys.map((k) => [k, s[k]]));
        return { ...s, ...changes };
      });
      try {
        const saved = await dataProvider.saveScan(id, { ...body, version });
        // The server's values for what was saved (the registration normalised, the client's name resolved).
        const fromServer = Object.fromEntries(
          [...keys, ...(keys.includes('client_id') ? (['client_name'] as const) : [])].map((k) => [k, saved[k]]),
        );
        setScan((s) => ({ ...s, ...fromServer, updated_at: saved.updated_at, version: saved.version }));
        notify(success, { type: 'success' });
      } catch (error) {
        setScan((s) => ({ ...s, ...before }));
        const conflict = caughtConflict(error, (current) => save(changes, label, body, success, current));
        if (!conflict)
          notify(translate('app.scanPage.save_failed', { field: label, reason: reason(error, Object.keys(body)) }), { type: 'error' });
        throw error;
      }
    },
    [caughtConflict, dataProvider, id, notify, reason, setScan, translate],
  );
  return useCallback(
    (changes: Partial<Scan>, label: string, body: Record<string, unknown> = changes, success = 'app.scanPage.saved') =>
      save(changes, label, body, success, versionFor(Object.keys(changes))),
    [save, versionFor],
  );
}
