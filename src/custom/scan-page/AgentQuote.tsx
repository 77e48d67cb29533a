import { useMemo, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Link, Skeleton, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { LinkBase, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useSelectOptions } from '../../components/useSelectOptions';
import type { AppDataProvider } from '../../dataProvider';
import { formatMoney, toCents } from '../../domain/money';
import { partOptions, productOptions, type Evaluation, type SavedQuote } from '../quote-generation/evaluation';
import { PartsEditor, ProductsEditor } from '../quote-generation/QuoteExtras';
import { initialForm, quoteFields, type QuoteForm } from '../quote-generation/quoteForm';
import { savedQuoteKey, useEvaluation, useQuotePreview, useQuoteSave, useSavedQuote } from '../quote-generation/useQuoteSources';
import { useQuoteVersion } from '../quote-generation/useQuoteVersion';
import { Empty, Section } from './Section';
import { useScanPage } from './context';

const G = 'app.quotes.generation';
const Q = 'app.scanPage.quote';

interface SavedReply {
  id: number;
  grant_total: number;
  currency: string;
}

interface FormProps {
  evaluation: Evaluation;
  saved: SavedQuote | null;
  onSaved: (reply: SavedReply) => Promise<void>;
}

/**
 * The agent viewer's quote area (Agent-only sections): products, parts and comments, then 'Save and
 * Generate Quote' through `POST quotes` (the JSON variant). The panels are quoted as the scan's quote already
 * has them, else as a first load prices them (pdr at each panel's category, scratches spot); the toggles, the quote
 * check request and 'Price only the new damage' the assessor set stay as they are. The server prices it all again. The
 * save carries the quote's version, so one made over another user's newer save opens the conflict dialog.
 */
const AgentQuoteForm = ({ evaluation, saved, onSaved }: FormProps) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [form, setForm] = useState<QuoteForm>(() => initialForm(evaluation.panels, evaluation.measures, saved));
  const { data: productLists = [] } = useSelectOptions('products');
  const { data: partLists = [] } = useSelectOptions('parts');
  const products = useMemo(() => productOptions(productLists, evaluation.productIds), [productLists, evaluation.productIds]);
  const parts = useMemo(() => partOptions(partLists, evaluation.partIds), [partLists, evaluation.partIds]);
  const { pricing, context } = useQuotePreview(evaluation, saved, form);
  const versioned = useQuoteVersion(evaluation, saved, form, setForm, true);

  const { save, saving, showErrors } = useQuoteSave(form, async () => {
    const fields = quoteFields(form, {
      ...context,
      withManualCheck: false,
    });
    // The agent viewer has no quote check box: an assessor's request stays.
    const body = {
      ...fields,
      manual_check: saved?.manual_check === 1 || saved?.manual_check === true ? 1 : 0,
      new_damage_only: evaluation.newDamageOnly ? 1 : 0,
      version: versioned.version,
      scan_details: evaluation.scan,
    };
    const reply = await dataProvider.saveQuote(body).catch((error: unknown) => {
      if (versioned.caught(error)) return null;
      throw error;
    });
    if (reply === null) return;
    if (typeof reply?.id !== 'number' || typeof reply.grant_total !== 'number') throw new Error('app.error.server');
    notify(`${G}.generated`, { type: 'success' });
    await onSaved({ id: reply.id, grant_total: reply.grant_total, currency: reply.currency ?? evaluation.client.currency });
  });

  const heading = (id: string, text: string) => (
    <Typography id={id} component="h3" variant="subtitle2" sx={{ fontWeight: 600 }}>
      {text}
    </Typography>
  );

  return (
    <Box sx={{ display: 'grid', gap: 2.5, minWidth: 0 }}>
      {versioned.dialog}
      <Box component="section" aria-labelledby="scan-quote-products" sx={{ display: 'grid', gap: 1.5 }}>
        {heading('scan-quote-products', translate(`${G}.add_products`))}
        <ProductsEditor
          rows={form.products}
          options={products}
          onChange={(rows) => setForm((f) => ({ ...f, products: rows }))}
          onDuplicate={() => notify(`${G}.duplicate_product`, { type: 'error' })}
          showErrors={showErrors}
        />
      </Box>
      <Box component="section" aria-labelledby="scan-quote-parts" sx={{ display: 'grid', gap: 1.5 }}>
        {heading('scan-quote-parts', translate(`${G}.add_parts`))}
        <PartsEditor value={form.parts} options={parts} onChange={(list) => setForm((f) => ({ ...f, parts: list }))} />
      </Box>
      <TextField
        label={translate(`${G}.comments`)}
        multiline
        minRows={3}
        value={form.assessor_comments}
        onChange={(event) => setForm((f) => ({ ...f, assessor_comments: event.target.value }))}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1.5 }}>
        <Typography variant="body2" data-testid="scan-quote-preview">
          {translate(`${Q}.total`)}: <strong>{formatMoney(pricing.totals.grand_total, evaluation.client.currency)}</strong>
        </Typography>
        <Button
          variant="contained"
          disabled={saving}
          aria-busy={saving}
          onClick={() => void save()}
          startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {translate(`${G}.${saving ? 'saving' : 'save'}`)}
        </Button>
      </Box>
    </Box>
  );
};

