import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { useTranslate } from 'react-admin';
import type { QuoteStatus } from '../domain/quote-approval';
import { supplementLabel } from '../domain/quote-model';

const COLOURS: Record<QuoteStatus, 'default' | 'info' | 'success' | 'warning' | 'error'> = {
  draft: 'default',
  sent: 'info',
  approved: 'success',
  partially_approved: 'warning',
  declined: 'error',
  expired: 'default',
  revoked: 'default',
};

/**
 * A quote's status (draft, sent, the customer's answer, the link's end) in the user's language; with a supplement's
 * revision, its label (S1, S2…) beside it.
 */
export function QuoteStatusChip({ status, revision }: { status: QuoteStatus; revision?: number }) {
  const translate = useTranslate();
  const chip = <Chip size="small" variant="outlined" color={COLOURS[status]} label={translate(`app.approval.status.${status}`)} />;
  const label = supplementLabel(revision ?? 0);
  if (!label) return chip;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      <Chip size="small" label={label} title={translate('app.revisions.supplement', { label })} />
      {chip}
    </Box>
  );
}
