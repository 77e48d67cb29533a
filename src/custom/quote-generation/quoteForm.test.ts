import { describe, expect, it } from 'vitest';
import type { PricingClient } from '../../domain/pricing';
import {
  addProductRow,
  chooseProduct,
  DUPLICATE_PRODUCT,
  formErrors,
  groupByView,
  initialForm,
  isImageFile,
  normaliseParts,
  onePerCarPanel,
  partId,
  pricingOf,
  productPriceError,
  quoteBody,
  recountPanels,
  quoteFields,
  removeProductRow,
  setCategory,
  setLargeVehicle,
  setRepairType,
  setScratchRepair,
  setToggle,
  splitByDamage,
  visiblePanels,
  type QuotePanel,
} from './quoteForm';

const panel = (over: Partial<QuotePanel> & Pick<QuotePanel, 'id'>): QuotePanel => ({
  panel_group_id: 1,
  label: `Panel ${over.id}`,
  carPanel: `panel_${over.id}`,
  part_id: 7,
  type: 'D',
  hasLargeVariant: false,
  thresholdCategory: 'heavy',
  ...over,
});

const bonnet = panel({ id: 1, carPanel: 'bonnet' });
const clean = panel({ id: 2, carPanel: 'roof', thresholdCategory: null });
const roofL = panel({ id: 3, carPanel: 'roof_l', type: 'L', hasLargeVariant: true, panel_group_id: 2 });
const roofD = panel({ id: 4, carPanel: 'roof_d', type: 'D', hasLargeVariant: true, panel_group_id: 2 });
const panels = [bonnet, clean, roofL, roofD];
const measures = {
  dents: { bonnet: { light: 2, heavy: 1 }, roof_l: { heavy: 1 }, roof_d: { heavy: 1 } },
  scratchs: { bonnet: { light: 1 } },
};

const client: PricingClient = {
  sc_metallic: 10,
  sc_pearl: 0,
  sc_p2p: 0,
  prices: {
    dent: {
      '7': { light: 100, medium: 150, heavy: 200, severe: 250, oversize: 300, p2p: 80, aluminium: 10, conventional: 400, replacement: 900 },
    },
    scratch: { '7': { spot: 50, paint: 120, conventional: 300 } },
  },
};

describe('the form on entry', () => {
  it('starts a damaged panel at pdr with its category, an undamaged one with no repair type, scratches at spot', () => {
    const form = initialForm(panels, measures);
    expect(form.panels['1']).toEqual({ dent: { repair_type: 'pdr', category: 'heavy' }, scratch: 'spot' });
    expect(form.panels['2']).toEqual({ dent: { repair_type: null, category: null }, scratch: null });
    expect(form.vehicle_type).toBe('D');
    expect(form.products).toEqual([{ value: '', text: '', price: '' }]);
  });

  it("loads an existing quote's choices where they fit the panels", () => {
    const form = initialForm(panels, measures, {
      metallic: 1,
      pearl: 0,
      aluminium: true,
      vehicle_type: 'XL',
      items: {
        '1': { repair_type: 'pdr', category: 'severe', scratch_repair_type: 'paint' },
        // An undamaged panel cannot carry a repair type.
        '2': { repair_type: 'conventional' },
        '3': { repair_type: 'replacement', category: 'light' },
      },
      products: [{ value: 5, text: 'Wax', price: 12.5 }],
      parts: ['  Mirror ', 'mirror', ''],
      assessor_comments: 'Hail',
      manual_check: 1,
    });
    expect(form).toMatchObject({
      metallic: true,
      pearl: false,
      aluminium: true,
      vehicle_type: 'XL',
      assessor_comments: 'Hail',
      manual_check: true,
    });
    expect(form.panels['1']).toEqual({ dent: { repair_type: 'pdr', category: 'severe' }, scratch: 'paint' });
    expect(form.panels['2'].dent.repair_type).toBeNull();
    expect(form.panels['3'].dent).toEqual({ repair_type: 'replacement', category: null });
    expect(form.products).toEqual([{ value: '5', text: 'Wax', price: '12.5' }]);
    expect(form.parts).toEqual(['Mirror']);
  });
});

