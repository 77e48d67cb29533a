import type { Identifier } from 'react-admin';
import type { QuoteInvoiceRecord } from '../../domain/quote-wire';
import type { ApprovalPageRecord } from '../../domain/quote-approval';
import type { QuoteRevisionsRecord } from '../../domain/quote-revisions';
import type { Request } from '../http';
import { exportCall, type ExportQuery } from './exports';

/** What saving a quote answers: its id and, for the agent's quote, the total and currency. */
export interface QuoteSaveReply {
  id?: unknown;
  grant_total?: unknown;
  currency?: string;
}

/** The approval page's answer as the browser sends it (checked by the server's approvalAnswerBody). */
export interface ApprovalAnswerInput {
  decisions: { key: string; decision: 'approved' | 'declined'; reason?: string }[];
  terms_accepted: boolean;
  signer_name: string;
  signature: string;
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
  /** Sends the quote for approval: a single-use link mailed to `recipient`; answers the quote. */
  sendQuoteForApproval: (quoteId: Identifier, recipient: string) =>
    request('quote', `quotes/${quoteId}/approval`, { method: 'POST', body: { recipient } }),
  /** Revokes the quote's open approval link; answers the quote. */
  revokeQuoteApproval: (quoteId: Identifier) => request('quote', `quotes/${quoteId}/approval`, { method: 'DELETE' }),
  /** The public approval page of a link: no sign-in, no selection (the token alone opens it). */
  approvalPage: (token: string) =>
    request<ApprovalPageRecord>('quote', `approvals/${encodeURIComponent(token)}`, { token: null, selection: false }),
  /** The customer's answer to a link. */
  answerApproval: (token: string, body: ApprovalAnswerInput) =>
    request<ApprovalPageRecord>('quote', `approvals/${encodeURIComponent(token)}`, { method: 'POST', body, token: null, selection: false }),
  /** A saved quote, to show as an invoice; with `revision`, that revision as it was sent. */
  quoteInvoice: (quoteId: Identifier, revision?: number) =>
    request<QuoteInvoiceRecord>(
      'quote',
      `quotes/${encodeURIComponent(String(quoteId))}${revision === undefined ? '' : `?revision=${revision}`}`,
    ),
  /** The quote's revisions (the original estimate, S1, S2…) and the changes of a supplement (`revision`, else the current one). */
  quoteRevisions: (quoteId: Identifier, revision?: number) =>
    request<QuoteRevisionsRecord>(
      'quote',
      `quotes/${encodeURIComponent(String(quoteId))}/revisions${revision === undefined ? '' : `?revision=${revision}`}`,
    ),
});
