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
  it("PRICING.md's worked example: t = 3, {light 5, heavy 2, oversize 1} is heavy", () => {
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

/** A small seeded generator (mulberry32), so a failing case can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('panelCategory is monotonic (PRICING.md)', () => {
  const rnd = random(20240601);
  const int = (max: number) => Math.floor(rnd() * (max + 1));
  const panel = (): DentCounts => Object.fromEntries(DENT_LEVELS.map((l) => [l, rnd() < 0.3 ? 0 : int(6)]));
  const method = (): CategoryMethod =>
    rnd() < 0.5 ? T(1 + int(6)) : W(Object.fromEntries(DENT_LEVELS.map((l) => [l, 1 + int(6)])) as Record<DentLevel, number>);
  const cases = Array.from({ length: 2000 }, () => ({ counts: panel(), method: method() }));

  it('adding a dent at any level never lowers the category', () => {
    for (const { counts, method: m } of cases) {
      const before = categoryRank(panelCategory(counts, m));
      for (const level of DENT_LEVELS) {
        const after = categoryRank(panelCategory({ ...counts, [level]: (counts[level] ?? 0) + 1 }, m));
        expect(after, JSON.stringify({ counts, m, level })).toBeGreaterThanOrEqual(before);
      }
    }
  });

  it('making one dent larger never lowers the category', () => {
    for (const { counts, method: m } of cases) {
      const before = categoryRank(panelCategory(counts, m));
      DENT_LEVELS.forEach((from, i) => {
        if (!counts[from]) return;
        for (const to of DENT_LEVELS.slice(i + 1)) {
          const moved = { ...counts, [from]: counts[from]! - 1, [to]: (counts[to] ?? 0) + 1 };
          expect(categoryRank(panelCategory(moved, m)), JSON.stringify({ counts, m, from, to })).toBeGreaterThanOrEqual(before);
        }
      });
    }
  });

  it('a panel has a category exactly when it has a dent', () => {
    for (const { counts, method: m } of cases) {
      const dents = DENT_LEVELS.reduce((n, l) => n + (counts[l] ?? 0), 0);
      expect(panelCategory(counts, m) === null).toBe(dents === 0);
    }
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