describe('toggles and panels', () => {
  it('Lg and XL are exclusive; turning the chosen one off goes back to D', () => {
    let form = initialForm(panels, measures);
    form = setLargeVehicle(form, 'L', true);
    expect(form.vehicle_type).toBe('L');
    form = setLargeVehicle(form, 'XL', true);
    expect(form.vehicle_type).toBe('XL');
    expect(setLargeVehicle(form, 'L', false).vehicle_type).toBe('XL');
    expect(setLargeVehicle(form, 'XL', false).vehicle_type).toBe('D');
  });

  it('a large-variant panel shows only in its own vehicle type', () => {
    expect(visiblePanels(panels, 'D').map((p) => p.id)).toEqual([1, 2, 4]);
    expect(visiblePanels(panels, 'L').map((p) => p.id)).toEqual([1, 2, 3]);
  });

  it('groups panels by car view in position order, leaving out empty views', () => {
    const groups = [
      { id: 2, name: 'Top', position: 5 },
      { id: 1, name: 'Front', position: 1 },
      { id: 9, name: 'Rear', position: 2 },
    ];
    expect(groupByView(panels, groups).map((g) => [g.group.name, g.panels.map((p) => p.id)])).toEqual([
      ['Front', [1, 2]],
      ['Top', [3, 4]],
    ]);
  });

  describe('damaged panels first', () => {
    const groups = [
      { id: 1, name: 'Front', position: 1 },
      { id: 2, name: 'Top', position: 5 },
    ];
    const hood = panel({ id: 5, carPanel: 'hood', thresholdCategory: null });
    const sill = panel({ id: 6, carPanel: 'sill', thresholdCategory: null, panel_group_id: 2 });
    const shown = [bonnet, clean, hood, roofD, sill];
    const names = (views: { group: { name: string }; panels: readonly QuotePanel[] }[]) =>
      views.map((v) => [v.group.name, v.panels.map((p) => p.id)]);

    it('lists each view with its dented or scratched panels, then each view with the rest and their count', () => {
      const views = groupByView(shown, groups);
      // Scratches alone make a panel damaged.
      const scratched = { ...measures, scratchs: { ...measures.scratchs, sill: { light: 1 } } };
      const split = splitByDamage(views, scratched, initialForm(shown, scratched));
      expect(names(split.damaged)).toEqual([
        ['Front', [1]],
        ['Top', [4, 6]],
      ]);
      expect(names(split.undamaged)).toEqual([['Front', [2, 5]]]);
      expect(split.undamagedCount).toBe(2);
    });

    it('keeps a priced panel or one the assessor changed among the damaged ones, whatever its counts say', () => {
      const views = groupByView(shown, groups);
      const form = initialForm(shown, measures);
      // A saved quote's line on a panel the counts no longer show damaged.
      const priced = {
        ...form,
        panels: { ...form.panels, '2': { dent: { repair_type: 'conventional' as const, category: null }, scratch: null } },
      };
      expect(names(splitByDamage(views, measures, priced).damaged)).toEqual([
        ['Front', [1, 2]],
        ['Top', [4]],
      ]);
      // The damage modal took a panel's dents to none: it stays where the assessor left it.
      const split = splitByDamage(views, { ...measures, dents: {} }, form, new Set([4]));
      expect(names(split.damaged)).toEqual([
        ['Front', [1]],
        ['Top', [4]],
      ]);
      expect(split.undamagedCount).toBe(3);
    });

    it('has no damaged part when nothing is damaged', () => {
      const split = splitByDamage(groupByView([clean, hood], groups), {}, initialForm([clean, hood], {}));
      expect(split.damaged).toEqual([]);
      expect(split.undamagedCount).toBe(2);
    });
  });

  it('repair type and category changes follow the dent-choice transitions and reprice', () => {
    let form = initialForm(panels, measures);
    const price = () => pricingOf(form, visiblePanels(panels, form.vehicle_type), client, 10);
    // bonnet pdr heavy 200 + spot 50; roof (D variant) pdr heavy 200.
    // The spot scratch is Scratch / Paint work, never Replace.
    expect(price().totals).toMatchObject({ pdr: 40_000, paint: 5_000, replacement: 0, sub_total: 45_000, tax: 4_500, grand_total: 49_500 });
    form = setScratchRepair(form, bonnet, 'paint');
    expect(price().totals.paint).toBe(12_000);
    // Conventional repaints the panel: its scratch line goes, and the totals drop by exactly its amount.
    form = setRepairType(form, bonnet, 'conventional', 1);
    expect(form.panels['1']).toEqual({ dent: { repair_type: 'conventional', category: null }, scratch: null });
    expect(price().totals).toMatchObject({ conventional: 40_000, pdr: 20_000, paint: 0, sub_total: 60_000 });
    form = setRepairType(form, bonnet, 'replacement', 1);
    expect(form.panels['1'].scratch).toBeNull();
    // Back to pdr: the scratch line returns at its default (spot).
    form = setRepairType(form, bonnet, 'pdr', 1);
    expect(form.panels['1']).toEqual({ dent: { repair_type: 'pdr', category: 'heavy' }, scratch: 'spot' });
    expect(price().totals.paint).toBe(5_000);
    form = setCategory(form, bonnet, 'light');
    expect(price().totals.pdr).toBe(10_000 + 20_000);
    form = setToggle(form, 'metallic', true);
    // 10 % on each dent line (100 → 10, 200 → 20); spot scratches take no metallic.
    expect(price().totals.pdr).toBe(11_000 + 22_000);
    form = setToggle(form, 'aluminium', true);
    expect(price().totals.pdr).toBe(12_000 + 24_000);
  });
});

