/**
 * The valuation as typed (the scan page's Car Details, and `PUT scans/{id}` when it carries text): whole dollars are
 * stored, so what is typed must say a number of dollars without doubt. Accepted: digits, optionally grouped by
 * thousands commas (every group after the first exactly three digits), then at most one decimal point and its cents.
 * A value with cents is rounded to whole dollars half up (15,900.50 → 15,901; 15,900.49 → 15,900), on the typed
 * digits, so no binary fraction decides. Anything else is refused, never stripped: '15.900,50' (a European
 * thousands point), '1,59,00' (misplaced commas), two points, letters, signs and '$' would each change the amount if
 * characters were dropped.
 */

/** The largest valuation stored (whole dollars). */
export const VALUATION_MAX = 100_000_000;

export const VALUATION_FORMAT_MESSAGE =
  'Valuation must be a number of dollars: digits, commas between groups of three digits and at most one decimal point (e.g. 15,900 or 15900.50)';
export const VALUATION_MAX_MESSAGE = `Valuation must be at most ${VALUATION_MAX.toLocaleString('en-AU')}`;

export type ValuationText =
  /** The whole dollars, or null for a blank field (it clears the valuation). */
  { ok: true; value: number | null } | { ok: false; error: 'format' | 'max'; message: string };

const FORM = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d*))?$/;

export function parseValuationText(input: string): ValuationText {
  const text = input.trim();
  if (text === '') return { ok: true, value: null };
  const m = FORM.exec(text);
  if (!m) return { ok: false, error: 'format', message: VALUATION_FORMAT_MESSAGE };
  const dollars = m[1].replace(/,/g, '').replace(/^0+(?=\d)/, '');
  // More digits than the largest valuation has: refused before Number() could lose any of them.
  if (dollars.length > String(VALUATION_MAX).length) return { ok: false, error: 'max', message: VALUATION_MAX_MESSAGE };
  const value = Number(dollars) + (Number(m[2]?.[0] ?? '0') >= 5 ? 1 : 0);
  if (value > VALUATION_MAX) return { ok: false, error: 'max', message: VALUATION_MAX_MESSAGE };
  return { ok: true, value };
}

/** A valuation as the input shows it once typed: 15901 → '15,901' (en-AU grouping, the form the parser reads back). */
export const valuationInputText = (value: number | null) => (value === null ? '' : value.toLocaleString('en-AU'));
