import { useMemo } from 'react';
import { Box, Button, Container, GlobalStyles, Paper, Skeleton, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PrintIcon from '@mui/icons-material/Print';
import { useQuery } from '@tanstack/react-query';
import { LinkBase, useAuthenticated, useDataProvider, useLocaleState, useParams, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { useRevisionName } from '../../components/useRevisionName';
import { useLoadError } from '../../components/useLoadError';
import type { AppDataProvider } from '../../dataProvider';
import { buildInvoice, invoiceSourceOfQuote } from '../../domain/invoice';
import { invoiceQuoteOfRecord } from '../../domain/quote-wire';
import { deltaOfRecord, supplementBlockOf } from '../../domain/supplement-block';
import { InvoiceView } from './InvoiceView';
import { changesQuery, invoiceQuery, revisionOf } from './queries';

/** Printing: A4 with the page's own margins, nothing but the invoice (no toolbar, no app chrome, no shadow). */
const printStyles = (
  <GlobalStyles
    styles={{
      '@page': { size: 'A4', margin: '12mm' },
      '@media print': {
        'body, #root': { background: '#fff !important' },
        '.invoice-no-print, .MuiSnackbar-root': { display: 'none !important' },
        '.invoice-paper': { boxShadow: 'none !important', border: 'none !important', padding: '0 !important', margin: '0 !important' },
        '.invoice-container': { maxWidth: 'none !important', padding: '0 !important' },
        // Tables print whole, without their on-screen scroll regions.
        '.MuiTableContainer-root': { overflow: 'visible !important' },
      },
    }}
  />
);

/**
 * /quotes/{quoteId}/invoice: the saved quote (`GET quote/quotes/{id}`) as its estimate invoice, in the interface
 * language, rendered from the same invoice model as the quote's PDF, with a supplement's changes. Outside the app's layout (no sidebar), with
 * Back and Print; a missing quote says 'Quote Not Found' and goes to the list.
 */
export const QuoteInvoicePage = () => {
  useAuthenticated();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const revisionName = useRevisionName();
  const { quoteId = '' } = useParams<{ quoteId: string }>();
  const [search] = useSearchParams();
  const revision = revisionOf(search);
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data: quote, error } = useQuery(invoiceQuery(dataProvider, quoteId, revision));
  const invoice = useMemo(() => (quote ? buildInvoice(invoiceSourceOfQuote(invoiceQuoteOfRecord(quote), locale)) : null), [quote, locale]);

  useLoadError(error, 'app.invoice.quote', '/quotes');
  const shown = !quote ? undefined : revision !== undefined ? revision : quote.revision ? quote.revision : undefined;
  // A supplement shows its changes above its lines, as its PDF does; the invoice waits for them so nothing moves.
  const changes = useQuery({ ...changesQuery(dataProvider, quoteId, shown ?? 0, quote?.updated_at), enabled: !!shown });
  const supplement = useMemo(
    () =>
      invoice && shown && changes.data
        ? supplementBlockOf(deltaOfRecord(changes.data), { number: shown, since: changes.data.since }, invoice.currency, invoice.language)
        : null,
    [invoice, shown, changes.data],
  );
  const ready = invoice && (!shown || changes.isSuccess || changes.isError) ? invoice : null;

  return (
    <Box component="main" sx={{ minHeight: '100vh', bgcolor: 'background.default', py: { xs: 1, sm: 3 } }}>
      {printStyles}
      <Container maxWidth="md" className="invoice-container" sx={{ px: { xs: 1, sm: 2 } }}>
        <Stack direction="row" spacing={1} className="invoice-no-print" sx={{ justifyContent: 'space-between', mb: 2 }}>
          <Button component={LinkBase} to="/quotes" startIcon={<ArrowBackIcon />}>
            {translate('app.invoice.back')}
          </Button>
          <Button variant="contained" startIcon={<PrintIcon />} onClick={() => window.print()} disabled={!ready}>
            {translate('app.invoice.print')}
          </Button>
        </Stack>
        {/* A past revision asked for by the address says which it is; so does the quote itself once it is a supplement. */}
        {shown !== undefined && (
          <Typography component="p" variant="subtitle1" sx={{ mb: 1, fontWeight: 600 }}>
            {revisionName(shown)}
          </Typography>
        )}
        <Paper variant="outlined" className="invoice-paper" sx={{ p: { xs: 2, sm: 4 } }}>
          {ready ? (
            <InvoiceView invoice={ready} supplement={supplement} />
          ) : (
            <Box aria-busy="true" aria-label={translate('app.loading')}>
              {Array.from({ length: 11 }, (_, i) => (
                <Skeleton key={i} variant="text" sx={{ my: 1 }} />
              ))}
            </Box>
          )}
        </Paper>
      </Container>
    </Box>
  );
};
