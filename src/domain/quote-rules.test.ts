import { describe, expect, it } from 'vitest';
import {
  DEFAULT_GST_PERCENT,
  NO_SCRATCHES_MESSAGE,
  onePerCarPanel,
  repeatedCarPanels,
  repeatedProducts,
  scratchRepairError,
  unquotedDamagedPanels,
  unquotedPanelMessage,
} from './quote-rules';

describe('the quote rules both sides apply', () => {
  it('prices a car panel once: the first, or the preferred one, of the panels showing it', () => {
    const front = { id: 10, carPanel: 'guard_lf' };
    const left = { id: 11, carPanel: 'guard_lf' };
    const loose = { id: 12, carPanel: null };
    expect(onePerCarPanel([front, left, loose])).toEqual([front, loose]);
    expect(onePerCarPanel([front, left, loose], new Set(['11']))).toEqual([left, loose]);
    expect(repeatedCarPanels([front, loose, left])).toEqual([left]);
    expect(repeatedCarPanels([front, loose])).toEqual([]);
  });

  it('refuses a product chosen twice, at its second place', () => {
    expect(repeatedProducts([5, 6, 5, 5])).toEqual([2, 3]);
    expect(repeatedProducts(['5', 5])).toEqual([1]);
    expect(repeatedProducts([1, 2])).toEqual([]);
  });

  it('gives a scratch repair only to a panel with scratches', () => {
    expect(scratchRepairError('paint', 0)).toBe(NO_SCRATCHES_MESSAGE);
    expect(scratchRepairError('paint', 2)).toBeNull();
    expect(scratchRepairError(null, 0)).toBeNull();
  });

  it('defaults GST to 10 %', () => {
    expect(DEFAULT_GST_PERCENT).toBe(10);
  });
});

describe('unquotedDamagedPanels', () => {
  const panel = (id: number, carPanel: string | null, label: string, applies = true) => ({ id, carPanel, label, applies });
  const panels = [
    panel(1, 'bonnet', 'Bonnet'),
    panel(2, 'bonnet', 'Bonnet (Top view)'),
    panel(3, 'roof', 'Roof'),
    panel(4, 'roof_l', 'Roof (Large)', false),
    panel(5, 'door_lf', 'Left Front Door'),
    panel(6, null, 'Sketch'),
  ];
  const damage = { dents: { bonnet: 2, roof_l: 1, roof: 0 }, scratchs: { door_lf: 1 } };

  it('names each damaged car panel left out once, by its first panel shown, scratches counting as damage', () => {
    expect(unquotedDamagedPanels(panels, damage, new Set()).map((p) => p.id)).toEqual([1, 5]);
    expect(unquotedPanelMessage('Bonnet')).toBe('Bonnet is damaged and must be quoted');
  });

  it('takes a car panel as quoted by any of its panels; a car panel shown in no panel of the vehicle type is not asked for', () => {
    expect(unquotedDamagedPanels(panels, damage, new Set(['2', '5']))).toEqual([]);
    expect(unquotedDamagedPanels(panels, { dents: { roof_l: 3 }, scratchs: {} }, new Set())).toEqual([]);
  });

  it('does not take a car panel as quoted by its panel of another vehicle type', () => {
    const sized = [panel(7, 'roof', 'Roof', false), panel(8, 'roof', 'Roof (Large)')];
    const roof = { dents: { roof: 2 }, scratchs: {} };
    expect(unquotedDamagedPanels(sized, roof, new Set(['7'])).map((p) => p.id)).toEqual([8]);
    expect(unquotedDamagedPanels(sized, roof, new Set(['7', '8']))).toEqual([]);
  });
});
