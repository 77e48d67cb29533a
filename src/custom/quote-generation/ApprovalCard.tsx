import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Confirm } from '../../components/Confirm';
import { useNotifyError } from '../../components/useNotifyError';
import { useRevisionName } from '../../components/useRevisionName';
import { type AppDataProvider, fieldErrorsOf } from '../../dataProvider';
import { formatDateTime } from '../../domain/format';
import { formatMoney, toCents } from '../../domain/money';
import { useScanEvents } from '../../realtime';
import type { SavedQuote } from './evaluation';
import { QuoteCard } from './SideCards';
import { savedQuoteKey } from './useQuoteSources';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Approval by link on Quote Generation: the latest link (to whom, until when, the answer and its signed PDF), "Send for
 * approval" (a dialog with the recipient: the last link's, else the client's contact address) and "Revoke link" (after a
 * confirmation), both only with `quote_edit`. The quote's status arrives live: the server publishes the quote's scan as changed.
 */
export function ApprovalCard({ quote, scanId, canEdit }: { quote: SavedQuote; scanId: string; canEdit: boolean }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const [open, setOpen] = useState(false);
  const [recipient, setRecipient] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const revisionName = useRevisionName();
  const t = (key: string, args?: object) => translate(`app.approval.${key}`, args);
  const reload = () => queryClient.invalidateQueries({ queryKey: savedQuoteKey(scanId) });

  useScanEvents(undefined, (scan) => {
    if (scan.id === Number(scanId) && 'quote_status' in scan) void reload();
  });

  const link = quote.approval ?? null;
  const answered = ['approved', 'partially_approved', 'declined'].includes(quote.status ?? '');
  // A sent quote waits on its open link (one past its date expires when it is next opened).
  const linkOpen = quote.status === 'sent';

  // Whom the last link went to (who answered the revision before a supplement), else the client's contact.
  const start = () => {
    setRecipient(link?.recipient ?? quote.client?.email ?? '');
    setError(null);
    setOpen(true);
  };
  const send = async () => {
    if (!EMAIL.test(recipient.trim())) {
      setError(translate('app.validation.email'));
      return;
    }
    setBusy(true);
    try {
      await dataProvider.sendQuoteForApproval(quote.id, recipient.trim());
      setOpen(false);
      notify(t('sent', { recipient: recipient.trim() }), { type: 'success' });
      await reload();
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields?.recipient) setError(String(fields.recipient));
      else notifyError(e);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async () => {
    setBusy(true);
    try {
      await dataProvider.revokeQuoteApproval(quote.id);
      setRevoking(false);
      notify(t('revoked'), { type: 'info' });
      await reload();
    } catch (e) {
      notifyError(e);
    } finally {
      setBusy(false);
    }
  };

  /** The link's state: waiting until its date, revoked or expired; named by its revision once the quote has moved on. */
  const linkState = (l: NonNullable<typeof link>) => {
    const words = { recipient: l.recipient, sent: formatDateTime(l.sent_at, locale), expires: formatDateTime(l.expires_at, locale) };
    const state = l.revoked_at
      ? t('link_revoked', { ...words, revoked: formatDateTime(l.revoked_at, locale) })
      : !l.decided_at && quote.status === 'expired'
        ? t('link_expired', words)
        : t('link_state', words);
    if (l.revision === (quote.revision ?? 0)) return state;
    return t('link_of', { revision: revisionName(l.revision), state });
  };

  // A user who may not send sees the card only once there is a link to tell about.
  if (!canEdit && !link) return null;

  return (
    <QuoteCard title={t('send')} id="quote-approval-title">
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        {link && (
          <Typography variant="body2" color="text.secondary" data-testid="approval-link-state">
            {linkState(link)}
          </Typography>
        )}
        {link?.decided_at && (
          <Alert severity={quote.status === 'declined' ? 'warning' : 'success'}>
            {t('answered', {
              name: link.signer_name ?? '',
              at: formatDateTime(link.decided_at, locale),
              total: formatMoney(toCents(link.approved_total ?? 0), quote.currency, locale),
            })}
          </Alert>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {canEdit && !answered && (
            <Button variant="contained" onClick={start} disabled={busy}>
              {t('send')}
            </Button>
          )}
          {canEdit && linkOpen && (
            <Button variant="outlined" color="warning" onClick={() => setRevoking(true)} disabled={busy}>
              {t('revoke')}
            </Button>
          )}
          {link?.signed_pdf_url && (
            <Button component="a" href={link.signed_pdf_url} target="_blank" rel="noopener noreferrer" variant="outlined">
              {t('signed_pdf')}
            </Button>
          )}
        </Box>
      </Box>
      <Confirm
        isOpen={revoking}
        loading={busy}
        title={t('revoke_title')}
        content={t('revoke_help')}
        confirm={t('revoke')}
        cancel={t('cancel')}
        confirmColor="warning"
        onConfirm={() => void revoke()}
        onClose={() => setRevoking(false)}
      />
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="send-approval-title" fullWidth maxWidth="sm">
        <DialogTitle id="send-approval-title">{t('send_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('send_help')}</DialogContentText>
          <TextField
            fullWidth
            type="email"
            label={t('recipient')}
            value={recipient}
            onChange={(e) => setRecipient(e.target.value)}
            error={error !== null}
            helperText={error ?? ' '}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('cancel')}</Button>
          <Button variant="contained" onClick={() => void send()} disabled={busy}>
            {busy ? t('sending') : t('send')}
          </Button>
        </DialogActions>
      </Dialog>
    </QuoteCard>
  );
}
