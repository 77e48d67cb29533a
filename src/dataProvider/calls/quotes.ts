import type { Identifier } from 'react-admin';
import type { QuoteInvoiceRecord } from '../../domain/quote-wire';
import type { Request } from '../http';
import { exportCall, type ExportQuery } from './exports';

/** What saving a quote answers: its id and, for the agent's quote, the total and currency. */
export interface QuoteSaveReply {
  id?: unknown;
  grant_total?: unknown;
  currency?: string;
}

/** The quote service's calls from the quote screens. */
export const quoteCalls = (request: Request) => ({
  /** The quotes list as a file (the list's search and filters; `format` xlsx, else CSV): the file's url. */
  exportQuotes: (query: ExportQuery) => exportCall(request, 'quote', 'quotes/export-quote-report', query),
  /** The car panels of each panel group, by position. */
  panelGroupPositions: () => request('quote', 'panelGroups/positions'),
  /** The saved quote of a scan (a 404 when there is none). */
  searchQuote: (scanId: number) => request('quote', 'quotes/search', { method: 'POST', body: { scan_id: scanId } }),
  /** Saves a quote (JSON, or multipart with the vehicle photo). */
  saveQuote: (body: object) => request<QuoteSaveReply>('quote', 'quotes', { method: 'POST', body }),
  deleteQuoteVehiclePhoto: (quoteId: Identifier) => request('quote', `quotes/${quoteId}/delete_vehicle_photo`, { method: 'PUT' }),
  /** Marks the quote as manually checked, or clears the mark. */
  setQuoteManualCheck: (quoteId: Identifier, on: boolean) =>
    request('quote', `quotes/${quoteId}/manual_check`, { method: 'PUT', body: { manual_check: on ? 1 : 0 } }),
  /** A saved quote, to show as an invoice. */
  quoteInvoice: (quoteId: Identifier) => request<QuoteInvoiceRecord>('quote', `quotes/${encodeURIComponent(String(quoteId))}`),
});
