import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { useNotifyError } from '../../components/useNotifyError';
import { isRecordNotFound } from '../../dataProvider/errors';
import { previewGstPercent, toEvaluation, toSavedQuote, type Evaluation, type SavedQuote } from './evaluation';
import { formErrors, onePerCarPanel, pricingOf, QUOTE_SAVE_LABELS, visiblePanels, type QuoteForm } from './quoteForm';

/** The query keys of the two replies a quote starts from: a save refreshes the saved quote's. */
export const evaluationKey = (scanId: string, newDamageOnly = false) => ['scans', 'evaluate', scanId, ...(newDamageOnly ? ['new'] : [])];
export const savedQuoteKey = (scanId: string) => ['quotes', 'search', scanId];

/**
 * `GET scans/{id}/evaluate` as the quote screens read it (null: the scan cannot be quoted, e.g. no client);
 * `newDamageOnly`: its counts are the gains over the vehicle's previous scan.
 */
export function useEvaluation(scanId: string, newDamageOnly = false) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: evaluationKey(scanId, newDamageOnly),
    queryFn: async () => toEvaluation(await dataProvider.evaluateScan(scanId, newDamageOnly)),
    retry: false,
  });
}

/** `POST quotes/search {scan_id}`: the scan's quote (loaded into the form on entry), or null. */
export function useSavedQuote(scanId: string) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: savedQuoteKey(scanId),
    queryFn: async () => {
      try {
        return toSavedQuote(await dataProvider.searchQuote(Number(scanId)));
      } catch (error) {
        // No quote for the scan yet: the form starts from the defaults.
        if (isRecordNotFound(error)) return null;
        throw error;
      }
    },
    retry: false,
    gcTime: 0,
  });
}

/**
 * The live preview both quote screens show and save: the panels of the chosen vehicle type, a car panel in two car
 * views once (where the saved quote priced it), priced by the engine with the evaluation's GST.
 */
export function useQuotePreview(evaluation: Evaluation, saved: SavedQuote | null, form: QuoteForm) {
  const preferred = useMemo(() => new Set(Object.keys(saved?.items ?? {})), [saved]);
  const shown = useMemo(
    () => onePerCarPanel(visiblePanels(evaluation.panels, form.vehicle_type), preferred),
    [evaluation.panels, form.vehicle_type, preferred],
  );
  const gstPercent = previewGstPercent(evaluation, saved);
  const pricing = useMemo(
    () => pricingOf(form, shown, evaluation.client, gstPercent, evaluation.tyres),
    [form, shown, evaluation.client, gstPercent, evaluation.tyres],
  );
  // What the save sends beside the form's choices (quoteBody, quoteFields): the scan, its client and the panels shown.
  const context = useMemo(
    () => ({ scanId: evaluation.scan.id, clientId: evaluation.client.id, scanType: evaluation.scan.type, panels: shown }),
    [evaluation.scan.id, evaluation.client.id, evaluation.scan.type, shown],
  );
  return { shown, pricing, gstPercent, context };
}

/**
 * The save of both quote screens: a form with errors shows them and sends nothing; otherwise `submit` runs with the
 * button busy, and a failure shows the server's message (422 fields under Quote Generation's labels) and frees the
 * button.
 */
export function useQuoteSave(form: QuoteForm, submit: () => Promise<void>) {
  const notifyError = useNotifyError();
  const [saving, setSaving] = useState(false);
  const [showErrors, setShowErrors] = useState(false);
  const save = async () => {
    if (formErrors(form)) {
      setShowErrors(true);
      return;
    }
    setSaving(true);
    try {
      await submit();
    } catch (error) {
      notifyError(error, QUOTE_SAVE_LABELS);
    } finally {
      setSaving(false);
    }
  };
  return { save, saving, showErrors };
}
