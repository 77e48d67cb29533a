import { describe, expect, it } from 'vitest';
import type { ClientPrices } from './client-fields';
import {
  changeCategory,
  changeRepairType,
  dentChoiceError,
  initialDentChoice,
  initialScratchRepair,
  offeredRepairTypes,
  panelApplies,
  panelCategory,
  priceQuote,
  recountDents,
  recountScratches,
  scratchAfterDentChange,
  scratchLineAllowed,
  type DentChoice,
  type PricingClient,
  type PricingInput,
  type PricingPanel,
} from './pricing';
import { sampleClient } from '../test/invoiceSample';

// Worked examples of the pricing rules: a client with one fully priced part (7), one part priced for the half-cent cases (8),
// and no row for part 9. Amounts are decimal currency units, as the wire and the database hold them.
// The invoice sample's client (part 7), plus part 8.
const samplePrices = sampleClient.prices!;
const client: PricingClient = {
  ...sampleClient,
  prices: {
    ...samplePrices,
    dent: {
      ...samplePrices.dent,
      '8': { light: 0.01, medium: 1.01, heavy: 0, severe: 0, oversize: 0, p2p: 0, aluminium: 50, conventional: 0, replacement: 0 },
    },
  },
};

const pdr = (category: DentChoice['category']): DentChoice => ({ repair_type: 'pdr', category });
const type = (repair_type: DentChoice['repair_type']): DentChoice => ({ repair_type, category: null });

const panel = (over: Partial<PricingPanel> = {}): PricingPanel => ({
  panel_id: 1,
  part_id: 7,
  type: 'D',
  hasLargeVariant: false,
  dent: pdr('heavy'),
  scratch: null,
  ...over,
});

const quote = (over: Partial<PricingInput> = {}): PricingInput => ({
  client,
  panels: [panel()],
  metallic: 0,
  pearl: 0,
  aluminium: 0,
  vehicle_type: 'D',
  products: [],
  gst_percent: 10,
  ...over,
});

const onlyLine = (input: PricingInput) => {
  const { lines } = priceQuote(input);
  expect(lines).toHaveLength(1);
  return lines[0];
};

describe('repair fee by repair type (from the part row of the dent matrix)', () => {
  it('pdr takes the column of the category', () => {
    for (const [category, cents] of [
      ['light', 10_000],
      ['medium', 15_000],
      ['heavy', 20_000],
      ['severe', 25_000],
      ['oversize', 30_000],
    ] as const) {
      const line = onlyLine(quote({ panels: [panel({ dent: pdr(category) })] }));
      expect(line).toMatchObject({ kind: 'dent', repair_type: 'pdr', category, subtotal: 'pdr', status: 'priced' });
      expect(line).toMatchObject({ repair_fee: cents, aluminium_fee: 0, metallic_fee: 0, pearl_fee: 0, line_total: cents });
    }
  });

  it('conventional, p2p and replacement take their own columns and have no category', () => {
    expect(onlyLine(quote({ panels: [panel({ dent: type('conventional') })] }))).toMatchObject({
      category: null,
      subtotal: 'conventional',
      repair_fee: 45_050,
      line_total: 45_050,
    });
    expect(onlyLine(quote({ panels: [panel({ dent: type('p2p') })] }))).toMatchObject({ subtotal: 'p2p', repair_fee: 8000 });
    expect(onlyLine(quote({ panels: [panel({ dent: type('replacement') })] }))).toMatchObject({
      subtotal: 'replacement',
      repair_fee: 120_000,
    });
  });

  it('a category left on a non-pdr choice is ignored', () => {
    const line = onlyLine(quote({ panels: [panel({ dent: { repair_type: 'conventional', category: 'light' } })] }));
    expect(line).toMatchObject({ category: null, repair_fee: 45_050 });
  });
});

