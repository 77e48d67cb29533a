import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToAmount, formatAmount, formatMoney, percentOf, scaleDecimal, sumCents, toCents } from './money';

describe('toCents reads an amount as its decimal digits', () => {
  it('converts stored amounts exactly', () => {
    expect(toCents(12.34)).toBe(1234);
    expect(toCents(0)).toBe(0);
    expect(toCents(99_999_999.99)).toBe(9_999_999_999);
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.1 + 0.2)).toBe(30); // 0.30000000000000004
  });

  it('rounds a third decimal half-up, as PostgreSQL stores it in numeric(12,2)', () => {
    // Math.round(1.005 * 100) is 100: in binary 1.005 is a little below 1.005.
    expect(Math.round(1.005 * 100)).toBe(100);
    expect(toCents(1.005)).toBe(101);
    expect(toCents(1.004)).toBe(100);
    expect(toCents(2.675)).toBe(268);
    expect(toCents(-1.005)).toBe(-101);
  });

  it('refuses what is not a number', () => {
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
    expect(() => toCents(Infinity)).toThrow(RangeError);
  });

  it('round-trips every stored amount: toCents(centsToAmount(c)) is c', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), (c) => {
        expect(toCents(centsToAmount(c))).toBe(c);
        expect(String(centsToAmount(c))).toBe((c / 100).toFixed(2).replace(/\.?0+$/, '') || '0');
      }),
    );
  });

  it('rounds any decimal with up to 15 significant digits half-up at the wanted place', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9_999_999 }),
        fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 0, maxLength: 8 }),
        fc.integer({ min: 0, max: 4 }),
        (whole, fraction, digits) => {
          const text = fraction ? `${whole}.${fraction}` : String(whole);
          // The expected value from the text alone, with BigInt.
          const kept = BigInt(`${whole}${fraction.slice(0, digits).padEnd(digits, '0')}`);
          const up = fraction.length > digits && fraction[digits] >= '5' ? 1n : 0n;
          expect(scaleDecimal(Number(text), digits)).toBe(Number(kept + up));
        },
      ),
    );
  });

  it('decides the halves (…5 right after the kept digits) from the decimal form', () => {
    const digit = fc.constantFrom(...'0123456789');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99_999_999 }),
        fc.integer({ min: 0, max: 4 }),
        fc.string({ unit: digit, minLength: 4, maxLength: 4 }),
        fc.string({ unit: digit, maxLength: 2 }),
        (whole, digits, kept, after) => {
          const fraction = `${kept.slice(0, digits)}5${after}`;
          const expected = BigInt(`${whole}${kept.slice(0, digits)}`) + 1n; // a half or more rounds up
          expect(scaleDecimal(Number(`${whole}.${fraction}`), digits)).toBe(Number(expected));
          expect(scaleDecimal(-Number(`${whole}.${fraction}`), digits)).toBe(-Number(expected));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('percentOf rounds the fee half-up to the cent', () => {
  it('worked examples', () => {
    expect(percentOf(20_000, 12.5)).toBe(2500); // 12.5 % of 200.00
    expect(percentOf(101, 50)).toBe(51); // 50.5 cents, half-up
    expect(percentOf(99, 50)).toBe(50); // 49.5
    expect(percentOf(45_050, 12.5)).toBe(5631); // 5631.25
    expect(percentOf(45_050, 7.5)).toBe(3379); // 3378.75
    expect(percentOf(22_025, 10)).toBe(2203); // 2202.5
    expect(percentOf(10_000, 12.3456)).toBe(1235); // GST keeps 4 decimals: 1234.56
    expect(percentOf(12_345, 0)).toBe(0);
    expect(percentOf(0, 1000)).toBe(0);
    expect(percentOf(-101, 50)).toBe(-51);
  });

  it('does not lose precision beyond 2^53 (BigInt path)', () => {
    // 9e13 cents × 100.0000 % would overflow a double's integers as cents × 10^6.
    expect(percentOf(90_000_000_000_001, 100)).toBe(90_000_000_000_001);
    expect(percentOf(90_000_000_000_001, 10)).toBe(9_000_000_000_000);
    expect(percentOf(90_000_000_000_005, 10)).toBe(9_000_000_000_001); // …000.5 → up
  });

  it('equals the exact fee rounded half-up (BigInt oracle)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 }), fc.integer({ min: 0, max: 10_000_000 }), (c, p4) => {
        const percent = p4 / 10_000;
        const exact = BigInt(c) * BigInt(p4); // fee × 10^6
        const expected = exact / 1_000_000n + (exact % 1_000_000n >= 500_000n ? 1n : 0n);
        expect(percentOf(c, percent)).toBe(Number(expected));
      }),
    );
  });

  it('sums cents', () => {
    expect(sumCents([])).toBe(0);
    expect(sumCents([1, 2, 3])).toBe(6);
  });
});

describe('formatMoney shows cents in the client currency with 2 decimals', () => {
  it('puts the symbol first and groups thousands', () => {
    expect(formatMoney(123456, '$')).toBe('$1,234.56');
    expect(formatMoney(5, '¥', 'ja')).toBe('¥0.05');
    expect(formatMoney(100_000_000, '€')).toBe('€1,000,000.00');
    expect(formatMoney(-250, '$')).toBe('-$2.50');
  });

  it('defaults to $ when the client has no currency', () => {
    expect(formatMoney(0, null)).toBe('$0.00');
    expect(formatMoney(1999, '')).toBe('$19.99');
  });

  it('prints the same figures without the symbol where the currency is not known (formatAmount)', () => {
    expect(formatAmount(123456)).toBe('1,234.56');
    expect(formatAmount(-250)).toBe('-2.50');
    expect(formatAmount(toCents(394.9))).toBe('394.90');
  });
});
