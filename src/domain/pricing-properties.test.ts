import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DentPriceRow, ScratchPriceRow } from './client-fields';
import { percentOf, scaleDecimal, toCents } from './money';
import {
  changeCategory,
  changeRepairType,
  DENT_LEVELS,
  initialDentChoice,
  initialScratchRepair,
  panelApplies,
  panelCategory,
  priceQuote,
  REPAIR_TYPES,
  SCRATCH_REPAIR_TYPES,
  SUBTOTALS,
  TYRE_CHOICES,
  type CategoryMethod,
  type DentLevel,
  type Flag,
  type PricedLine,
  type PricingClient,
  type PricingInput,
  type PricingPanel,
  type QuotePricing,
} from './pricing';

// Generated clients and quotes of up to 40 panels, built the way the quote screen builds them: each panel's dent
// counts give its category under the client's method, the first-load default follows, then a few assessor changes.

const PART_IDS = ['1', '2', '3', '4', '5'];
/** Stored amounts: numeric(12,2), mostly small, sometimes up to the largest the forms accept. */
const amount = fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 9_999_999_999 })).map((c) => c / 100);
/** Stored percentages: numeric(7,2) from 0 to 1000. */
const percent = fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 100_000 })).map((n) => n / 100);

const dentRow: fc.Arbitrary<DentPriceRow> = fc.record({
  light: amount,
  medium: amount,
  heavy: amount,
  severe: amount,
  oversize: amount,
  p2p: amount,
  aluminium: percent,
  conventional: amount,
  replacement: amount,
});
const scratchRow: fc.Arbitrary<ScratchPriceRow> = fc.record({ spot: amount, paint: amount, conventional: amount });
const matrix = <R>(row: fc.Arbitrary<R>) =>
  fc.tuple(...PART_IDS.map(() => fc.option(row))).map((rows) => {
    const byPart: Record<string, R> = {};
    rows.forEach((r, i) => {
      if (r !== null) byPart[PART_IDS[i]] = r;
    });
    return byPart;
  });

const clientArb: fc.Arbitrary<PricingClient> = fc.record({
  sc_metallic: percent,
  sc_pearl: percent,
  sc_p2p: fc.constantFrom(0, 1, true, false),
  tyre_repair: amount,
  tyre_replace: amount,
  prices: fc.record({ dent: matrix(dentRow), scratch: matrix(scratchRow) }),
});

const methodArb: fc.Arbitrary<CategoryMethod> = fc.oneof(
  fc.integer({ min: 1, max: 6 }).map((threshold) => ({ method: 'T' as const, threshold })),
  fc.tuple(...DENT_LEVELS.map(() => fc.integer({ min: 1, max: 6 }))).map((ns) => ({
    method: 'W' as const,
    weighted: Object.fromEntries(DENT_LEVELS.map((l, i) => [l, ns[i]])) as Record<DentLevel, number>,
  })),
);

const countsArb = fc.tuple(...DENT_LEVELS.map(() => fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 6 }))));
const action = fc.oneof(fc.record({ to: fc.constantFrom(...REPAIR_TYPES) }), fc.record({ category: fc.constantFrom(...DENT_LEVELS) }));
const panelSeed = fc.record({
  counts: countsArb,
  actions: fc.array(action, { maxLength: 3 }),
  scratches: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4 })),
  scratchType: fc.option(fc.constantFrom(...SCRATCH_REPAIR_TYPES)),
  part_id: fc.option(fc.constantFrom(1, 2, 3, 4, 5, 6)),
  type: fc.constantFrom('D', 'L', 'XL' as const),
  hasLargeVariant: fc.boolean(),
});

