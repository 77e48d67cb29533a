import type { EventFields } from '../../../src/domain/history';
import { centsToAmount } from '../../../src/domain/money';
import type { SavedQuote } from '../../../src/domain/quote-model';
import type { DataScope } from '../../../src/domain/permissions';
import type { Database } from '../../db/database';
import { NotFoundError } from '../../errors';
import { eventRecorder, findEvents } from '../../lib/events-repository';
import { historyCsv } from '../../lib/history';
import { findQuote } from './quotes-repository';
import { QUOTE_MODEL } from './quotes-service';

/** What a quote's event compares: its choices and totals (amounts, not cents). */
export function quoteFields(q: SavedQuote | null): EventFields {
  if (!q) return {};
  return {
    type: q.type,
    manual_check: q.manual_check,
    assessor_comments: q.assessor_comments,
    panels: q.panels.length,
    sub_total: centsToAmount(q.totals.sub_total),
    tax: centsToAmount(q.totals.tax),
    grand_total: centsToAmount(q.totals.grand_total),
  };
}

/** Records a quote's event in the write's transaction, keeping only the fields that changed. */
export const recordQuoteEvent = eventRecorder('quote');

/** GET quotes/{id}/history: the quote's events the caller may see (the quote itself must be visible), as records or CSV. */
export function quoteHistory(deps: { db: Database }) {
  return async ({ scope }: { scope: DataScope }, rawId: string, format?: 'csv') => {
    // An id that is no positive integer names no quote: the same 404 as a quote out of reach.
    const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : 0;
    if (id < 1 || !(await findQuote(deps.db, id, scope))) throw new NotFoundError(QUOTE_MODEL, rawId);
    const events = await findEvents(deps.db, 'quote', id, scope);
    return format === 'csv' ? { csv: historyCsv(events) } : { events };
  };
}
