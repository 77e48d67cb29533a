import { useState } from 'react';
import { Checkbox, CircularProgress, FormControlLabel, FormHelperText, Skeleton, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import { savedQuoteKey, useSavedQuote } from '../quote-generation/useQuoteSources';
import { Section } from './Section';
import { useScanPage } from './context';

/**
 * The normal viewer's quote area: 'Request quote check', only without an agent id. It asks for a check of
 * the scan's quote (`PUT quotes/{id}/manual_check`, the flag alone: the quote is not priced again); before the scan has
 * a quote there is nothing to check, and the box says so. Without `quote_edit` the request is only shown (docs/ARCHITECTURE.md,
 * "Viewing and changing").
 */
export const QuoteCheck = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const { scan, canEditQuote } = useScanPage();
  const scanId = String(scan.id);
  const saved = useSavedQuote(scanId);
  const [busy, setBusy] = useState(false);
  const quote = saved.data ?? null;
  const checked = quote?.manual_check === 1 || quote?.manual_check === true;

  const change = async (on: boolean) => {
    if (!quote) return;
    setBusy(true);
    try {
      await dataProvider.setQuoteManualCheck(quote.id, on);
      await queryClient.invalidateQueries({ queryKey: savedQuoteKey(scanId) });
      notify(on ? 'app.scanPage.quote.check_saved' : 'app.scanPage.quote.check_cleared', { type: 'success' });
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section id="scan-quote" title={translate('app.scanPage.quote.title')}>
      {saved.isPending ? (
        <Skeleton variant="text" width={220} />
      ) : !canEditQuote ? (
        <Typography variant="body2" color="text.secondary">
          {translate(
            !quote
              ? 'app.quotes.generation.no_quote'
              : checked
                ? 'app.scanPage.quote.check_requested'
                : 'app.scanPage.quote.check_not_requested',
          )}
        </Typography>
      ) : (
        <>
          <FormControlLabel
            control={
              <Checkbox
                checked={checked}
                disabled={!quote || busy}
                onChange={(event) => void change(event.target.checked)}
                slotProps={{ input: { 'aria-describedby': quote ? undefined : 'scan-quote-check-help' } }}
              />
            }
            label={translate('app.quotes.generation.manual_check')}
          />
          {busy && <CircularProgress size={16} aria-hidden />}
          {!quote && <FormHelperText id="scan-quote-check-help">{translate('app.scanPage.quote.check_needs_quote')}</FormHelperText>}
        </>
      )}
    </Section>
  );
};
