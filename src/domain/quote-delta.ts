import type { Cents } from './money';

/**
 * A supplement's delta report: what changed between a sent version of a quote and the version that replaces it, line
 * by line, with each amount and the change of the grand total. A line is one thing the customer decides on (a panel's
 * dent or scratch line, a tyre line, a product), known by a key that stays the same across versions.
 */

/** What the delta compares of a line: its key, what it is called, how it is repaired and what it costs. */
export interface DeltaLine {
  key: string;
  label: string;
  /** The repair type (pdr, conventional, spot, replace…); a product's name for a product. */
  repair_type: string;
  /** A pdr dent line's level (light … oversize), else null; absent from reports kept before it was. */
  category?: string | null;
  amount: Cents;
}

/** A line in both versions whose repair or amount differs. */
export interface ChangedLine {
  key: string;
  label: string;
  before: Pick<DeltaLine, 'repair_type' | 'category' | 'amount'>;
  after: Pick<DeltaLine, 'repair_type' | 'category' | 'amount'>;
  /** after − before, in cents. */
  difference: Cents;
}

export interface QuoteDelta {
  added: DeltaLine[];
  removed: DeltaLine[];
  changed: ChangedLine[];
  /** The keys of the lines that are the same in both versions. */
  unchanged: string[];
  total: { before: Cents; after: Cents; difference: Cents };
}

/**
 * The delta from `before` (the sent version) to `after` (the supplement): added lines in the supplement's order,
 * removed lines in the sent version's order, changed lines in the supplement's order. Totals are the grand totals.
 */
export function quoteDelta(before: readonly DeltaLine[], after: readonly DeltaLine[], totals: { before: Cents; after: Cents }): QuoteDelta {
  const was = new Map(before.map((l) => [l.key, l]));
  const now = new Set(after.map((l) => l.key));
  const added: DeltaLine[] = [];
  const changed: ChangedLine[] = [];
  const unchanged: string[] = [];
  for (const line of after) {
    const old = was.get(line.key);
    if (!old) added.push(line);
    else if (old.amount !== line.amount || old.repair_type !== line.repair_type || (old.category ?? null) !== (line.category ?? null))
      changed.push({
        key: line.key,
        label: line.label,
        before: { repair_type: old.repair_type, category: old.category ?? null, amount: old.amount },
        after: { repair_type: line.repair_type, category: line.category ?? null, amount: line.amount },
        difference: line.amount - old.amount,
      });
    else unchanged.push(line.key);
  }
  return {
    added,
    removed: before.filter((l) => !now.has(l.key)),
    changed,
    unchanged,
    total: { before: totals.before, after: totals.after, difference: totals.after - totals.before },
  };
}

/**
 * Re-approval of a supplement asks only about its added and changed lines; the customer's earlier decisions on the
 * unchanged lines carry over (an approved unchanged line stays approved), and removed lines drop out.
 */
export function reapproval<D>(delta: QuoteDelta, earlier: Readonly<Record<string, D>>) {
  const carried: Record<string, D> = {};
  for (const key of delta.unchanged) if (key in earlier) carried[key] = earlier[key];
  const ask = [...delta.added.map((l) => l.key), ...delta.changed.map((l) => l.key)];
  // An unchanged line the customer never answered (it was added after their answer) is asked about too.
  for (const key of delta.unchanged) if (!(key in earlier)) ask.push(key);
  return { ask, carried };
}
