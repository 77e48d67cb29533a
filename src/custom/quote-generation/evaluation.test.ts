import { describe, expect, it } from 'vitest';
import { partOptions, previewGstPercent, productOptions, toEvaluation, toSavedQuote } from './evaluation';

describe('reading the replies the quote screen starts from', () => {
  it('takes the panels, the client and the scan of GET scans/{id}/evaluate; no client means nothing to quote', () => {
    const reply = {
      measures: { dents: {}, scratchs: {} },
      client: {
        id: 3,
        name: 'C',
        currency: '¥',
        sc_metallic: 10,
        sc_pearl: 0,
        sc_p2p: 1,
        products: [11],
        parts: [21],
        prices: { dent: {}, scratch: {} },
      },
      panels: [
        {
          id: 1,
          label: 'Bonnet',
          car_panel: 'bonnet',
          type: 'L',
          hasLargeVariant: true,
          part_id: 7,
          panel_group_id: 2,
          thresholdCategory: 'heavy',
        },
      ],
      scanInfo: {
        id: 42,
        type: 'arch',
        licensePlate: 'X',
        timestamp: '2024-05-31T07:30:00.000Z',
        agent_id: 1,
        agent_name: 'A',
        client_name: 'C',
      },
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
    ]);
    expect(evaluation.client).toMatchObject({ id: 3, currency: '¥', sc_p2p: true });
    expect(evaluation.productIds).toEqual(['11']);
    expect(evaluation.gstPercent).toBeNull();
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
    })!;
    expect(saved.items).toEqual({ '1': { repair_type: 'pdr', category: 'light', scratch_repair_type: 'paint' } });
    expect(saved.parts).toEqual(['Wiper']);
    expect(toSavedQuote(null)).toBeNull();
    expect(previewGstPercent({ gstPercent: null }, saved)).toBe(12.5);
    expect(previewGstPercent({ gstPercent: 15 }, saved)).toBe(15);
    expect(previewGstPercent({ gstPercent: null }, null)).toBe(10);
  });
});
