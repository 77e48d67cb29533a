import { describe, expect, it } from 'vitest';
import {
  DEFAULT_GST_PERCENT,
  NO_SCRATCHES_MESSAGE,
  onePerCarPanel,
  repeatedCarPanels,
  repeatedProducts,
  scratchRepairError,
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
