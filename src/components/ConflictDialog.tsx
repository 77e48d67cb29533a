import { useId } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, List, ListItem, ListItemText } from '@mui/material';
import { HttpError, useLocaleState, useTranslate } from 'react-admin';
import { formatDateTime } from '../domain/format';
import { type ConflictInfo, ConflictRecord } from '../domain/versions';

/** The conflict of a save refused with 409 (a newer version was saved meanwhile), else null. */
export function conflictOf(error: unknown): ConflictInfo | null {
  if (!(error instanceof HttpError) || error.status !== 409) return null;
  const body = error.body as { conflict?: unknown } | undefined;
  const parsed = ConflictRecord.safeParse(body?.conflict);
  return parsed.success ? parsed.data : null;
}

const valueText = (value: string | number | boolean | object | null | undefined, empty: string) =>
  value === null || value === undefined || value === '' ? empty : typeof value === 'object' ? JSON.stringify(value) : String(value);

/**
 * "This quote was changed by NAME at TIME": what changed since the version the user started from, then Reload (the
 * current version, local edits dropped) or Re-apply my changes (the current version with the user's edits on top).
 */
export const ConflictDialog = ({
  conflict,
  record,
  onReload,
  onReapply,
}: {
  conflict: ConflictInfo | null;
  record: 'quote' | 'scan';
  onReload: () => void;
  onReapply: () => void;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const titleId = useId();
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
                <ListItemText primary={c.field} secondary={valueText(c.value as string | number | boolean | object | null, t('empty'))} />
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
