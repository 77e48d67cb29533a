/**
 * Money in the pricing engine (docs/pricing.md): integer minor units (cents), rounded half-up.
 * Amounts arrive as decimal numbers in the client's currency (numeric(12,2) read by node-postgres, or typed in a form);
 * percentages as numbers with up to 2 decimals (a client's surcharges, a part's aluminium) or 4 (GST_PERCENT).
 */

/** Integer minor units of the client's currency: 1234 is 12.34. */
export type Cents = number;

/**
 * x × 10^digits rounded half-up (half away from zero), read from x's shortest decimal form (`String(x)`) rather than
 * from its binary value: 1.005 is 1.00499999999999989… in binary, so `Math.round(1.005 * 100)` gives 100, while this
 * gives 101, as PostgreSQL does when it stores the same number (node-postgres sends `String(x)`) in numeric(12,2).
 */
export function scaleDecimal(x: number, digits: number): number {
  if (!Number.isFinite(x)) throw new RangeError(`Not a finite number: ${x}`);
  const abs = Math.abs(x);
  const scaled = abs * (POWERS[digits] ?? 10 ** digits);
  const fraction = scaled - Math.floor(scaled);
  let n: number;
  // x and the product each err by at most half an ulp, so scaled is within scaled × 2^-52 of the decimal's own
  // value: unless that leaves it at a half, the binary value rounds as the decimal does (the string is slower).
  if (Math.abs(fraction - 0.5) > scaled * 1e-15 + 1e-9) n = Math.floor(scaled) + (fraction > 0.5 ? 1 : 0);
  else {
    const text = String(abs);
    if (/e/i.test(text)) {
      // Only below 1e-6 or from 1e21 does String use an exponent: no amount or percent is there.
      n = Math.round(scaled);
    } else {
      const [whole, decimals = ''] = text.split('.');
      n = Number(whole + decimals.slice(0, digits).padEnd(digits, '0'));
      if (decimals.length > digits && decimals[digits] >= '5') n += 1;
    }
  }
  return x < 0 && n !== 0 ? -n : n;
}

const POWERS = [1, 10, 100, 1000, 10_000];

/** An amount in currency units as cents: 12.34 → 1234, 0.1 + 0.2 → 30 (exactly, see scaleDecimal). */
export const toCents = (amount: number): Cents => scaleDecimal(amount, 2);

/** Cents as the decimal number stored in numeric(12,2) and sent on the wire: 1234 → 12.34 (the nearest double). */
export const centsToAmount = (cents: Cents): number => cents / 100;

const MILLION = 1_000_000;
const BIG_MILLION = BigInt(MILLION);

/**
 * `percent` % of `cents`, rounded half-up to the cent (half away from zero for negative amounts). The percent keeps
 * 4 decimals (GST_PERCENT's precision; surcharges have 2), so the exact fee is cents × p / 10^6 with p an integer;
 * the division is done on integers (BigInt when the product leaves the safe range), never in floating point.
 */
export const percentOf = (cents: Cents, percent: number): Cents => percentOfUnits(cents, percentUnits(percent));

/** A percentage in 1/10,000 % (12.5 → 125000), so a rate used on many lines is read once. */
export const percentUnits = (percent: number): number => scaleDecimal(percent, 4);

/** percentOf with the percent already in 1/10,000 % (percentUnits). */
export function percentOfUnits(cents: Cents, p: number): Cents {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  if (p === 0 || cents === 0) return 0;
  const negative = cents < 0 !== p < 0;
  const product = Math.abs(cents) * Math.abs(p);
  let q: number;
  if (Number.isSafeInteger(product)) {
    const rest = product % MILLION;
    q = (product - rest) / MILLION + (rest >= MILLION / 2 ? 1 : 0);
  } else {
    const big = BigInt(Math.abs(cents)) * BigInt(Math.abs(p));
    q = Number(big / BIG_MILLION + (big % BIG_MILLION >= BIG_MILLION / 2n ? 1n : 0n));
  }
  return negative && q !== 0 ? -q : q;
}

/** Sum of cents (integers, so exact while the total stays below 2^53 cents). */
export const sumCents = (values: readonly Cents[]): Cents => values.reduce((a, b) => a + b, 0);

/**
 * Cents shown in the client's currency: its symbol ($ default, ¥, €) and 2 decimals, grouped
 * in thousands: 123456 → '$1,234.56'; a negative amount keeps its sign before the symbol. The same in every language
 * (English and Japanese both group with commas) and without the runtime's locale data, so the screens, the invoice
 * and the server's PDF print the same text. `_locale` is kept for callers that pass the screen's language.
 */
export function formatMoney(cents: Cents, currency: string | null | undefined = '$', _locale?: string): string {
  return `${cents < 0 ? '-' : ''}${currency || '$'}${formatAmount(Math.abs(cents))}`;
}

/** An amount in currency units as a record keeps it, with its currency when known ('¥1,234.56'), else without ('1,234.56'). */
export const formatStoredAmount = (amount: number, currency?: string | null) =>
  currency ? formatMoney(toCents(amount), currency) : formatAmount(toCents(amount));

/** Cents as formatMoney prints them, without the currency: 123456 → '1,234.56' (where the currency is not known). */
export function formatAmount(cents: Cents): string {
  const abs = Math.abs(Math.round(cents));
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}${whole}.${String(abs % 100).padStart(2, '0')}`;
}
