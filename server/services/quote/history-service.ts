import type { EventFields } from '../../../src/domain/history';
import { centsToAmount, formatMoney } from '../../../src/domain/money';
import type { SavedQuote } from '../../../src/domain/quote-model';
import type { DataScope } from '../../../src/domain/permissions';
import type { Database } from '../../db/database';
import { NotFoundError } from '../../errors';
import { eventRecorder, findEvents } from '../../lib/events-repository';
import { historyCsv } from '../../lib/history';
import { findQuote } from './quotes-repository';
import { QUOTE_MODEL } from './quotes-service';

/**
 * What a quote's event compares: its choices and totals (amounts, not cents). Each line's repair is a field of its own
 * (`<panel>.dent_repair`, `<panel>.scratch_repair`, `tyre.<row>.<L|R>`), so a changed repair type shows by name, and a
 * pdr line's level too (`<panel>.dent_level`); the products with their prices and the parts are one text each.
 */
export function quoteFields(q: SavedQuote | null): EventFields {
  if (!q) return {};
  const panelLabel = new Map(q.panels.map((p) => [p.panel_id, p.label]));
  const repairs: EventFields = {};
  for (const line of q.lines) {
    if (line.kind === 'tyre') {
      const [, row, direction] = String(line.panel_id).split(':');
      repairs[`tyre.${row}.${direction}`] = line.repair_type;
    } else {
      const panel = panelLabel.get(Number(line.panel_id)) ?? line.panel_id;
      repairs[`${panel}.${line.kind}_repair`] = line.repair_type;
      if (line.kind === 'dent' && line.category) repairs[`${panel}.dent_level`] = line.category;
    }
  }
  return {
    type: q.type,
    manual_check: q.manual_check,
    assessor_comments: q.assessor_comments,
    metallic: q.metallic,
    pearl: q.pearl,
    aluminium: q.aluminium,
    gst_percent: q.gst_percent,
    panels: q.panels.length,
    ...repairs,
    products: q.products.map((p) => `${p.text} ${formatMoney(p.price, q.currency)}`).join(', ') || null,
    parts: q.parts.map((p) => p.text).join(', ') || null,
    product: centsToAmount(q.totals.product),
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