const flag = fc.constantFrom<Flag>(0, 1, true, false);
const quoteArb: fc.Arbitrary<PricingInput> = fc
  .record({
    client: clientArb,
    method: methodArb,
    seeds: fc.array(panelSeed, { maxLength: 40 }),
    metallic: flag,
    pearl: flag,
    aluminium: flag,
    vehicle_type: fc.constantFrom('D', 'L', 'XL' as const),
    products: fc.array(fc.record({ price: amount }), { maxLength: 5 }),
    // Up to four wheels of up to three rows, each chosen once.
    tyres: fc.uniqueArray(
      fc.record({
        row: fc.integer({ min: 1, max: 3 }),
        direction: fc.constantFrom('L', 'R' as const),
        choice: fc.constantFrom(...TYRE_CHOICES),
      }),
      { maxLength: 4, selector: (t) => `${t.row}${t.direction}` },
    ),
    // GST_PERCENT: 0 to 100 with up to 4 decimals.
    gst_percent: fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 10_000),
  })
  .map(({ seeds, method, ...rest }) => ({
    ...rest,
    panels: seeds.map((s, i): PricingPanel => {
      const computed = panelCategory(Object.fromEntries(DENT_LEVELS.map((l, j) => [l, s.counts[j]])), method);
      let dent = initialDentChoice(computed);
      for (const a of s.actions) dent = 'to' in a ? changeRepairType(a.to, computed) : changeCategory(dent, a.category);
      const first = initialScratchRepair(s.scratches);
      return {
        panel_id: i + 1,
        part_id: s.part_id,
        type: s.type,
        hasLargeVariant: s.hasLargeVariant,
        dent,
        scratch: first && (s.scratchType ?? first),
      };
    }),
  }));

const fees = (l: PricedLine) => [l.repair_fee, l.aluminium_fee, l.metallic_fee, l.pearl_fee];
const figures = ({ lines, totals }: QuotePricing) => [...lines.flatMap((l) => [...fees(l), l.line_total]), ...Object.values(totals)];

/** The percentages (in 1/10,000 %) a priced line's three fees were taken at, read from the input independently. */
function linePercents(line: PricedLine, input: PricingInput): [number, number, number] {
  if (line.status !== 'priced' || line.kind === 'tyre') return [0, 0, 0];
  const panel = input.panels.find((p) => p.panel_id === line.panel_id)!;
  const p4 = (x: number | null | undefined) => scaleDecimal(x ?? 0, 4);
  const on = (f: unknown) => f === 1 || f === true;
  const surcharges = line.kind === 'dent' || line.repair_type === 'paint';
  const aluminium = line.kind === 'dent' && on(input.aluminium) ? p4(input.client.prices?.dent?.[String(panel.part_id)]?.aluminium) : 0;
  return [
    aluminium,
    surcharges && on(input.metallic) ? p4(input.client.sc_metallic) : 0,
    surcharges && on(input.pearl) ? p4(input.client.sc_pearl) : 0,
  ];
}

const MILLION = 1_000_000n;
const abs = (x: bigint) => (x < 0n ? -x : x);

