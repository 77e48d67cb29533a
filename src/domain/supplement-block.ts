import { lineWords } from './invoice';
import { formatMoney, toCents } from './money';
import type { QuoteDelta } from './quote-delta';
import type { QuoteDeltaRecord } from './quote-revisions';

/**
 * A supplement's changes in words: the block its PDF and its invoice screen print, and the rows Quote Generation lists.
 * Apart from the revisions' wire schemas, so the invoice screen loads no zod.
 */

/** A delta report read from the wire (currency units) as the delta it was made from (cents). */
export function deltaOfRecord(record: QuoteDeltaRecord): QuoteDelta {
  const line = (l: QuoteDeltaRecord['added'][number]) => ({ ...l, amount: toCents(l.amount) });
  const side = (s: QuoteDeltaRecord['changed'][number]['before']) => ({ ...s, amount: toCents(s.amount) });
  return {
    added: record.added.map(line),
    removed: record.removed.map(line),
    changed: record.changed.map((c) => ({
      key: c.key,
      label: c.label,
      before: side(c.before),
      after: side(c.after),
      difference: toCents(c.difference),
    })),
    unchanged: [],
    total: {
      before: toCents(record.total.before),
      after: toCents(record.total.after),
      difference: toCents(record.total.difference),
    },
  };
}

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
