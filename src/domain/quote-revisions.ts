import { z } from 'zod';
import { lineWords } from './invoice';
import { centsToAmount, formatMoney } from './money';
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
});
export type QuoteRevisionRecord = z.infer<typeof QuoteRevisionRecord>;

/** GET quotes/{id}/revisions: every revision, oldest first, and the current revision's delta from the one sent before it. */
export const QuoteRevisionsRecord = z.object({
  current: z.number().int(),
  revisions: z.array(QuoteRevisionRecord),
  delta: QuoteDeltaRecord.nullable(),
});
export type QuoteRevisionsRecord = z.infer<typeof QuoteRevisionsRecord>;

/** The words of the supplement's block on its PDF, in the invoice's languages. */
export const SUPPLEMENT_LABELS = {
  en: {
    title: 'Supplement {label} — changes since {since}',
    original: 'the original estimate',
    added: 'Added',
    removed: 'Removed',
    changed: 'Changed',
    line: 'Line',
    change: 'Change',
    amount: 'Amount',
    grand_total: 'Grand total',
    // Words, not an arrow: the PDF's standard fonts have no arrow, and one glyph would embed a whole font.
    to: 'to',
  },
  ja: {
    title: '追加見積 {label} — {since}からの変更',
    original: '当初の見積',
    added: '追加',
    removed: '削除',
    changed: '変更',
    line: '項目',
    change: '変更内容',
    amount: '金額',
    grand_total: '合計',
    to: '→',
  },
} as const;

/** The supplement's block as the PDF prints it: a heading, a row per added, removed and changed line, the grand total's change. */
export interface SupplementBlock {
  title: string;
  head: [string, string, string];
  rows: [string, string, string][];
  total: [string, string];
}

/** How a line is repaired: its type and, for a pdr dent line, its level. */
type RepairSide = { repair_type: string; category?: string | null };

/** A delta line's work in words ('PDR (Heavy)'; '' for a product): its kind is its key's prefix (`dent:12`). */
export const deltaWords = (key: string, side: RepairSide, language: string | null | undefined) =>
  lineWords({ kind: key.split(':')[0], repair_type: side.repair_type, category: side.category }, language);

/** A line of a delta report: what happened to it and by how much the total moved (cents or currency units alike). */
export interface DeltaRow {
  key: string;
  kind: 'added' | 'removed' | 'changed';
  label: string;
  repair_type: string;
  category?: string | null;
  /** For a changed line: its repair and amount before and after. */
  change: { before: RepairSide & { amount: number }; after: RepairSide & { amount: number } } | null;
  /** What the line adds to the total: its amount when added, minus it when removed, the difference when changed. */
  difference: number;
}

/** The rows of a delta report in the order the screen and the PDF show them: added, removed, changed. */
export function deltaRows(d: {
  added: readonly (RepairSide & { key: string; label: string; amount: number })[];
  removed: readonly (RepairSide & { key: string; label: string; amount: number })[];
  changed: readonly {
    key: string;
    label: string;
    before: RepairSide & { amount: number };
    after: RepairSide & { amount: number };
    difference: number;
  }[];
}): DeltaRow[] {
  return [
    ...d.added.map((l) => ({
      key: l.key,
      kind: 'added' as const,
      label: l.label,
      repair_type: l.repair_type,
      category: l.category,
      change: null,
      difference: l.amount,
    })),
    ...d.removed.map((l) => ({
      key: l.key,
      kind: 'removed' as const,
      label: l.label,
      repair_type: l.repair_type,
      category: l.category,
      change: null,
      difference: -l.amount,
    })),
    ...d.changed.map((c) => ({
      key: c.key,
      kind: 'changed' as const,
      label: c.label,
      repair_type: c.after.repair_type,
      category: c.after.category,
      change: { before: c.before, after: c.after },
      difference: c.difference,
    })),
  ];
}

/** A difference with its sign, in the currency: '+$10.00', '-$5.50', '$0.00'. */
export const signedMoney = (cents: number, currency: string | null | undefined) =>
  cents > 0 ? `+${formatMoney(cents, currency)}` : cents < 0 ? `-${formatMoney(-cents, currency)}` : formatMoney(0, currency);

export function supplementBlockOf(
  delta: QuoteDelta,
  revision: { number: number; since: number },
  currency: string | null | undefined,
  language: 'en' | 'ja',
): SupplementBlock {
  const w = SUPPLEMENT_LABELS[language];
  const money = (c: number) => formatMoney(c, currency);
  const words = (key: string, s: RepairSide) => deltaWords(key, s, language);
  /** A side of a change: its work and a space, or nothing for a product. */
  const side = (key: string, s: RepairSide) => (words(key, s) ? `${words(key, s)} ` : '');
  const since = revision.since === 0 ? w.original : `S${revision.since}`;
  return {
    title: w.title.replace('{label}', `S${revision.number}`).replace('{since}', since),
    head: [w.line, w.change, w.amount],
    rows: deltaRows(delta).map((r): [string, string, string] => [
      r.label,
      r.change
        ? `${w.changed}: ${side(r.key, r.change.before)}${money(r.change.before.amount)} ${w.to} ${side(r.key, r.change.after)}${money(r.change.after.amount)}`
        : words(r.key, r)
          ? `${w[r.kind]}: ${words(r.key, r)}`
          : w[r.kind],
      signedMoney(r.difference, currency),
    ]),
    total: [
      w.grand_total,
      `${money(delta.total.before)} ${w.to} ${money(delta.total.after)} (${signedMoney(delta.total.difference, currency)})`,
    ],
  };
}