describe('aluminium, metallic and pearl fees', () => {
  it("aluminium is the part's percent of the repair fee, only with the Aluminium toggle", () => {
    expect(onlyLine(quote({ aluminium: 1 }))).toMatchObject({ repair_fee: 20_000, aluminium_fee: 2500, line_total: 22_500 });
    expect(onlyLine(quote({ aluminium: 0 })).aluminium_fee).toBe(0);
  });

  it("metallic is the client's sc_metallic percent, only with the Metallic toggle", () => {
    expect(onlyLine(quote({ metallic: true }))).toMatchObject({ metallic_fee: 2000, line_total: 22_000 });
    expect(onlyLine(quote({ metallic: false })).metallic_fee).toBe(0);
  });

  it("pearl is the client's sc_pearl percent, only with the Pearl toggle", () => {
    expect(onlyLine(quote({ pearl: 1 }))).toMatchObject({ pearl_fee: 1500, line_total: 21_500 });
  });

  it('line total = repair + aluminium + metallic + pearl, each fee from the repair fee alone', () => {
    expect(onlyLine(quote({ aluminium: 1, metallic: 1, pearl: 1 }))).toMatchObject({
      repair_fee: 20_000,
      aluminium_fee: 2500,
      metallic_fee: 2000,
      pearl_fee: 1500,
      line_total: 26_000,
    });
  });

  it('each fee is rounded half-up to the cent when computed', () => {
    // Conventional 450.50: aluminium 12.5 % = 56.3125 → 56.31; metallic 10 % = 45.05; pearl 7.5 % = 33.7875 → 33.79.
    expect(onlyLine(quote({ panels: [panel({ dent: type('conventional') })], aluminium: 1, metallic: 1, pearl: 1 }))).toMatchObject({
      repair_fee: 45_050,
      aluminium_fee: 5631,
      metallic_fee: 4505,
      pearl_fee: 3379,
      line_total: 58_565,
    });
    // 1.01 at 50 % aluminium is 50.5 cents → 51.
    expect(onlyLine(quote({ panels: [panel({ part_id: 8, dent: pdr('medium') })], aluminium: 1 }))).toMatchObject({
      repair_fee: 101,
      aluminium_fee: 51,
      line_total: 152,
    });
  });

  it('rounding each fee can put a line up to 1.5 cents above the exact sum (three half cents)', () => {
    // 1 cent with aluminium 50 %, metallic 50 %, pearl 50 %: exactly 2.5 cents, priced 1 + 1 + 1 + 1 = 4.
    const half: PricingClient = { ...client, sc_metallic: 50, sc_pearl: 50 };
    const line = onlyLine(
      quote({ client: half, panels: [panel({ part_id: 8, dent: pdr('light') })], aluminium: 1, metallic: 1, pearl: 1 }),
    );
    expect(line).toMatchObject({ repair_fee: 1, aluminium_fee: 1, metallic_fee: 1, pearl_fee: 1, line_total: 4 });
  });

  it('a missing or negative surcharge counts 0', () => {
    const bare: PricingClient = { prices: client.prices, sc_metallic: null, sc_pearl: -5 };
    expect(onlyLine(quote({ client: bare, metallic: 1, pearl: 1 }))).toMatchObject({ metallic_fee: 0, pearl_fee: 0, line_total: 20_000 });
  });
});

