import { describe, expect, it } from 'vitest';
import {
  cropCanvasSize,
  lookupVehicle,
  plateOptions,
  formatValuation,
  mergeLiveUpdate,
  panelDamages,
  panelDetections,
  panelLabelOf,
  parseCount,
  parseRecipients,
  sketchGroups,
  treadLimitsOf,
  treadOf,
  tyreChartPoints,
  tyreRows,
  DEFAULT_TREAD_LIMITS,
  worstLevel,
  CROP_MAX_AREA,
  TYRE_EDGE_FILL,
} from './scan-view';
import type { ScanDetail } from './records';

const zero = { light: 0, medium: 0, heavy: 0, severe: 0, oversize: 0 };

describe('panels on the sketch', () => {
  const measures: ScanDetail['measures'] = {
    dents: { bonnet: { ...zero, medium: 2, oversize: 1 }, roof: zero },
    scratchs: { left_front_door: { ...zero, light: 3 } },
    damage_count: { bonnet: 3, left_front_door: 3 },
  };

  it('lists damaged panels with their totals, leaving panels counted at zero out', () => {
    expect(panelDamages(measures).map((p) => [p.carPanel, p.dentTotal, p.scratchTotal])).toEqual([
      ['bonnet', 3, 0],
      ['left_front_door', 0, 3],
    ]);
  });

  it('marks a panel by its worst level', () => {
    expect(worstLevel({ ...zero, medium: 2, oversize: 1 })).toBe('oversize');
    expect(worstLevel({ ...zero, light: 1 })).toBe('light');
    expect(worstLevel(zero)).toBeNull();
  });

  it("places damaged panels on their groups' drawings in position order, once per view; unplaced panels last", () => {
    const panel = (carPanel: string, label: string, position: number) => ({
      id: position,
      name: label,
      label,
      carPanel,
      type: 'D',
      position,
      dent_count: 0,
      scratch_count: 0,
    });
    const group = (id: number, name: string, position: number, panels: ReturnType<typeof panel>[]) => ({
      id,
      name,
      image: `/${name}.png`,
      position,
      dent_total: 0,
      scratch_total: 0,
      dents: zero,
      scratchs: zero,
      panels,
    });
    const sketch = sketchGroups({
      scan_id: 1,
      type: 'arch',
      countbymeasure: {
        dents: { bonnet: { ...zero, light: 1 }, left_front_guard: { ...zero, heavy: 1 }, odd_panel: { ...zero, light: 1 }, roof: zero },
        scratchs: {},
        damage_count: {},
      },
      panel_groups: [
        group(3, 'Left', 3, [panel('left_front_guard', 'Left Front Guard', 1)]),
        group(1, 'Front', 1, [panel('left_front_guard', 'Left Front Guard', 2), panel('bonnet', 'Bonnet', 1), panel('roof', 'Roof', 3)]),
        group(5, 'Top', 5, [panel('roof', 'Roof', 1), panel('roof', 'Roof (Large)', 2)]),
      ],
      unplaced: ['odd_panel'],
    });
    expect(sketch.map((g) => [g.group?.name ?? null, g.panels.map((p) => p.label)])).toEqual([
      ['Front', ['Bonnet', 'Left Front Guard']],
      ['Left', ['Left Front Guard']],
      ['Top', []],
      [null, ['Odd Panel']],
    ]);
    expect(sketch[0].panels[1].dents.heavy).toBe(1);
    expect(panelLabelOf('left_rear_quarter')).toBe('Left Rear Quarter');
  });

  it("filters a panel's detections by kind", () => {
    const d = (id: number, type: string, carPanel: string) =>
      ({
        id,
        type,
        carPanel,
        damage_id: `d${id}`,
        src: null,
        path: null,
        level: 'light',
        width_mm: 1,
        height_mm: 1,
        data: [],
      }) as ScanDetail['damages'][number];
    const damages = [d(1, 'dents', 'bonnet'), d(2, 'scratchs', 'bonnet'), d(3, 'dents', 'roof')];
    expect(panelDetections(damages, 'bonnet', 'all')).toMatchObject({ dents: [{ id: 1 }], scratchs: [{ id: 2 }] });
    expect(panelDetections(damages, 'bonnet', 'dents')).toMatchObject({ dents: [{ id: 1 }], scratchs: [] });
    expect(panelDetections(damages, 'bonnet', 'scratchs')).toMatchObject({ dents: [], scratchs: [{ id: 2 }] });
  });

  it('takes counts of 0 to 999 only', () => {
    expect(parseCount('0')).toBe(0);
    expect(parseCount(' 12 ')).toBe(12);
    expect(parseCount('999')).toBe(999);
    for (const bad of ['', '-1', '1000', '1.5', 'a', '1e2']) expect(parseCount(bad)).toBeNull();
  });
});

