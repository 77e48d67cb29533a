import { z } from 'zod';
import { centsToAmount } from './money';
import { approvalLinesOf, QUOTE_STATUSES } from './quote-approval';
import { type DeltaLine, type QuoteDelta, quoteDelta } from './quote-delta';
import type { PricedQuote, SavedQuote } from './quote-model';

/**
 * Quote revisions and supplements. A revision is what the customer is sent: 0 the original estimate, then S1, S2…
 * (supplements). Once sent, a revision is frozen; saving the quote again starts the next supplement as a draft. A
 * revision is not the quote's `version`, the counter a save is checked against (src/domain/versions.ts).
 */

/** What the delta compares of a priced quote: the lines a customer decides on, with their amounts. */
export type DeltaSource = Pick<PricedQuote, 'panels' | 'lines' | 'tyres' | 'products' | 'totals'>;

export const deltaLinesOf = (q: DeltaSource): DeltaLine[] =>
  approvalLinesOf(q).map((l) => ({ key: l.key, label: l.label, repair_type: l.repair_type, category: l.category, amount: l.amount }));

/** The supplement's delta report: from the sent revision `before` to the quote as it is now (`after`). */
export const revisionDelta = (before: DeltaSource, after: DeltaSource): QuoteDelta =>
  quoteDelta(deltaLinesOf(before), deltaLinesOf(after), { before: before.totals.grand_total, after: after.totals.grand_total });

/** A frozen revision's saved quote, read back from its JSON (the dates were written as text). */
export function savedQuoteOfJson(json: SavedQuote): SavedQuote {
  return {
    ...json,
    created_at: new Date(json.created_at),
    updated_at: new Date(json.updated_at),
    scan: { ...json.scan, timestamp: new Date(json.scan.timestamp) },
    new_damage: json.new_damage ? { ...json.new_damage, compared_with: new Date(json.new_damage.compared_with) } : null,
  };
}

const DeltaLineRecord = z.object({
  key: z.string(),
  label: z.string(),
  repair_type: z.string(),
  category: z.string().nullish(),
  amount: z.number(),
});
const RepairAndAmount = DeltaLineRecord.pick({ repair_type: true, category: true, amount: true });

/** The delta report on the wire: amounts in currency units. */
export const QuoteDeltaRecord = z.object({
  /** The revision compared with: 0 the original estimate, n the supplement Sn. */
  since: z.number().int(),
  added: z.array(DeltaLineRecord),
  removed: z.array(DeltaLineRecord),
  changed: z.array(
    z.object({ key: z.string(), label: z.string(), before: RepairAndAmount, after: RepairAndAmount, difference: z.number() }),
  ),
  total: z.object({ before: z.number(), after: z.number(), difference: z.number() }),
});
export type QuoteDeltaRecord = z.infer<typeof QuoteDeltaRecord>;

export function deltaRecordOf(d: QuoteDelta, since: number): QuoteDeltaRecord {
  const line = (l: DeltaLine) => ({
    key: l.key,
    label: l.label,
    repair_type: l.repair_type,
    category: l.category ?? null,
    amount: centsToAmount(l.amount),
  });
  return {
    since,
    added: d.added.map(line),
    removed: d.removed.map(line),
    changed: d.changed.map((c) => ({
      key: c.key,
      label: c.label,
      before: { repair_type: c.before.repair_type, category: c.before.category ?? null, amount: centsToAmount(c.before.amount) },
      after: { repair_type: c.after.repair_type, category: c.after.category ?? null, amount: centsToAmount(c.after.amount) },
      difference: centsToAmount(c.difference),
    })),
    total: {
      before: centsToAmount(d.total.before),
      after: centsToAmount(d.total.after),
      difference: centsToAmount(d.total.difference),
    },
  };
}

/** One revision as Quote Generation lists it. */
export const QuoteRevisionRecord = z.object({
  number: z.number().int(),
  /** 'S1', 'S2'…; null for the original estimate. */
  label: z.string().nullable(),
  status: z.enum(QUOTE_STATUSES),
  grand_total: z.number(),
  /** When it was frozen by sending it; null for the current revision while it is a draft. */
  sent_at: z.date().nullable(),
  /** Its PDF: the frozen copy for a sent revision, the quote's current PDF for the draft. */
  pdf: z.string().nullable(),
  /** The customer's signed answer to it (the approved estimate's PDF), once answered. */
  signed_pdf: z.string().nullable(),
});
export type QuoteRevisionRecord = z.infer<typeof QuoteRevisionRecord>;

/** GET quotes/{id}/revisions: every revision, oldest first, and the current revision's delta from the one sent before it. */
export const QuoteRevisionsRecord = z.object({
  current: z.number().int(),
  revisions: z.array(QuoteRevisionRecord),
  delta: QuoteDeltaRecord.nullable(),
});
export type QuoteRevisionsRecord = z.infer<typeof QuoteRevisionsRecord>;