describe('unpriced and not offered', () => {
  it("takes the wire's client record as it is (prices keyed by part id, sc_p2p 1/0)", () => {
    const prices: ClientPrices = { dent: { '7': client.prices!.dent!['7'] as ClientPrices['dent'][string] }, scratch: {} };
    const wire = {
      id: 3,
      name: 'Acme',
      currency: '$',
      calculation_method: 'T',
      sc_threshold: 1,
      sc_metallic: 10,
      sc_pearl: 0,
      sc_p2p: 0,
      prices,
    };
    expect(onlyLine(quote({ client: wire, metallic: 1 }))).toMatchObject({ status: 'priced', repair_fee: 20_000, metallic_fee: 2000 });
  });

  it('a part without a matrix row, a panel without a part or a missing cell costs 0 and says no-price', () => {
    for (const p of [panel({ part_id: 9 }), panel({ part_id: null })]) {
      expect(onlyLine(quote({ panels: [p], aluminium: 1, metallic: 1 }))).toMatchObject({ status: 'no-price', line_total: 0 });
    }
    const holey: PricingClient = { ...client, prices: { dent: { '7': { light: 100 } } } };
    expect(onlyLine(quote({ client: holey }))).toMatchObject({ status: 'no-price', repair_fee: 0 });
    expect(onlyLine(quote({ client: { ...client, prices: null } }))).toMatchObject({ status: 'no-price', repair_fee: 0 });
    // A cell of 0 is a row the client's form added and nobody priced: missing, not a free repair.
    const zero: PricingClient = { ...client, prices: { dent: { '7': { light: 0, medium: 0, heavy: 0, severe: 0, oversize: 0 } } } };
    expect(onlyLine(quote({ client: zero, aluminium: 1, metallic: 1 }))).toMatchObject({ status: 'no-price', line_total: 0 });
  });

  it('p2p is offered only when the client has sc_p2p; otherwise it is priced 0 and refused', () => {
    const noP2p: PricingClient = { ...client, sc_p2p: 0 };
    expect(offeredRepairTypes(client)).toEqual(['pdr', 'conventional', 'p2p', 'replacement']);
    expect(offeredRepairTypes(noP2p)).toEqual(['pdr', 'conventional', 'replacement']);
    expect(onlyLine(quote({ client: noP2p, panels: [panel({ dent: type('p2p') })] }))).toMatchObject({ status: 'invalid', line_total: 0 });
    expect(dentChoiceError(type('p2p'), 'heavy', noP2p)).toEqual({
      field: 'repair_type',
      message: 'Push to Paint is not offered to this client',
    });
  });

  it('pdr without a category is priced 0 and refused', () => {
    expect(onlyLine(quote({ panels: [panel({ dent: pdr(null) })] }))).toMatchObject({ status: 'invalid', line_total: 0 });
    expect(dentChoiceError(pdr(null), 'heavy', client)).toEqual({ field: 'category', message: 'Category is required' });
  });

  it('dentChoiceError accepts what the transitions produce and refuses a repair type that does not fit the damage', () => {
    expect(dentChoiceError(pdr('light'), 'heavy', client)).toBeNull(); // an edited category is the assessor's choice
    expect(dentChoiceError(type('replacement'), 'heavy', client)).toBeNull();
    expect(dentChoiceError(type(null), null, client)).toBeNull();
    expect(dentChoiceError(type(null), 'heavy', client)).toEqual({ field: 'repair_type', message: 'Repair Type is required' });
    expect(dentChoiceError(type('conventional'), null, client)).toEqual({
      field: 'repair_type',
      message: 'A panel without dents has no repair type',
    });
  });
});

describe('large variants', () => {
  const roofL = panel({ panel_id: 2, type: 'L', hasLargeVariant: true });
  const roofD = panel({ panel_id: 3, type: 'D', hasLargeVariant: true });

  it('a large-variant panel is priced only in its own vehicle type; every fee of its line is 0 otherwise', () => {
    const inD = priceQuote(quote({ panels: [roofL, roofD], vehicle_type: 'D', aluminium: 1, metallic: 1, pearl: 1 }));
    expect(inD.lines[0]).toMatchObject({ panel_id: 2, status: 'other-vehicle-type', repair_fee: 0, aluminium_fee: 0, metallic_fee: 0 });
    expect(inD.lines[0]).toMatchObject({ pearl_fee: 0, line_total: 0 });
    expect(inD.lines[1]).toMatchObject({ panel_id: 3, status: 'priced', line_total: 26_000 });
    expect(inD.totals.pdr).toBe(26_000);

    const inL = priceQuote(quote({ panels: [roofL, roofD], vehicle_type: 'L' }));
    expect(inL.lines.map((l) => [l.panel_id, l.status, l.line_total])).toEqual([
      [2, 'priced', 20_000],
      [3, 'other-vehicle-type', 0],
    ]);
    expect(onlyLine(quote({ panels: [roofL], vehicle_type: 'XL' })).line_total).toBe(0);
  });

  it('a panel without a large variant is priced in every vehicle type', () => {
    for (const vehicle_type of ['D', 'L', 'XL'] as const) {
      expect(onlyLine(quote({ panels: [panel({ type: 'D' })], vehicle_type })).line_total).toBe(20_000);
    }
    expect(panelApplies({ type: 'XL', hasLargeVariant: false }, 'D')).toBe(true);
    expect(panelApplies({ type: 'XL', hasLargeVariant: true }, 'D')).toBe(false);
  });

  it('the scratch line of a wrong-type panel costs 0 too', () => {
    const { lines } = priceQuote(quote({ panels: [{ ...roofL, scratch: 'spot' }], vehicle_type: 'D' }));
    expect(lines.map((l) => [l.kind, l.status, l.line_total])).toEqual([
      ['dent', 'other-vehicle-type', 0],
      ['scratch', 'other-vehicle-type', 0],
    ]);
  });
});