describe('products', () => {
  const wax = { value: '5', text: 'Wax', price: 20 };
  it('refuses the same product twice with the rule message', () => {
    let rows = chooseProduct([{ value: '', text: '', price: '' }], 0, wax).rows;
    expect(rows).toEqual([{ value: '5', text: 'Wax', price: '20' }]);
    rows = addProductRow(rows);
    const second = chooseProduct(rows, 1, wax);
    expect(second.error).toBe(DUPLICATE_PRODUCT);
    expect(second.rows[1].value).toBe('');
    // Choosing it again on its own row is no duplicate.
    expect(chooseProduct(rows, 0, wax).error).toBeNull();
  });

  it('keeps at least one row', () => {
    const one = [{ value: '', text: '', price: '' }];
    expect(removeProductRow(one, 0)).toEqual(one);
    expect(removeProductRow(addProductRow(one), 1)).toHaveLength(1);
  });

  it('needs a price of at least 0 on a chosen row', () => {
    expect(productPriceError({ value: '5', text: 'Wax', price: '' })).toBe('required');
    expect(productPriceError({ value: '5', text: 'Wax', price: '-1' })).toBe('min');
    expect(productPriceError({ value: '5', text: 'Wax', price: '0' })).toBeNull();
    expect(productPriceError({ value: '', text: '', price: '' })).toBeNull();
    const form = { ...initialForm(panels, measures), products: [{ value: '5', text: 'Wax', price: '-3' }] };
    expect(formErrors(form)).toEqual({ products: 'price' });
  });
});

describe('parts and photo', () => {
  it('trims, drops empty names and keeps one per lower-cased id', () => {
    expect(normaliseParts([' Left Mirror ', 'left mirror', '   ', 'Wiper'])).toEqual(['Left Mirror', 'Wiper']);
    expect(partId('  Left Mirror ')).toBe('left mirror');
  });

  it('accepts image files only', () => {
    expect(isImageFile({ type: 'image/png' })).toBe(true);
    expect(isImageFile({ type: 'application/pdf' })).toBe(false);
    expect(isImageFile({ type: '' })).toBe(false);
  });
});

describe('the body of POST quotes', () => {
  it('sends the choices and the 0/1 toggles as multipart, never a figure: the server prices them', () => {
    let form = initialForm(panels, measures);
    form = setToggle(form, 'metallic', true);
    form = {
      ...form,
      products: [
        { value: '5', text: 'Wax', price: '20.5' },
        { value: '', text: '', price: '' },
      ],
      parts: [' Mirror '],
    };
    const shown = visiblePanels(panels, form.vehicle_type);
    expect(pricingOf(form, shown, client, 10).lines.length).toBeGreaterThan(0);
    const photo = new File(['x'], 'car.png', { type: 'image/png' });
    const body = quoteBody(form, { scanId: 42, clientId: 3, scanType: 'arch', panels, photo, withManualCheck: false });
    expect(body.get('scan_id')).toBe('42');
    expect(body.get('client_id')).toBe('3');
    expect(body.get('type')).toBe('arch');
    expect(body.get('metallic')).toBe('1');
    expect(body.get('pearl')).toBe('0');
    expect(body.get('vehicle_type')).toBe('D');
    expect(body.get('manual_check')).toBeNull();
    expect((body.get('vehicle_photo') as File).name).toBe('car.png');
    expect(JSON.parse(body.get('products') as string)).toEqual([{ value: '5', text: 'Wax', price: 20.5 }]);
    expect(JSON.parse(body.get('parts') as string)).toEqual(['Mirror']);
    const items = JSON.parse(body.get('items') as string) as Record<string, Record<string, unknown>>;
    expect(Object.keys(items).sort()).toEqual(['1', '3', '4']);
    expect(items['1']).toEqual({ repair_type: 'pdr', category: 'heavy', scratch_repair_type: 'spot' });
    for (const item of Object.values(items)) expect(Object.keys(item).sort()).toEqual(['category', 'repair_type', 'scratch_repair_type']);
    const withCheck = quoteBody(
      { ...form, manual_check: true },
      { scanId: 42, clientId: 3, scanType: 'arch', panels, photo: null, withManualCheck: true },
    );
    expect(withCheck.get('manual_check')).toBe('1');
    expect(withCheck.get('vehicle_photo')).toBeNull();
  });
});