describe('valuation', () => {
  it('shows whole dollars with thousands separators and $', () => {
    expect(formatValuation(25750)).toBe('$25,750');
    expect(formatValuation('1,234,567')).toBe('$1,234,567');
    expect(formatValuation(1234567, 'ja')).toBe('$1,234,567');
    expect(formatValuation(null)).toBe('');
    expect(formatValuation('')).toBe('');
  });
});

describe('tyres', () => {
  const t = (row: number, direction: string, position: string, depths: number[]) =>
    ({
      id: row * 10 + (direction === 'L' ? 0 : 2) + (position === 'I' ? 0 : 1),
      row,
      direction,
      position,
      label: `${row} ${direction}`,
      depths,
      measurementImageUrl: null,
      imageFileUrl: null,
      coordinates: null,
      conclusionDescription: { eatenTire: 'NONE', pressureTire: 'NONE' },
    }) as ScanDetail['data'][number];

  it('groups profiles into axles with left and right wheels, inner and outer', () => {
    const rows = tyreRows([t(2, 'R', 'O', [1]), t(1, 'L', 'I', [2]), t(1, 'L', 'O', [3]), t(2, 'L', 'I', [4])]);
    expect(rows.map((r) => r.row)).toEqual([1, 2]);
    expect(rows[0].left.inner?.depths).toEqual([2]);
    expect(rows[0].left.outer?.depths).toEqual([3]);
    expect(rows[0].right).toEqual({ label: 'FRONT RIGHT', inner: null, outer: null });
    expect(rows[1].right.outer?.depths).toEqual([1]);
  });

  it('fills both edges of the depth chart with 30', () => {
    const points = tyreChartPoints([7, 6], [5]);
    expect(points).toEqual([
      { x: 0, inner: TYRE_EDGE_FILL, outer: TYRE_EDGE_FILL },
      { x: 1, inner: 7, outer: 5 },
      { x: 2, inner: 6, outer: null },
      { x: 3, inner: TYRE_EDGE_FILL, outer: TYRE_EDGE_FILL },
    ]);
    expect(tyreChartPoints([], undefined)).toEqual([]);
    expect(tyreChartPoints([1], [])[0]).toEqual({ x: 0, inner: TYRE_EDGE_FILL, outer: null });
  });

  it("takes a wheel's shallowest depth over both profiles and rates it against the legal and the recommended minimum", () => {
    const limits = { legal: 1.6, recommended: 3 };
    const wheel = (inner: number[] | null, outer: number[] | null) => ({
      label: 'FRONT LEFT',
      inner: inner && t(1, 'L', 'I', inner),
      outer: outer && t(1, 'L', 'O', outer),
    });
    expect(treadOf(wheel([7.1, 6.4], [5.2, 6]), limits)).toEqual({ min: 5.2, status: 'ok' });
    expect(treadOf(wheel([7.1, 2.9], null), limits)).toEqual({ min: 2.9, status: 'replace_soon' });
    expect(treadOf(wheel(null, [4, 1.5]), limits)).toEqual({ min: 1.5, status: 'illegal' });
    // A depth exactly at a limit meets it.
    expect(treadOf(wheel([1.6], [3]), limits)).toEqual({ min: 1.6, status: 'replace_soon' });
    expect(treadOf(wheel([3], []), limits)?.status).toBe('ok');
    expect(treadOf(wheel([], null), limits)).toBeNull();
    expect(treadOf(wheel(null, null), limits)).toBeNull();
  });

  it('reads the limits from the settings, falling back to 1.5 and 3 mm', () => {
    expect(DEFAULT_TREAD_LIMITS).toEqual({ legal: 1.5, recommended: 3 });
    expect(treadLimitsOf({ TYRE_LEGAL_MIN_MM: '1.6', TYRE_RECOMMENDED_MIN_MM: '4' })).toEqual({ legal: 1.6, recommended: 4 });
    expect(treadLimitsOf({})).toEqual(DEFAULT_TREAD_LIMITS);
    expect(treadLimitsOf({ TYRE_LEGAL_MIN_MM: 'x', TYRE_RECOMMENDED_MIN_MM: ' ' })).toEqual(DEFAULT_TREAD_LIMITS);
  });
});