describe('scratch lines', () => {
  const scratched = (scratch: PricingPanel['scratch'], dent: DentChoice = type(null)) => panel({ dent, scratch });

  it('price spot, paint and conventional from the scratch matrix, after the dent line', () => {
    const { lines } = priceQuote(quote({ panels: [scratched('spot', pdr('light'))] }));
    expect(lines.map((l) => [l.kind, l.repair_type, l.repair_fee])).toEqual([
      ['dent', 'pdr', 10_000],
      ['scratch', 'spot', 6000],
    ]);
    expect(onlyLine(quote({ panels: [scratched('paint')] })).repair_fee).toBe(22_025);
    expect(onlyLine(quote({ panels: [scratched('conventional')] })).repair_fee).toBe(31_000);
  });

  it('metallic and pearl apply to paint only; aluminium never', () => {
    const all = { aluminium: 1, metallic: 1, pearl: 1 } as const;
    // 220.25: metallic 10 % = 22.025 → 22.03; pearl 7.5 % = 16.51875 → 16.52.
    expect(onlyLine(quote({ panels: [scratched('paint')], ...all }))).toMatchObject({
      repair_fee: 22_025,
      aluminium_fee: 0,
      metallic_fee: 2203,
      pearl_fee: 1652,
      line_total: 25_880,
    });
    for (const kind of ['spot', 'conventional'] as const) {
      const line = onlyLine(quote({ panels: [scratched(kind)], ...all }));
      expect(line.line_total).toBe(line.repair_fee);
    }
  });

  it('count in Conventional (conventional) or Scratch / Paint (spot, paint), never in Replace', () => {
    expect(onlyLine(quote({ panels: [scratched('conventional')] })).subtotal).toBe('conventional');
    expect(onlyLine(quote({ panels: [scratched('spot')] })).subtotal).toBe('paint');
    expect(onlyLine(quote({ panels: [scratched('paint')] })).subtotal).toBe('paint');
    const { totals } = priceQuote(quote({ panels: [scratched('paint'), { ...scratched('conventional'), panel_id: 2 }] }));
    expect(totals).toMatchObject({ pdr: 0, conventional: 31_000, p2p: 0, replacement: 0, paint: 22_025, sub_total: 53_025 });
  });

  it('exist only beside a pdr dent line or none: conventional, push to paint and replacement repaint the panel', () => {
    for (const repaint of ['conventional', 'p2p', 'replacement'] as const) {
      const { lines, totals } = priceQuote(quote({ panels: [scratched('spot', type(repaint))] }));
      expect(lines.map((l) => l.kind)).toEqual(['dent']);
      expect(totals.paint).toBe(0);
      expect(scratchLineAllowed(type(repaint))).toBe(false);
    }
    expect(scratchLineAllowed(pdr('light'))).toBe(true);
    expect(scratchLineAllowed(type(null))).toBe(true);
  });

  it('go when the panel is switched to a repainting repair, and come back at their default with pdr', () => {
    // Replace 1200 with metallic 120: the paint scratch (220.25 + 22.03) is not charged beside it.
    const priced = (dent: DentChoice, scratch: PricingPanel['scratch']) =>
      priceQuote(quote({ panels: [scratched(scratch, dent)], metallic: 1 })).totals;
    const before = priced(pdr('heavy'), 'paint');
    const replaced = changeRepairType('replacement', 'heavy');
    const afterScratch = scratchAfterDentChange(replaced, 'paint', 2);
    expect(afterScratch).toBeNull();
    expect(priced(replaced, afterScratch)).toMatchObject({ replacement: 132_000, paint: 0 });
    const back = changeRepairType('pdr', 'heavy');
    expect(scratchAfterDentChange(back, null, 2)).toBe('spot');
    expect(scratchAfterDentChange(back, null, 0)).toBeNull();
    expect(priced(back, 'paint')).toEqual(before);
  });

  it('a part without a scratch row, or with a scratch price of 0, is unpriced', () => {
    expect(onlyLine(quote({ panels: [panel({ part_id: 8, dent: type(null), scratch: 'spot' })] }))).toMatchObject({
      status: 'no-price',
      line_total: 0,
    });
    const zero: PricingClient = { ...client, prices: { ...client.prices, scratch: { '7': { spot: 0, paint: 0, conventional: 0 } } } };
    expect(onlyLine(quote({ client: zero, panels: [panel({ dent: type(null), scratch: 'spot' })] }))).toMatchObject({
      status: 'no-price',
      line_total: 0,
    });
  });
});

