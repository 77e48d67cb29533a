import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  categoryRank,
  clientCategoryMethod,
  DENT_LEVELS,
  panelCategory,
  type CategoryMethod,
  type DentCounts,
  type DentLevel,
} from './pricing';

const T = (threshold: number): CategoryMethod => ({ method: 'T', threshold });
const W = (w: Record<DentLevel, number>): CategoryMethod => ({ method: 'W', weighted: w });

describe('panelCategory, Threshold (T)', () => {
  it("the category's worked example: t = 3, {light 5, heavy 2, oversize 1} is heavy", () => {
    expect(panelCategory({ light: 5, heavy: 2, oversize: 1 }, T(3))).toBe('heavy');
  });

  it('a panel without dents has no category', () => {
    expect(panelCategory({}, T(1))).toBeNull();
    expect(panelCategory({ light: 0, medium: 0, heavy: 0, severe: 0, oversize: 0 }, T(3))).toBeNull();
  });

  it('dents that never reach the threshold are light', () => {
    expect(panelCategory({ severe: 1, oversize: 1 }, T(5))).toBe('light');
    expect(panelCategory({ medium: 1 }, T(2))).toBe('light');
  });

  it('with t = 1 the category is the largest dent', () => {
    expect(panelCategory({ light: 9, medium: 1 }, T(1))).toBe('medium');
    expect(panelCategory({ light: 1, oversize: 1 }, T(1))).toBe('oversize');
  });

  it('counts dents at a level or larger', () => {
    // n(>=severe) = 2 (severe 1 + oversize 1) reaches t = 2.
    expect(panelCategory({ light: 4, severe: 1, oversize: 1 }, T(2))).toBe('severe');
    expect(panelCategory({ light: 4, medium: 1, severe: 1 }, T(2))).toBe('medium');
  });
});

describe('panelCategory, Weight (W)', () => {
  const weights = { oversize: 1, severe: 2, heavy: 3, medium: 4, light: 5 };

  it('takes the largest level whose own count is reached', () => {
    expect(panelCategory({ oversize: 1 }, W(weights))).toBe('oversize');
    expect(panelCategory({ severe: 1 }, W(weights))).toBe('light');
    expect(panelCategory({ severe: 2 }, W(weights))).toBe('severe');
    // n(>=heavy) = 3 reaches heavy's 3; n(>=severe) = 1 does not reach 2.
    expect(panelCategory({ heavy: 2, severe: 1 }, W(weights))).toBe('heavy');
    // n(>=medium) = 1 misses medium's 4 and n(>=light) = 4 misses light's 5: light; four medium dents reach medium.
    expect(panelCategory({ light: 3, medium: 1 }, W(weights))).toBe('light');
    expect(panelCategory({ light: 1, medium: 4 }, W(weights))).toBe('medium');
  });

  it('dents reaching no count are light; none at all have no category', () => {
    expect(panelCategory({ light: 1 }, W({ ...weights, light: 10 }))).toBe('light');
    expect(panelCategory({}, W(weights))).toBeNull();
  });

  it('equals T when every weight is the threshold', () => {
    const same = { oversize: 3, severe: 3, heavy: 3, medium: 3, light: 3 };
    expect(panelCategory({ light: 5, heavy: 2, oversize: 1 }, W(same))).toBe('heavy');
  });
});

// Generated panels and methods (fast-check: a failure prints its seed and the shrunk case).
const countsArb: fc.Arbitrary<DentCounts> = fc.record(
  Object.fromEntries(DENT_LEVELS.map((l) => [l, fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 8 }))])) as Record<
    DentLevel,
    fc.Arbitrary<number>
  >,
);
const methodArb: fc.Arbitrary<CategoryMethod> = fc.oneof(
  fc.integer({ min: 1, max: 8 }).map(T),
  fc
    .tuple(...DENT_LEVELS.map(() => fc.integer({ min: 1, max: 8 })))
    .map((ns) => W(Object.fromEntries(DENT_LEVELS.map((l, i) => [l, ns[i]])) as Record<DentLevel, number>)),
);
const levelArb = fc.constantFrom(...DENT_LEVELS);

describe('panelCategory is monotonic', () => {
  it('adding a dent at any level never lowers the category', () => {
    fc.assert(
      fc.property(countsArb, methodArb, levelArb, (counts, m, level) => {
        const after = panelCategory({ ...counts, [level]: (counts[level] ?? 0) + 1 }, m);
        expect(categoryRank(after)).toBeGreaterThanOrEqual(categoryRank(panelCategory(counts, m)));
      }),
      { numRuns: 2000 },
    );
  });

  it('making one dent larger never lowers the category', () => {
    fc.assert(
      fc.property(countsArb, methodArb, levelArb, levelArb, (counts, m, a, b) => {
        const [from, to] = DENT_LEVELS.indexOf(a) <= DENT_LEVELS.indexOf(b) ? [a, b] : [b, a];
        fc.pre((counts[from] ?? 0) > 0);
        const moved = { ...counts, [from]: counts[from]! - 1, [to]: (counts[to] ?? 0) + 1 };
        expect(categoryRank(panelCategory(moved, m))).toBeGreaterThanOrEqual(categoryRank(panelCategory(counts, m)));
      }),
      { numRuns: 2000 },
    );
  });

  it('a panel has a category exactly when it has a dent', () => {
    fc.assert(
      fc.property(countsArb, methodArb, (counts, m) => {
        const dents = DENT_LEVELS.reduce((n, l) => n + (counts[l] ?? 0), 0);
        expect(panelCategory(counts, m) === null).toBe(dents === 0);
      }),
    );
  });
});

describe("clientCategoryMethod reads a client's stored fields", () => {
  it('gives T with the threshold and W with all five counts', () => {
    expect(clientCategoryMethod({ calculation_method: 'T', sc_threshold: 3 })).toEqual(T(3));
    const w = { oversize: 1, severe: 2, heavy: 3, medium: 4, light: 5 };
    expect(clientCategoryMethod({ calculation_method: 'W', weighted_no: w })).toEqual(W(w));
  });

  it('gives null when the configuration is incomplete', () => {
    expect(clientCategoryMethod({ calculation_method: 'T', sc_threshold: null })).toBeNull();
    expect(clientCategoryMethod({ calculation_method: 'W', weighted_no: { oversize: 1 } })).toBeNull();
    expect(clientCategoryMethod({ calculation_method: 'W', weighted_no: null })).toBeNull();
    expect(clientCategoryMethod({ calculation_method: 'X' })).toBeNull();
  });
});
