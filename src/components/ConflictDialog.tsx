import { useId } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, List, ListItem, ListItemText } from '@mui/material';
import { HttpError, useLocaleState, useTranslate } from 'react-admin';
import { formatDateTime } from '../domain/format';
import { damageFieldLabel, TYRE_CHOICE_FIELD, tyreChoiceText } from './changeLabel';
import { formatStoredAmount } from '../domain/money';
import type { ConflictInfo } from '../domain/versions';

/**
 * The conflict of a save refused with 409 (a newer version was saved meanwhile), else null. The reply is the
 * server's `ConflictReply` (its reply schema checks it); another 409 carries no `conflict`. Read without zod, which
 * the screens that mostly read (the scan page) would otherwise load for this alone.
 */
export function conflictOf(error: unknown): ConflictInfo | null {
  if (!(error instanceof HttpError) || error.status !== 409) return null;
  const conflict = (error.body as { conflict?: Partial<ConflictInfo> } | undefined)?.conflict;
  return conflict && typeof conflict.version === 'number' ? (conflict as ConflictInfo) : null;
}

type Value = string | number | boolean | object | null | undefined;

/** Amounts in a record's snapshot (dollars): shown with two decimals. */
const MONEY = /(^|\.)(grant_total|sub_total|tax|pdr|conventional|p2p|replacement|paint|tyre|product|lineTotal|\w+_fee|price)$/;
/** Switches stored as 0 / 1. */
const SWITCHES = /^(metallic|pearl|aluminium|manual_check|new_damage_only)$/;

/**
 * A changed field as people read it: a panel's line `items.<panel>.<name>` as '<panel> · <name>', a field by the name
 * the history gives it (`app.history.fields`), or the conflict's own (`app.conflicts.fields`), else as stored.
 */
function useChange(currency: string | null | undefined) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const name = (key: string) =>
    translate(`app.conflicts.fields.${key}`, {
      _: translate(`app.history.fields.${key === 'grant_total' ? 'grand_total' : key}`, { _: key }),
    });
  const label = (field: string) => {
    const damage = damageFieldLabel(field, translate, locale);
    if (damage) return damage;
    const line = /^items\.(.+?)\.((?:scratch\.)?\w+)$/.exec(field);
    return line ? `${line[1]} · ${line[2].split('.').map(name).join(' ')}` : name(field);
  };
  const value = (field: string, v: Value) => {
    const empty = translate('app.conflicts.empty');
    if (v === null || v === undefined || v === '') return empty;
    if (SWITCHES.test(field) && (v === 0 || v === 1 || typeof v === 'boolean')) return translate(`app.history.${v ? 'yes' : 'no'}`);
    if (MONEY.test(field) && typeof v === 'number') return formatStoredAmount(v, currency);
    if (TYRE_CHOICE_FIELD.test(field) && typeof v === 'string') return tyreChoiceText(v, translate);
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  return { label, value };
}

/**
 * "This quote was changed by NAME at TIME": what changed since the version the user started from, then Reload (the
 * current version, local edits dropped) or Re-apply my changes (the current version with the user's edits on top).
 * A quote's amounts print in its `currency`.
 */
export const ConflictDialog = ({
  conflict,
  record,
  onReload,
  onReapply,
  currency,
}: {
  conflict: ConflictInfo | null;
  record: 'quote' | 'scan';
  onReload: () => void;
  onReapply: () => void;
  currency?: string | null;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const titleId = useId();
  const change = useChange(currency);
  const t = (key: string, options?: object) => translate(`app.conflicts.${key}`, options);
  if (!conflict) return null;
  const name = conflict.saved_by?.name ?? t('someone');
  const time = conflict.saved_at ? formatDateTime(conflict.saved_at, locale) : '';
  return (
    <Dialog open aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t(`title_${record}`, { name, time })}</DialogTitle>
      <DialogContent dividers>
        <DialogContentText>{conflict.changes ? t('intro') : t('unknown')}</DialogContentText>
        {conflict.changes && (
          <List dense aria-label={t('intro')}>
            {conflict.changes.map((c) => (
              <ListItem key={c.field} disableGutters>
                <ListItemText primary={change.label(c.field)} secondary={change.value(c.field, c.value as Value)} />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onReload}>{t('reload')}</Button>
        <Button variant="contained" onClick={onReapply}>
          {t('reapply')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
