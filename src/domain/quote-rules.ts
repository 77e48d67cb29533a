import { keyed } from './messages';
import type { ScratchRepairType } from './pricing';

/**
 * The rules of a quote's choices that both the quote screens (before sending) and the quote service (on save) apply,
 * written once: a car panel is priced once, a scratch repair needs scratches, a product is chosen once, GST's default.
 */

/** GST_PERCENT when the application setting is missing or unusable. */
export const DEFAULT_GST_PERCENT = 10;

/** The product picker's rule, with the product's wording. */
export const DUPLICATE_PRODUCT_MESSAGE = 'Select other product, Because already this product was selected.';

/** The positions of products chosen a second time (the first choice of each product stands). */
export function repeatedProducts(values: readonly (string | number)[]): number[] {
  const seen = new Set<string>();
  const repeated: number[] = [];
  values.forEach((value, i) => {
    if (seen.has(String(value))) repeated.push(i);
    seen.add(String(value));
  });
  return repeated;
}

export const NO_SCRATCHES_MESSAGE = 'A panel without scratches has no scratch repair';

/** Why a scratch repair choice cannot stand on a panel with this many scratches, or null. */
export const scratchRepairError = (choice: ScratchRepairType | null | undefined, scratches: number) =>
  choice && scratches <= 0 ? NO_SCRATCHES_MESSAGE : null;

/** A panel as the car-panel rule reads it: its id and the car panel whose counts it shows (null: none). */
export interface CarPanelOf {
  id: number | string;
  carPanel: string | null;
}

/**
 * A car panel may sit in two car views (a guard in Front and in Right) but its counts are one, so it is priced once:
 * of the panels given, the one kept per car panel is the preferred one (the saved quote's), else the first. Panels
 * without a car panel are all kept. Returns the kept panels in their order.
 */
export function onePerCarPanel<P extends CarPanelOf>(panels: readonly P[], preferred: ReadonlySet<string> = new Set()): P[] {
  const chosen = new Map<string, P>();
  for (const p of panels) {
    if (!p.carPanel) continue;
    const current = chosen.get(p.carPanel);
    if (!current || (!preferred.has(String(current.id)) && preferred.has(String(p.id)))) chosen.set(p.carPanel, p);
  }
  return panels.filter((p) => !p.carPanel || chosen.get(p.carPanel) === p);
}

/** The panels that price a car panel a panel before them already prices (the save refuses them). */
export function repeatedCarPanels<P extends CarPanelOf>(priced: readonly P[]): P[] {
  const kept = new Set(onePerCarPanel(priced));
  return priced.filter((p) => !kept.has(p));
}

/** The message of a repeated car panel: the panel's label names it. */
export const repeatedCarPanelMessage = (label: string) => `${label} is already quoted in another car view`;

/** A panel as the damaged-panel rule reads it: the car-panel rule's facts and whether it shows in the quote's vehicle type. */
export interface QuotablePanel extends CarPanelOf {
  label: string;
  applies: boolean;
}

/**
 * The car panels with dents or scratches that the quote leaves out (no item among its `quoted` panel ids), each named
 * by its first panel shown in the quote's vehicle type: a saved estimate prices every damaged panel, since one left out
 * would read as undamaged on the invoice. Car panels shown in no panel of the vehicle type are not the quote's, and an
 * item for a panel of another vehicle type quotes nothing.
 */
export function unquotedDamagedPanels<P extends QuotablePanel>(
  panels: readonly P[],
  damage: { dents: Record<string, number>; scratchs: Record<string, number> },
  quoted: ReadonlySet<string>,
): P[] {
  // Only a panel shown in the vehicle type quotes its car panel: one of another size is priced at 0 and not printed.
  const covered = new Set(panels.filter((p) => p.carPanel && p.applies && quoted.has(String(p.id))).map((p) => p.carPanel));
  const missing = new Map<string, P>();
  for (const p of panels) {
    if (!p.carPanel || !p.applies || covered.has(p.carPanel) || missing.has(p.carPanel)) continue;
    if ((damage.dents[p.carPanel] ?? 0) > 0 || (damage.scratchs[p.carPanel] ?? 0) > 0) missing.set(p.carPanel, p);
  }
  return [...missing.values()];
}

/** The message of a damaged car panel the quote leaves out: the panel's label names it. */
export const unquotedPanelMessage = (label: string) =>
  keyed(`${label} is damaged and must be quoted`, 'app.validation.unquoted_panel', { label });
