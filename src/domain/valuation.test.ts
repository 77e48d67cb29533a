import { describe, expect, it } from 'vitest';
import { parseValuationText, VALUATION_FORMAT_MESSAGE, VALUATION_MAX_MESSAGE, valuationInputText } from './valuation';

const value = (text: string) => {
  const r = parseValuationText(text);
  if (!r.ok) throw new Error(`${text}: ${r.message}`);
  return r.value;
};

describe('parseValuationText', () => {
  it('reads digits, with or without thousands commas', () => {
    expect(value('15900')).toBe(15900);
    expect(value('15,900')).toBe(15900);
    expect(value('1,234,567')).toBe(1234567);
    expect(value('0')).toBe(0);
    expect(value('007')).toBe(7);
    expect(value('  18,500 ')).toBe(18500);
    expect(value('100,000,000')).toBe(100_000_000);
  });

  it('rounds cents to whole dollars half up, on the typed digits', () => {
    expect(value('15,900.50')).toBe(15901);
    expect(value('15900.5')).toBe(15901);
    expect(value('15,900.49')).toBe(15900);
    expect(value('15,900.499')).toBe(15900);
    expect(value('15,900.99')).toBe(15901);
    expect(value('15,900.00')).toBe(15900);
    expect(value('15,900.')).toBe(15900);
    expect(value('0.5')).toBe(1);
    expect(value('0.49')).toBe(0);
  });

  it('is null (clears the valuation) for a blank field', () => {
    expect(value('')).toBeNull();
    expect(value('   ')).toBeNull();
  });

  it('refuses anything else, naming the field, rather than drop characters and change the amount', () => {
    for (const bad of [
      '15.900,50',
      '15.900.50',
      '1,59,00',
      '15,9000',
      ',159',
      '159,',
      '15,,900',
      '.50',
      '12a',
      'abc',
      '$15,900',
      '-15900',
      '+15900',
      '15 900',
      '1e5',
      '15900,50',
    ]) {
      const r = parseValuationText(bad);
      expect(r, bad).toEqual({ ok: false, error: 'format', message: VALUATION_FORMAT_MESSAGE });
    }
    expect(VALUATION_FORMAT_MESSAGE).toMatch(/^Valuation must be /);
  });

  it('refuses more than the largest valuation, however many digits', () => {
    for (const big of ['100,000,000.50', '100000001', '99999999999999999999999'])
      expect(parseValuationText(big), big).toEqual({ ok: false, error: 'max', message: VALUATION_MAX_MESSAGE });
    expect(VALUATION_MAX_MESSAGE).toBe('Valuation must be at most 100,000,000');
  });
});

describe('valuationInputText', () => {
  it('shows whole dollars grouped, which the parser reads back to the same value', () => {
    expect(valuationInputText(15901)).toBe('15,901');
    expect(valuationInputText(null)).toBe('');
    for (const n of [0, 7, 999, 1000, 15901, 100_000_000]) expect(value(valuationInputText(n))).toBe(n);
  });
});
