/**
 * How a quote is priced (../shared/spec/PRICING.md), as plain functions used by the browser's live
 * preview and by the server. This file holds a panel's category for now; the fee engine follows with the quote screens.
 */

/** Dent levels, lowest to highest (DECISIONS.md: severity order). */
export const DENT_LEVELS = ['light', 'medium', 'heavy', 'severe', 'oversize'] as const;
export type DentLevel = (typeof DENT_LEVELS)[number];

/** A panel's dents: how many at each level (a missing level counts 0). */
export type DentCounts = Partial<Record<DentLevel, number>>;

/** The client's category method: Threshold with `sc_threshold`, or Weight with `weighted_no`. */
export type CategoryMethod = { method: 'T'; threshold: number } | { method: 'W'; weighted: Record<DentLevel, number> };

/** The rank of a category, for comparisons: no category (no dents) is below light. */
export const categoryRank = (category: DentLevel | null) => (category === null ? -1 : DENT_LEVELS.indexOf(category));

const count = (n: number | undefined) => (n !== undefined && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/**
 * A panel's category (PRICING.md "A panel's category"): the largest level L with n(≥L), the number of
 * dents at L or larger, reaching the method's count for L (T: the threshold; W: weighted_no[L]).
 * Dents that reach no count give light; no dents give null (no repair type, 'No Damage Detected').
 */
export function panelCategory(counts: DentCounts, method: CategoryMethod): DentLevel | null {
  let atOrAbove = 0;
  for (let i = DENT_LEVELS.length - 1; i >= 0; i--) {
    const level = DENT_LEVELS[i];
    atOrAbove += count(counts[level]);
    const needed = method.method === 'T' ? method.threshold : method.weighted[level];
    if (atOrAbove > 0 && atOrAbove >= Math.max(1, needed)) return level;
  }
  return atOrAbove > 0 ? 'light' : null;
}

/** The method a client's stored fields configure, or null when they are incomplete (a W client missing a count). */
export function clientCategoryMethod(client: {
  calculation_method: string;
  sc_threshold?: number | null;
  weighted_no?: Partial<Record<DentLevel, number | null>> | null;
}): CategoryMethod | null {
  if (client.calculation_method === 'T') {
    const t = client.sc_threshold;
    return typeof t === 'number' && Number.isInteger(t) && t >= 1 ? { method: 'T', threshold: t } : null;
  }
  if (client.calculation_method === 'W') {
    const w = client.weighted_no;
    if (!w) return null;
    const weighted = {} as Record<DentLevel, number>;
    for (const level of DENT_LEVELS) {
      const n = w[level];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) return null;
      weighted[level] = n;
    }
    return { method: 'W', weighted };
  }
  return null;
}
