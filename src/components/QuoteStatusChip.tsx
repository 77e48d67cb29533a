import Chip from '@mui/material/Chip';
import { useTranslate } from 'react-admin';
import type { QuoteStatus } from '../domain/quote-approval';

const COLOURS: Record<QuoteStatus, 'default' | 'info' | 'success' | 'warning' | 'error'> = {
  draft: 'default',
  sent: 'info',
  approved: 'success',
  partially_approved: 'warning',
  declined: 'error',
  expired: 'default',
  revoked: 'default',
};

/** A quote's status (draft, sent, the customer's answer, the link's end) in the user's language. */
export function QuoteStatusChip({ status }: { status: QuoteStatus }) {
  const translate = useTranslate();
  return <Chip size="small" variant="outlined" color={COLOURS[status]} label={translate(`app.approval.status.${status}`)} />;
}