describe('crop canvas', () => {
  it('keeps a small crop as it is and scales a large one to at most 1,048,576 pixels, keeping its shape', () => {
    expect(cropCanvasSize(800, 600)).toEqual({ width: 800, height: 600, scale: 1 });
    const big = cropCanvasSize(4000, 3000);
    expect(big.width * big.height).toBeLessThanOrEqual(CROP_MAX_AREA);
    expect(big.width * big.height).toBeGreaterThan(CROP_MAX_AREA * 0.99);
    expect(Math.abs(big.width / big.height - 4 / 3)).toBeLessThan(0.01);
  });
});

describe('recipients', () => {
  it('lower-cases, splits, removes duplicates and names the invalid ones', () => {
    expect(parseRecipients('Ann@Example.com, bob@example.com; ann@example.com  nope')).toEqual({
      valid: ['ann@example.com', 'bob@example.com'],
      invalid: ['nope'],
    });
    expect(parseRecipients('  ')).toEqual({ valid: [], invalid: [] });
    expect(parseRecipients('a@b').invalid).toEqual(['a@b']);
  });
});

describe('live updates', () => {
  it('refresh every field the event carries except those being edited', () => {
    const scan = { id: 1, make: 'Toyota', model: 'Camry', client_id: 1, client_name: 'A', status: 'ready' };
    const event = { id: 1, make: 'Mazda', model: 'CX-5', client_id: 2, client_name: 'B', status: 'uploaded', extra: 1 };
    expect(mergeLiveUpdate(scan, event, new Set(['model', 'client_id']))).toEqual({
      id: 1,
      make: 'Mazda',
      model: 'Camry',
      client_id: 1,
      client_name: 'A',
      status: 'uploaded',
    });
  });
});

describe('plate lookup', () => {
  it('offers each registration of a search reply once, at most 10', () => {
    const p = (number: string) => ({ number, state: null, make: null, model: null });
    expect(plateOptions([p('ABC1'), p('ABC2'), p('ABC1')])).toEqual(['ABC1', 'ABC2']);
    expect(plateOptions(Array.from({ length: 12 }, (_, i) => p(`P${i}`)))).toHaveLength(10);
  });
  it('fills make, model, colour, body type and valuation from a lookup record; what it lacks stays', () => {
    expect(
      lookupVehicle({
        number: '1AB2CD',
        state: 'VIC',
        ag_response: { colour: 'Silver', make: 'Toyota', model: 'Corolla', vehicle: { body_type: 'Hatchback' } },
        valuation_response: { price: 18500.4 },
      }),
    ).toEqual({ make: 'Toyota', model: 'Corolla', carColor: 'Silver', body_type: 'Hatchback', valuation: 18500 });
    expect(
      lookupVehicle({
        number: '1AB2CD',
        state: null,
        ag_response: { colour: null, make: ' ', model: null, vehicle: { body_type: null } },
        valuation_response: { price: null },
      }),
    ).toEqual({});
  });
});