describe('after the damage modal changed counts', () => {
  it('moves only the edited panels, by the engine’s recount rules', () => {
    let form = initialForm(panels, measures);
    form = setCategory(form, bonnet, 'oversize'); // an assessor's edit on a panel the modal does not touch
    form = setRepairType(form, roofL, 'conventional', 0);
    const after = {
      dents: { bonnet: { light: 2, heavy: 1 }, roof: { medium: 2 }, roof_l: { heavy: 3 }, roof_d: {} },
      scratchs: { bonnet: { light: 1 }, roof: { light: 1 } },
    };
    const recounted = [
      bonnet,
      { ...clean, thresholdCategory: 'medium' as const },
      { ...roofL, thresholdCategory: 'severe' as const },
      { ...roofD, thresholdCategory: null },
    ];
    const next = recountPanels(form, recounted, measures, after);
    // Untouched: the bonnet keeps the edited category.
    expect(next.panels['1']).toEqual(form.panels['1']);
    // A clean panel that got dents and scratches starts at pdr with its new category and a spot line.
    expect(next.panels['2']).toEqual({ dent: { repair_type: 'pdr', category: 'medium' }, scratch: 'spot' });
    // Another repair type is kept; a panel left without dents has none.
    expect(next.panels['3'].dent).toEqual({ repair_type: 'conventional', category: null });
    expect(next.panels['4']).toEqual({ dent: { repair_type: null, category: null }, scratch: null });
    // Nothing changed: the same form.
    expect(recountPanels(form, panels, measures, measures)).toBe(form);
  });
});

describe('the scan page variant (JSON)', () => {
  it('sends the same fields as plain values: items as an object, flags as 0/1, manual_check only when offered', () => {
    const form = { ...initialForm(panels, measures), aluminium: true, products: [{ value: '5', text: 'Wax', price: '12' }] };
    const shown = visiblePanels(panels, form.vehicle_type);
    const fields = quoteFields(form, { scanId: 42, clientId: 3, scanType: 'chasis', panels: shown, withManualCheck: false });
    expect(fields).toMatchObject({ scan_id: 42, client_id: 3, type: 'chasis', metallic: 0, aluminium: 1, vehicle_type: 'D' });
    expect(fields).not.toHaveProperty('manual_check');
    expect(fields.products).toEqual([{ value: '5', text: 'Wax', price: 12 }]);
    expect(Object.keys(fields.items).sort()).toEqual(['1', '4']);
    expect(fields.items['1']).toEqual({ repair_type: 'pdr', category: 'heavy', scratch_repair_type: 'spot' });
    // The multipart variant carries the very same values.
    const body = quoteBody(form, {
      scanId: 42,
      clientId: 3,
      scanType: 'chasis',
      panels: shown,
      photo: null,
      withManualCheck: false,
    });
    expect(JSON.parse(body.get('items') as string)).toEqual(fields.items);
  });

  it("quotes a car panel shown in two car views once: the saved quote's panel, else the first", () => {
    const front = panel({ id: 10, carPanel: 'left_front_guard', panel_group_id: 1 });
    const left = panel({ id: 11, carPanel: 'left_front_guard', panel_group_id: 3 });
    const loose = panel({ id: 12, carPanel: null });
    expect(onePerCarPanel([front, bonnet, left, loose]).map((p) => p.id)).toEqual([10, 1, 12]);
    expect(onePerCarPanel([front, bonnet, left, loose], new Set(['11'])).map((p) => p.id)).toEqual([1, 11, 12]);
  });
});