describe('totals', () => {
  const panels = [
    panel({ panel_id: 1, dent: pdr('heavy') }), // 200.00 + 25.00 + 20.00 = 245.00
    panel({ panel_id: 2, dent: pdr('light') }), // 100.00 + 12.50 + 10.00 = 122.50
    panel({ panel_id: 3, dent: type('conventional') }), // 450.50 + 56.31 + 45.05 = 551.86
    panel({ panel_id: 4, dent: type('p2p') }), // 80.00 + 10.00 + 8.00 = 98.00
    panel({ panel_id: 5, dent: type('replacement'), scratch: 'paint' }), // 1200 + 150 + 120 = 1470.00; no scratch line beside it
    panel({ panel_id: 6, dent: type(null), scratch: 'paint' }), // no dents: paint 220.25 + 22.03 = 242.28
    panel({ panel_id: 7, dent: type(null) }), // no damage: no line
  ];
  const tyres = [
    { row: 1, direction: 'L', choice: 'replace' }, // 189.90, no surcharge on a tyre
    { row: 1, direction: 'R', choice: 'recheck' }, // advisory, 0
  ] as const;

  it('per-section subtotals, products, sub-total, GST rounded once, grand total', () => {
    const { lines, totals } = priceQuote(quote({ panels, tyres, aluminium: 1, metallic: 1, products: [{ price: 49.95 }, { price: 100 }] }));
    expect(lines).toHaveLength(8);
    expect(totals).toEqual({
      pdr: 24_500 + 12_250,
      conventional: 55_186,
      p2p: 9800,
      replacement: 147_000,
      paint: 24_228,
      tyre: 18_990,
      product: 14_995,
      sub_total: 36_750 + 55_186 + 9800 + 147_000 + 24_228 + 18_990 + 14_995, // 306,949
      tax: 30_695, // 10 % of 3069.49 = 306.949 → 306.95
      grand_total: 306_949 + 30_695,
    });
  });

  it('GST uses the setting with its 4 decimals and is rounded once, on the sub-total', () => {
    // Three lines of 1.01 with 50 % aluminium: 1.52 each. GST 12.3456 % of 4.56 = 0.56295936 → 0.56.
    const three = [1, 2, 3].map((panel_id) => panel({ panel_id, part_id: 8, dent: pdr('medium') }));
    const { totals } = priceQuote(quote({ panels: three, aluminium: 1, gst_percent: 12.3456 }));
    expect(totals).toMatchObject({ pdr: 456, sub_total: 456, tax: 56, grand_total: 512 });
    // Rounded per line it would be 3 × round(18.77…) = 57.
    expect(priceQuote(quote({ gst_percent: 0 })).totals).toMatchObject({ tax: 0, grand_total: 20_000 });
  });

  it('products only, and a product whose price is not a usable number counts 0', () => {
    const { totals } = priceQuote(quote({ panels: [], products: [{ price: 10.005 }, { price: Number.NaN }, { price: -3 }] }));
    expect(totals).toEqual({
      pdr: 0,
      conventional: 0,
      p2p: 0,
      replacement: 0,
      paint: 0,
      tyre: 0,
      product: 1001,
      sub_total: 1001,
      tax: 100,
      grand_total: 1101,
    });
  });
});