/**
 * The agent viewer's quote section. With `quote_edit`, the form; without, the scan's quote as saved (its total, invoice
 * and PDF) or that there is none yet (docs/ARCHITECTURE.md, "Access model").
 */
export const AgentQuote = () => {
  const { canEditQuote } = useScanPage();
  return canEditQuote ? <AgentQuoteEditor /> : <AgentQuoteView />;
};

const AgentQuoteView = () => {
  const translate = useTranslate();
  const { scan } = useScanPage();
  const saved = useSavedQuote(String(scan.id));
  const quote = saved.data ?? null;
  return (
    <Section id="scan-quote" title={translate(`${Q}.title`)}>
      {saved.isError ? (
        <Empty>{translate('app.error.server')}</Empty>
      ) : saved.isPending ? (
        <Skeleton variant="text" width={220} />
      ) : !quote ? (
        <Empty>{translate(`${G}.no_quote`)}</Empty>
      ) : (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 2, rowGap: 1 }}>
          <Typography variant="body2">
            {translate(`${Q}.saved`, { id: quote.id, total: formatMoney(toCents(quote.grant_total ?? 0), quote.currency ?? '$') })}
          </Typography>
          <Link component={LinkBase} to={`/quotes/${quote.id}/invoice`}>
            {translate(`${Q}.open_invoice`)}
          </Link>
          {quote.pdf_url && (
            <Link href={quote.pdf_url} target="_blank" rel="noopener noreferrer">
              {translate('app.quotes.actions.pdf')}
            </Link>
          )}
        </Box>
      )}
    </Section>
  );
};

/** The agent viewer's quote form: loads the scan's evaluation and its quote, then the form. */
const AgentQuoteEditor = () => {
  const translate = useTranslate();
  const { scan, reload } = useScanPage();
  const queryClient = useQueryClient();
  const scanId = String(scan.id);
  const saved = useSavedQuote(scanId);
  // A quote saved on the new damage alone is priced on it again: its evaluation holds only the gains.
  const evaluation = useEvaluation(scanId, saved.data?.new_damage_only === 1);
  const [result, setResult] = useState<SavedReply | null>(null);

  const onSaved = async (reply: SavedReply) => {
    setResult(reply);
    // The scan's Reports gain 'View Quote' (its PDF); the form reads the stored quote again.
    await Promise.all([reload(), queryClient.invalidateQueries({ queryKey: savedQuoteKey(scanId) })]);
  };

  const failed = evaluation.isError || saved.isError;
  return (
    <Section id="scan-quote" title={translate(`${Q}.title`)}>
      {failed ? (
        <Empty>{translate('app.error.server')}</Empty>
      ) : evaluation.isPending || !saved.isSuccess ? (
        <Skeleton variant="rounded" height={180} />
      ) : !evaluation.data ? (
        <Empty>{translate(`${G}.unavailable`)}</Empty>
      ) : (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <AgentQuoteForm
            // Each save makes a new version: the form starts again from the stored quote, with its version.
            key={`${saved.data?.id ?? 'new'}:${saved.data?.version ?? 0}`}
            evaluation={evaluation.data}
            saved={saved.data ?? null}
            onSaved={onSaved}
          />
          {result && (
            <Alert severity="success" role="status">
              {translate(`${Q}.saved`, { id: result.id, total: formatMoney(toCents(result.grant_total), result.currency) })}{' '}
              <Link component={LinkBase} to={`/quotes/${result.id}/invoice`}>
                {translate(`${Q}.open_invoice`)}
              </Link>
            </Alert>
          )}
        </Box>
      )}
    </Section>
  );
};
