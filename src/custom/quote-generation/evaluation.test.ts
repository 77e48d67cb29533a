import { describe, expect, it } from 'vitest';
import { anEvaluationClient, aScan } from '../../test/builders';
import type { EvaluationReply } from '../../domain/records';
import { partOptions, previewGstPercent, productOptions, repricedSince, savedPricing, toEvaluation, toSavedQuote } from './evaluation';

describe('reading the replies the quote screen starts from', () => {
  it('takes the panels, the client and the scan of GET scans/{id}/evaluate; no client means nothing to quote', () => {
    const levels = { light: 0, medium: 0, heavy: 0, severe: 0, oversize: 0 };
    const reply: EvaluationReply = {
      measures: { dents: { bonnet: { ...levels, heavy: 1 } }, scratchs: {}, damage_count: { dents: { bonnet: 1 }, scratchs: {} } },
      client: anEvaluationClient({
        name: 'C',
        currency: '¥',
        sc_pearl: 0,
        products: [11],
        parts: [21],
        thresholdCategory: { bonnet: 'heavy' },
      }),
      panels: [
        {
          id: 1,
          name: 'bonnet',
          label: 'Bonnet',
          car_panel: 'bonnet',
          type: 'L',
          hasLargeVariant: true,
          part_id: 7,
          panel_group_id: 2,
          panel_group_name: 'Front',
          position: 1,
          thresholdCategory: 'heavy',
        },
        {
          id: 2,
          name: 'Roof',
          label: '',
          car_panel: '',
          type: 'D',
          hasLargeVariant: false,
          part_id: null,
          panel_group_id: 5,
          panel_group_name: null,
          position: 2,
          thresholdCategory: null,
        },
      ],
      scanInfo: aScan({ id: 42, licensePlate: 'X', agent_id: 1, agent_name: 'A', client_name: 'C' }),
      tyres: [{ row: 1, direction: 'L', label: 'FRONT LEFT', repair_type: 'replace' }],
      gst_percent: 12.5,
      comparison: null,
      new_damage_only: false,
      pre_existing: [],
      partly_pre_existing: [],
    };
    const evaluation = toEvaluation(reply)!;
    expect(evaluation.panels).toEqual([
      {
        id: 1,
        panel_group_id: 2,
        label: 'Bonnet',
        carPanel: 'bonnet',
        part_id: 7,
        type: 'L',
        hasLargeVariant: true,
        thresholdCategory: 'heavy',
      },
      // No label: the panel's name; no car panel: none.
      {
        id: 2,
        panel_group_id: 5,
        label: 'Roof',
        carPanel: null,
        part_id: null,
        type: 'D',
        hasLargeVariant: false,
        thresholdCategory: null,
      },
    ]);
    expect(evaluation.scan).toEqual({
      id: 42,
      type: 'arch',
      licensePlate: 'X',
      timestamp: '2024-05-31T07:30:00.000Z',
      agent_id: 1,
      agent_name: 'A',
      client_name: 'C',
    });
    expect(evaluation.measures).toBe(reply.measures);
    expect(evaluation.client).toMatchObject({ id: 3, currency: '¥', sc_p2p: true });
    expect(evaluation.productIds).toEqual(['11']);
    expect(evaluation.partIds).toEqual(['21']);
    expect(evaluation.gstPercent).toBe(12.5);
    expect(evaluation.tyres).toEqual([{ row: 1, direction: 'L', label: 'FRONT LEFT', choice: 'replace' }]);
    expect(toEvaluation({ ...reply, client: null })).toBeNull();
  });

  it("offers the client's products (with the catalogue price) and parts only", () => {
    const lists = [
      { text: 'Wax', value: 11, price: 20 },
      { text: 'Tyres', value: 12, price: 9 },
    ];
    expect(productOptions(lists, ['11'])).toEqual([{ value: '11', text: 'Wax', price: 20 }]);
    expect(
      partOptions(
        [
          { text: 'Bonnet', value: 21 },
          { text: 'Roof', value: 22 },
        ],
        ['22'],
      ),
    ).toEqual(['Roof']);
  });

  it("reads the saved quote's parts and scratch lines as the form keeps them; none is null", () => {
    const saved = toSavedQuote({
      id: 9,
      items: { '1': { repair_type: 'pdr', category: 'light', scratch: { repair_type: 'paint' } } },
      parts: [{ text: 'Wiper', value: 'wiper' }],
      gst_percent: 12.5,
      comparison: null,
      new_damage_only: false,
      pre_existing: [],
      partly_pre_existing: [],
    })!;
    expect(saved.items).toEqual({ '1': { repair_type: 'pdr', category: 'light', scratch_repair_type: 'paint' } });
    expect(saved.parts).toEqual(['Wiper']);
    expect(toSavedQuote(null)).toBeNull();
    expect(previewGstPercent({ gstPercent: null }, saved)).toBe(12.5);
    expect(previewGstPercent({ gstPercent: 15 }, saved)).toBe(15);
    expect(previewGstPercent({ gstPercent: null }, null)).toBe(10);
  });
});