describe('tyre lines', () => {
  it("price Repair and Replace from the client's tyre prices and Recheck Next Visit as an advisory line at 0", () => {
    const { lines, totals } = priceQuote(
      quote({
        panels: [],
        metallic: 1,
        pearl: 1,
        aluminium: 1,
        tyres: [
          { row: 1, direction: 'L', choice: 'repair' },
          { row: 2, direction: 'R', choice: 'replace' },
          { row: 2, direction: 'L', choice: 'recheck' },
        ],
      }),
    );
    expect(lines.map((l) => [l.panel_id, l.kind, l.repair_type, l.subtotal, l.status, l.line_total])).toEqual([
      ['tyre:1:L', 'tyre', 'repair', 'tyre', 'priced', 3500],
      ['tyre:2:R', 'tyre', 'replace', 'tyre', 'priced', 18_990],
      ['tyre:2:L', 'tyre', 'recheck', 'tyre', 'advisory', 0],
    ]);
    // Surcharges never apply to a tyre; GST does.
    for (const l of lines) expect(l.line_total).toBe(l.repair_fee);
    expect(totals).toMatchObject({ tyre: 22_490, sub_total: 22_490, tax: 2249 });
  });

  it('a tyre price of 0 or none is a missing price', () => {
    const line = (client: PricingClient) => onlyLine(quote({ client, panels: [], tyres: [{ row: 1, direction: 'L', choice: 'replace' }] }));
    expect(line({ ...client, tyre_replace: 0 })).toMatchObject({ status: 'no-price', line_total: 0 });
    expect(line({ ...client, tyre_replace: undefined })).toMatchObject({ status: 'no-price', line_total: 0 });
  });
});

describe('repair-type transitions', () => {
  it('the category example feeds the initial default: T t = 3, {light 5, heavy 2, oversize 1} starts as pdr heavy', () => {
    const computed = panelCategory({ light: 5, heavy: 2, oversize: 1 }, { method: 'T', threshold: 3 });
    expect(initialDentChoice(computed)).toEqual(pdr('heavy'));
    expect(onlyLine(quote({ panels: [panel({ dent: initialDentChoice(computed) })] })).repair_fee).toBe(20_000);
  });

  it('on first load a panel without a category has no repair type (No Damage Detected) and no line', () => {
    expect(initialDentChoice(null)).toEqual(type(null));
    expect(priceQuote(quote({ panels: [panel({ dent: initialDentChoice(null) })] })).lines).toEqual([]);
  });

  it('away from pdr clears the category and takes the type fee', () => {
    for (const [to, fee] of [
      ['conventional', 45_050],
      ['p2p', 8000],
      ['replacement', 120_000],
    ] as const) {
      const next = changeRepairType(to, 'heavy');
      expect(next).toEqual(type(to));
      expect(onlyLine(quote({ panels: [panel({ dent: next })] })).repair_fee).toBe(fee);
    }
    expect(changeRepairType('replacement', 'heavy')).toEqual(type('replacement'));
  });

  it('to pdr sets the computed category and its fee (a category edited before leaving pdr is not kept)', () => {
    expect(changeCategory(pdr('heavy'), 'light')).toEqual(pdr('light'));
    expect(changeRepairType('replacement', 'heavy')).toEqual(type('replacement'));
    const back = changeRepairType('pdr', 'heavy');
    expect(back).toEqual(pdr('heavy'));
    expect(onlyLine(quote({ panels: [panel({ dent: back })] })).repair_fee).toBe(20_000);
  });

  it('a category edit changes the pdr fee; other types have no category to edit', () => {
    const edited = changeCategory(pdr('heavy'), 'oversize');
    expect(edited).toEqual(pdr('oversize'));
    expect(onlyLine(quote({ panels: [panel({ dent: edited })] })).repair_fee).toBe(30_000);
    const conventional = type('conventional');
    expect(changeCategory(conventional, 'light')).toBe(conventional);
  });

  it('a panel without dents has no repair type to change', () => {
    expect(changeRepairType('conventional', null)).toEqual(type(null));
  });

  it('editing the damage counts recomputes a pdr category, keeps another type, starts or clears the choice', () => {
    expect(recountDents(pdr('light'), 'severe')).toEqual(pdr('severe')); // an edited category gives way too
    expect(recountDents(type('conventional'), 'severe')).toEqual(type('conventional'));
    expect(recountDents(type(null), 'medium')).toEqual(pdr('medium'));
    expect(recountDents(pdr('heavy'), null)).toEqual(type(null));
    expect(recountDents(type('replacement'), null)).toEqual(type(null));
    expect(onlyLine(quote({ panels: [panel({ dent: recountDents(pdr('light'), 'severe') })] })).repair_fee).toBe(25_000);
  });

  it('a scratch line starts at spot, keeps its type while scratches remain and goes with the last one', () => {
    expect(initialScratchRepair(0)).toBeNull();
    expect(initialScratchRepair(3)).toBe('spot');
    expect(recountScratches('paint', 2)).toBe('paint');
    expect(recountScratches('paint', 0)).toBeNull();
    expect(recountScratches(null, 1)).toBe('spot');
  });
});