describe('priceQuote over generated clients and quotes (fast-check)', () => {
  it('line totals are the sum of their fees; subtotals, sub-total and grand total the sums of their parts', () => {
    fc.assert(
      fc.property(quoteArb, (input) => {
        const { lines, totals } = priceQuote(input);
        for (const l of lines) expect(l.line_total).toBe(fees(l).reduce((a, b) => a + b, 0));
        for (const t of SUBTOTALS) {
          expect(totals[t]).toBe(lines.filter((l) => l.subtotal === t).reduce((a, l) => a + l.line_total, 0));
        }
        // Scratch work is never replacement, and tyres are their own section.
        for (const l of lines) {
          if (l.kind === 'scratch') expect(l.subtotal).toBe(l.repair_type === 'conventional' ? 'conventional' : 'paint');
          if (l.kind === 'tyre') expect(l.subtotal).toBe('tyre');
        }
        expect(totals.product).toBe(input.products.reduce((a, p) => a + toCents(p.price), 0));
        expect(totals.sub_total).toBe(lines.reduce((a, l) => a + l.line_total, 0) + totals.product);
        expect(totals.tax).toBe(percentOf(totals.sub_total, input.gst_percent));
        expect(totals.grand_total).toBe(totals.sub_total + totals.tax);
      }),
      { numRuns: 300 },
    );
  });

  it('has a dent line for each panel with a repair type, a scratch line for each panel with scratches and a pdr dent line or none, then a line per tyre choice', () => {
    fc.assert(
      fc.property(quoteArb, (input) => {
        const { lines } = priceQuote(input);
        const expected = [
          ...input.panels.flatMap((p) => [
            ...(p.dent.repair_type ? [[p.panel_id, 'dent', p.dent.repair_type]] : []),
            ...(p.scratch && (p.dent.repair_type === null || p.dent.repair_type === 'pdr') ? [[p.panel_id, 'scratch', p.scratch]] : []),
          ]),
          ...(input.tyres ?? []).map((t) => [`tyre:${t.row}:${t.direction}`, 'tyre', t.choice]),
        ];
        expect(lines.map((l) => [l.panel_id, l.kind, l.repair_type])).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('no quote holds a scratch line on a panel whose dent line is conventional, p2p or replacement', () => {
    fc.assert(
      fc.property(quoteArb, (input) => {
        const { lines } = priceQuote(input);
        const repainted = new Set(
          lines.filter((l) => l.kind === 'dent' && ['conventional', 'p2p', 'replacement'].includes(l.repair_type)).map((l) => l.panel_id),
        );
        expect(lines.filter((l) => l.kind === 'scratch' && repainted.has(l.panel_id))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('no figure is negative, and every figure is a whole number of cents', () => {
    fc.assert(
      fc.property(quoteArb, (input) => {
        for (const x of figures(priceQuote(input))) {
          expect(Number.isSafeInteger(x)).toBe(true);
          expect(x).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a large-variant panel of another vehicle type costs 0, and the quote's totals are as without it", () => {
    fc.assert(
      fc.property(quoteArb, (input) => {
        const priced = priceQuote(input);
        const wrongType = (p: PricingPanel) => p.hasLargeVariant && p.type !== input.vehicle_type;
        const other = new Set(input.panels.filter(wrongType).map((p) => p.panel_id));
        expect(input.panels.every((p) => panelApplies(p, input.vehicle_type) === !wrongType(p))).toBe(true);
        for (const l of priced.lines.filter((line) => other.has(line.panel_id))) {
          expect(l.status).toBe('other-vehicle-type');
          expect([...fees(l), l.line_total]).toEqual([0, 0, 0, 0, 0]);
        }
        const without = priceQuote({ ...input, panels: input.panels.filter((p) => !other.has(p.panel_id)) });
        expect(priced.totals).toEqual(without.totals);
      }),
      { numRuns: 300 },
    );
  });

  it('stays within half a cent per rounded fee of the exact sum: at most 1.5 cents per line, 1 with two surcharges', () => {
    fc.assert(
      fc.property(quoteArb, (input) => {
        const { lines, totals } = priceQuote(input);
        // Everything × 10^6 cents, so exact fees (cents × percent/10^4 / 100) are integers.
        let exact = 0n;
        let bound = 0n;
        for (const l of lines) {
          const ps = linePercents(l, input);
          const repair = BigInt(l.repair_fee);
          const exactLine = repair * MILLION + ps.reduce((a, p) => a + repair * BigInt(p), 0n);
          const rounded = ps.filter((p) => p > 0).length;
          const drift = abs(BigInt(l.line_total) * MILLION - exactLine);
          expect(drift).toBeLessThanOrEqual(BigInt(rounded) * 500_000n);
          expect(drift).toBeLessThanOrEqual(rounded <= 2 ? MILLION : 1_500_000n);
          exact += exactLine;
          bound += BigInt(rounded) * 500_000n;
        }
        exact += BigInt(totals.product) * MILLION;
        expect(abs(BigInt(totals.sub_total) * MILLION - exact)).toBeLessThanOrEqual(bound);
        // Grand total against the exact sub-total with exact GST: the sub-total's drift grown by GST, plus GST's half cent.
        const g = BigInt(scaleDecimal(input.gst_percent, 4));
        const exactGrand = exact * (MILLION + g);
        const grandBound = bound * (MILLION + g) + 500_000n * MILLION;
        expect(abs(BigInt(totals.grand_total) * MILLION * MILLION - exactGrand)).toBeLessThanOrEqual(grandBound);
      }),
      { numRuns: 300 },
    );
  });
});