describe('repricedSince', () => {
  const now = {
    pdr: 24000,
    conventional: 0,
    p2p: 0,
    replacement: 0,
    paint: 5000,
    tyre: 0,
    product: 0,
    sub_total: 29000,
    tax: 2900,
    grand_total: 31900,
  };
  const saved = (over: Record<string, number> = {}) => ({
    grant_total: 319,
    totals: {
      pdr: 240,
      conventional: 0,
      p2p: 0,
      replacement: 0,
      paint: 50,
      tyre: 0,
      product: 0,
      sub_total: 290,
      tax: 29,
      grant_total: 319,
      ...over,
    },
  });

  it('is false while every figure is as saved', () => {
    expect(repricedSince(saved(), now)).toBe(false);
  });

  it('is true when an amount moved between sections and the grand total stayed', () => {
    expect(repricedSince(saved({ pdr: 200, paint: 90 }), now)).toBe(true);
  });

  it('is true when the grand total changed, and reads the grand total alone from a quote without its sections', () => {
    expect(repricedSince(saved({ grant_total: 320 }), now)).toBe(true);
    expect(repricedSince({ grant_total: 319 }, now)).toBe(false);
    expect(repricedSince({ grant_total: 300 }, now)).toBe(true);
  });
});

describe('savedPricing', () => {
  const fees = { repair_fee: 100, aluminium_fee: 0, metalic_fee: 0, pearl_fee: 0, lineTotal: 100, status: 'priced' };
  const reply = {
    items: {
      '2': {
        panel_id: 2,
        label: 'Roof',
        repair_type: null,
        category: null,
        ...{ status: null, repair_fee: 0, aluminium_fee: 0, metalic_fee: 0, pearl_fee: 0, lineTotal: 0 },
        scratch: { repair_type: 'paint', ...fees, lineTotal: 60, repair_fee: 60 },
      },
      '1': { panel_id: 1, label: 'Bonnet', repair_type: 'pdr', category: 'heavy', scratch: null, ...fees },
    },
    tyres: [{ row: 1, direction: 'L', label: 'FRONT LEFT', repair_type: 'replace', status: 'priced', repair_fee: 150, lineTotal: 150 }],
    totals: {
      pdr: 100,
      conventional: 0,
      p2p: 0,
      replacement: 0,
      paint: 60,
      tyre: 150,
      product: 0,
      sub_total: 310,
      tax: 31,
      grant_total: 341,
    },
  };

  it("reads the saved lines and totals in cents, in the engine's order", () => {
    const pricing = savedPricing(reply)!;
    expect(pricing.lines.map((l) => [l.panel_id, l.kind, l.subtotal, l.line_total])).toEqual([
      [1, 'dent', 'pdr', 10000],
      [2, 'scratch', 'paint', 6000],
      ['tyre:1:L', 'tyre', 'tyre', 15000],
    ]);
    expect(pricing.totals).toMatchObject({ pdr: 10000, paint: 6000, tyre: 15000, sub_total: 31000, tax: 3100, grand_total: 34100 });
  });

  it('is null for a reply without its figures', () => {
    expect(savedPricing({ ...reply, totals: undefined })).toBeNull();
    expect(savedPricing({ ...reply, items: { '1': { panel_id: 1, repair_type: 'pdr' } } })).toBeNull();
  });
});
