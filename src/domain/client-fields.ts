import { MAX_AMOUNT } from './catalogue';
import type { FieldSpecs, FormMode } from './fields';
import { messages } from './messages';
import { DENT_LEVELS, type DentLevel, type DentPriceRow, type ScratchPriceRow } from './pricing';

// A client's fields and form rules without zod, so the browser's resource description can import them
// into the first download; ./clients re-exports them with the request schemas the server validates with.

/** Currencies a client may price in; amounts show with 2 decimals. */
export const CURRENCIES = [
  { id: '$', name: '$' },
  { id: '¥', name: '¥' },
  { id: '€', name: '€' },
] as const;

export const CALCULATION_METHODS = [
  { id: 'T', name: 'Threshold' },
  { id: 'W', name: 'Weight' },
] as const;

/** Percent inputs (surcharges, aluminium) are stored as numeric(7,2). */
export const MAX_PERCENT = 1000;

/**
 * A client's own fields (the wire's Client, docs/pricing.md "Inputs"). The weighted counts and the two price
 * matrices are nested objects the field DSL cannot say: they are `clientExtraInput` below.
 */
export const clientFields = {
  name: { type: 'text', label: 'Name', required: true, max: 255, list: true },
  currency: { type: 'choice', label: 'Currency', choices: CURRENCIES, default: '$', list: true },
  sc_metallic: { type: 'number', label: 'Metallic Surcharge', min: 0, max: MAX_PERCENT, default: 0, list: true },
  sc_pearl: { type: 'number', label: 'Pearl Surcharge', min: 0, max: MAX_PERCENT, default: 0, list: true },
  sc_p2p: { type: 'boolean', label: 'Push to Paint', default: false },
  calculation_method: { type: 'choice', label: 'Calculation Method', choices: CALCULATION_METHODS, default: 'T', list: true },
  /** Method T's count; the default 1 (the panel's largest dent) when absent. */
  sc_threshold: { type: 'number', label: 'Threshold', integer: true, min: 1, max: 1000, default: 1 },
  /** New tyre prices for the quote's Tyres section; 0 is a missing price. */
  tyre_repair: { type: 'number', label: 'Tyre Repair', min: 0, max: MAX_AMOUNT, default: 0 },
  tyre_replace: { type: 'number', label: 'Tyre Replace', min: 0, max: MAX_AMOUNT, default: 0 },
  products: { type: 'references', label: 'Products', reference: 'products', virtual: true },
  parts: { type: 'references', label: 'Parts', reference: 'parts', virtual: true },
  /** The logo's URL: http(s) only, so a `javascript:` or `data:` URL can never be shown or followed. */
  logo: { type: 'text', label: 'Logo', max: 1000, url: true },
  phone: { type: 'text', label: 'Phone', max: 50 },
  address: { type: 'text', label: 'Address', max: 500, multiline: true },
  email: { type: 'text', label: 'Email', max: 255, email: true },
  abn: { type: 'text', label: 'ABN', max: 50 },
} satisfies FieldSpecs;

/** English labels of the dent levels (server messages). */
export const levelLabel: Record<DentLevel, string> = {
  light: 'Light',
  medium: 'Medium',
  heavy: 'Heavy',
  severe: 'Severe',
  oversize: 'Oversize',
};

/** `weighted_no`: for method W, how many dents at a level or larger make that level the category. */
export const weightedNoFields = Object.fromEntries(
  DENT_LEVELS.map((l) => [l, { type: 'number', label: levelLabel[l], integer: true, min: 1, max: 1000 }]),
) as Record<DentLevel, { type: 'number'; label: string; integer: true; min: number; max: number }>;

// A cell left out is 0 (a missing price starts at 0), as the form shows it: a form submitted before
// every cell has registered its 0 sends part of a row, and only the name of a client is required.
const amount = (label: string) => ({ type: 'number', label, min: 0, max: MAX_AMOUNT, default: 0 }) as const;

/** One row of the dent price matrix (per part): fees by category, p2p, aluminium percent, conventional and replacement in money. */
export const dentPriceFields = {
  light: amount('Light'),
  medium: amount('Medium'),
  heavy: amount('Heavy'),
  severe: amount('Severe'),
  oversize: amount('Oversize'),
  p2p: amount('Push to Paint'),
  aluminium: { type: 'number', label: 'Aluminium', min: 0, max: MAX_PERCENT, default: 0 },
  conventional: amount('Conventional'),
  replacement: amount('Replacement'),
} satisfies FieldSpecs satisfies Record<keyof DentPriceRow, unknown>;

/** One row of the scratch price matrix (per part). */
export const scratchPriceFields = {
  spot: amount('Spot'),
  paint: amount('Paint'),
  conventional: amount('Conventional'),
} satisfies FieldSpecs satisfies Record<keyof ScratchPriceRow, unknown>;

// The calculator owns the row types; the form's fields above must name every one of their keys.
export type { DentPriceRow, ScratchPriceRow };
/** Both matrices, each keyed by part id: `prices.dent['12'].heavy`. */
export interface ClientPrices {
  dent: Record<string, DentPriceRow>;
  scratch: Record<string, ScratchPriceRow>;
}

/**
 * Rules across fields: W needs all five weighted counts (each reported at its own path). Only the name
 * is required: T without a threshold takes the default (1), applied by the field's `default`.
 */
export function clientRules(body: Record<string, unknown>, _mode: FormMode): Record<string, string> | null {
  const errors: Record<string, string> = {};
  if (body.calculation_method === 'W') {
    const w = (body.weighted_no ?? {}) as Partial<Record<DentLevel, unknown>>;
    for (const l of DENT_LEVELS) if (w[l] == null) errors[`weighted_no.${l}`] = messages.required(levelLabel[l]);
  }
  return Object.keys(errors).length ? errors : null;
}
