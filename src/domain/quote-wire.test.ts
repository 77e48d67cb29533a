import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { samplePricedQuote, samplePricing } from '../test/invoiceSample';
import { priceQuote, REPAIR_TYPES, SCRATCH_REPAIR_TYPES, TYRE_CHOICES } from './pricing';
import type { PricedQuote } from './quote-model';
import { invoiceQuoteOfRecord, pricedOfStored, wireItemsOf, wireProductsOf, wireTotalsOf, wireTyresOf } from './quote-wire';

/** A priced quote from generated choices on the sample client: every repair type, scratch type, tyre choice, toggle. */
const pricedQuotes: fc.Arbitrary<PricedQuote> = fc
  .record({
    panels: fc.array(
      fc.record({
        repair: fc.constantFrom(null, ...REPAIR_TYPES),
        scratch: fc.constantFrom(null, ...SCRATCH_REPAIR_TYPES),
        large: fc.boolean(),
      }),
      { maxLength: 12 },
    ),
    tyres: fc.uniqueArray(fc.record({ row: fc.integer({ min: 1, max: 3 }), direction: fc.constantFrom('L' as const, 'R' as const) }), {
      selector: (t) => `${t.row}${t.direction}`,
      maxLength: 4,
    }),
    choices: fc.array(fc.constantFrom(...TYRE_CHOICES), { minLength: 4, maxLength: 4 }),
    products: fc.array(fc.integer({ min: 0, max: 999_999_999 }), { maxLength: 4 }),
    metallic: fc.boolean(),
    pearl: fc.boolean(),
    aluminium: fc.boolean(),
    gst: fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 10_000),
  })
  .map((g) => {
    const base = samplePricedQuote();
    const input = {
      ...samplePricing(),
      metallic: g.metallic,
      pearl: g.pearl,
      aluminium: g.aluminium,
      gst_percent: g.gst,
      panels: g.panels.map((p, i) => ({
        panel_id: i + 1,
        label: `Panel ${i + 1}`,
        part_id: 7,
        type: p.large ? ('L' as const) : ('D' as const),
        hasLargeVariant: p.large,
        dent: { repair_type: p.repair, category: p.repair === 'pdr' ? ('heavy' as const) : null },
        scratch: p.repair === null || p.repair === 'pdr' ? p.scratch : null,
      })),
      tyres: g.tyres.map((t, i) => ({ ...t, choice: g.choices[i], label: `WHEEL ${i + 1}` })),
      products: g.products.map((c, i) => ({ text: `Product ${i}`, price: c / 100 })),
    };
    return {
      ...priceQuote(input),
      metallic: g.metallic,
      pearl: g.pearl,
      aluminium: g.aluminium,
      vehicle_type: 'D' as const,
      gst_percent: g.gst,
      panels: input.panels.map((p) => ({ ...base.panels[0], panel_id: p.panel_id, label: p.label, hasLargeVariant: p.hasLargeVariant })),
      tyres: input.tyres.map(({ row, direction, label }) => ({ row, direction, label })),
      products: g.products.map((price, i) => ({ value: i + 1, text: `Product ${i}`, price })),
      parts: [],
    };
  });

describe('the quote on the wire and in its stored columns', () => {
  it('reads back, to the cent, every line and total it was written with (JSON and numeric(12,2) decimals)', () => {
    fc.assert(
      fc.property(pricedQuotes, (q) => {
        // What the columns hold: the wire-shaped jsonb and the decimal totals, through JSON as PostgreSQL returns them.
        const stored = JSON.parse(
          JSON.stringify({
            items: wireItemsOf(q),
            tyres: wireTyresOf(q),
            totals: wireTotalsOf(q.totals),
            products: wireProductsOf(q.products),
            parts: q.parts,
          }),
        ) as Parameters<typeof pricedOfStored>[0];
        const back = pricedOfStored(stored);
        expect(back.totals).toEqual(q.totals);
        expect(back.lines).toEqual(q.lines);
        expect(back.products).toEqual(q.products);
        expect(back.tyres).toEqual(q.tyres);
        expect(back.panels).toEqual(q.panels);
      }),
      { numRuns: 200 },
    );
  });

  it('gives the invoice screen the same cents as the quote it sends', () => {
    const q = samplePricedQuote();
    const read = invoiceQuoteOfRecord({
      id: 1,
      created_at: '2026-11-21T20:00:00Z',
      currency: '$',
      metallic: 1,
      pearl: 0,
      aluminium: 1,
      items: wireItemsOf(q),
      tyres: wireTyresOf(q),
      products: wireProductsOf(q.products),
      parts: q.parts,
      totals: wireTotalsOf(q.totals),
      assessor: null,
      client: null,
      agent: { name: 'A' },
      scan: { licensePlate: null, make: null, model: null, carColor: null, timestamp: '2026-11-20T03:15:00Z' },
    });
    expect(read.lines).toEqual(q.lines);
    expect(read.totals).toEqual(q.totals);
    expect(read.products).toEqual(q.products.map(({ text, price }) => ({ text, price })));
  });
});
