import type { PANEL_TYPES } from './catalogue';
import { percentOfUnits, percentUnits, sumCents, toCents, type Cents } from './money';

/**
 * How a quote is priced (docs/pricing.md), as plain functions with no I/O: the browser's live preview and
 * the server, which recomputes and stores every figure on save, call the same ones. A panel's category (T or W),
 * the repair-type transitions as pure state changes, and the fees and totals in integer cents (./money).
 */

/** Dent levels, lowest to highest. */
export const DENT_LEVELS = ['light', 'medium', 'heavy', 'severe', 'oversize'] as const;
export type DentLevel = (typeof DENT_LEVELS)[number];

/** One row of a client's dent price matrix (per part): a fee per level, p2p, aluminium percent, conventional and replacement. */
export type DentPriceRow = Record<DentLevel | 'p2p' | 'aluminium' | 'conventional' | 'replacement', number>;
/** One row of a client's scratch price matrix (per part). */
export type ScratchPriceRow = Record<'spot' | 'paint' | 'conventional', number>;

/** A panel's dents: how many at each level (a missing level counts 0). */
export type DentCounts = Partial<Record<DentLevel, number>>;

/** The client's category method: Threshold with `sc_threshold`, or Weight with `weighted_no`. */
export type CategoryMethod = { method: 'T'; threshold: number } | { method: 'W'; weighted: Record<DentLevel, number> };

/** The rank of a category, for comparisons: no category (no dents) is below light. */
export const categoryRank = (category: DentLevel | null) => (category === null ? -1 : DENT_LEVELS.indexOf(category));

const count = (n: number | undefined) => (n !== undefined && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/**
 * A panel's category (docs/pricing.md): the largest level L with n(≥L), the number of
 * dents at L or larger, reaching the method's count for L (T: the threshold; W: weighted_no[L]).
 * Dents that reach no count give light; no dents give null (no repair type, 'No Damage Detected').
 */
export function panelCategory(counts: DentCounts, method: CategoryMethod): DentLevel | null {
  let atOrAbove = 0;
  for (let i = DENT_LEVELS.length - 1; i >= 0; i--) {
    const level = DENT_LEVELS[i];
    atOrAbove += count(counts[level]);
    const needed = method.method === 'T' ? method.threshold : method.weighted[level];
    if (atOrAbove > 0 && atOrAbove >= Math.max(1, needed)) return level;
  }
  return atOrAbove > 0 ? 'light' : null;
}

/** The method a client's stored fields configure, or null when they are incomplete (a W client missing a count). */
export function clientCategoryMethod(client: {
  calculation_method: string;
  sc_threshold?: number | null;
  weighted_no?: Partial<Record<DentLevel, number | null>> | null;
}): CategoryMethod | null {
  if (client.calculation_method === 'T') {
    const t = client.sc_threshold;
    return typeof t === 'number' && Number.isInteger(t) && t >= 1 ? { method: 'T', threshold: t } : null;
  }
  if (client.calculation_method === 'W') {
    const w = client.weighted_no;
    if (!w) return null;
    const weighted = {} as Record<DentLevel, number>;
    for (const level of DENT_LEVELS) {
      const n = w[level];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) return null;
      weighted[level] = n;
    }
    return { method: 'W', weighted };
  }
  return null;
}

// ---- Repair types and their transitions ----

/** A dent line's repair types, in the order of the quote's subtotals. */
export const REPAIR_TYPES = ['pdr', 'conventional', 'p2p', 'replacement'] as const;
export type RepairType = (typeof REPAIR_TYPES)[number];

/** A scratch line's repair types (docs/pricing.md); a panel with scratches starts at spot. */
export const SCRATCH_REPAIR_TYPES = ['spot', 'paint', 'conventional'] as const;
export type ScratchRepairType = (typeof SCRATCH_REPAIR_TYPES)[number];

/** The agent's choice for a wheel (Repair, Recheck Next Visit, Replace): a line of the quote's Tyres section. */
export const TYRE_CHOICES = ['repair', 'recheck', 'replace'] as const;
export type TyreChoice = (typeof TYRE_CHOICES)[number];

/**
 * The quote's sections, in the order the summary, invoice, PDF and list show them: the four dent repair types,
 * Scratch / Paint (scratch spot and paint lines: scratch work is never dent work, so never listed as replacement)
 * and Tyres.
 */
export const SUBTOTALS = [...REPAIR_TYPES, 'paint', 'tyre'] as const;
export type Subtotal = (typeof SUBTOTALS)[number];

/** The quote's vehicle type and a panel's type: D, L, XL. */
export type VehicleType = (typeof PANEL_TYPES)[number]['id'];

/** A panel's dent choice on the quote: its repair type, and its category while the type is pdr. */
export interface DentChoice {
  repair_type: RepairType | null;
  category: DentLevel | null;
}

/** A panel without dents: no repair type, shown as 'No Damage Detected'. */
const noRepair = (): DentChoice => ({ repair_type: null, category: null });

/** On first load: pdr at the computed category when the panel has one, otherwise no repair type. */
export function initialDentChoice(computed: DentLevel | null): DentChoice {
  return computed === null ? noRepair() : { repair_type: 'pdr', category: computed };
}

/**
 * The assessor picks another repair type: pdr takes the computed category (and so its fee), any other type clears
 * the category (its fee is the type's own). A panel without dents has no repair type to change.
 */
export function changeRepairType(to: RepairType, computed: DentLevel | null): DentChoice {
  if (computed === null) return noRepair();
  return to === 'pdr' ? { repair_type: 'pdr', category: computed } : { repair_type: to, category: null };
}

/** The assessor edits the pdr category (any of the five levels); other types have no category to edit. */
export function changeCategory(current: DentChoice, category: DentLevel): DentChoice {
  return current.repair_type === 'pdr' ? { repair_type: 'pdr', category } : current;
}

/**
 * The panel's dent counts were edited and the server gave its new category: a pdr panel takes it (replacing an edited
 * one), another type keeps its choice, a panel that had no repair type starts as on first load, and one left without
 * dents has no repair type.
 */
export function recountDents(current: DentChoice, computed: DentLevel | null): DentChoice {
  if (computed === null) return noRepair();
  if (current.repair_type === null || current.repair_type === 'pdr') return { repair_type: 'pdr', category: computed };
  return current;
}

/** A panel's scratch line: spot when it has scratches, none otherwise. */
export function initialScratchRepair(scratches: number): ScratchRepairType | null {
  return count(scratches) > 0 ? 'spot' : null;
}

/** The scratch counts were edited: the line keeps its type while scratches remain, starts at spot, or goes. */
export function recountScratches(current: ScratchRepairType | null, scratches: number): ScratchRepairType | null {
  return count(scratches) > 0 ? (current ?? 'spot') : null;
}

/**
 * Whether a panel may carry a scratch line beside its dent line: only while the dent line is pdr or the panel has
 * none. Conventional repair, push to paint and replacement repaint the panel, so a scratch line beside them would
 * charge the paint twice.
 */
export const scratchLineAllowed = (dent: Pick<DentChoice, 'repair_type'>) => dent.repair_type === null || dent.repair_type === 'pdr';

/**
 * The scratch line after the panel's dent choice changed: gone while the dent line repaints the panel; restored with
 * its default (spot, when the panel has scratches) when the dent line goes back to pdr; otherwise as it was.
 */
export function scratchAfterDentChange(
  dent: Pick<DentChoice, 'repair_type'>,
  current: ScratchRepairType | null,
  scratches: number,
): ScratchRepairType | null {
  if (!scratchLineAllowed(dent)) return null;
  return current ?? initialScratchRepair(scratches);
}

// ---- Fees and totals (docs/pricing.md) ----

/** A 0/1 flag as the wire sends it, or a boolean. */
export type Flag = boolean | 0 | 1;
const on = (flag: boolean | number | null | undefined) => flag === true || flag === 1;

/**
 * What pricing reads of a client: the wire's client record (GET clients/{id}) fits as it is. Amounts are decimal
 * numbers in the client's currency, percentages plain numbers (12.5 is 12.5 %); a missing matrix, row or cell is unpriced.
 */
export interface PricingClient {
  sc_metallic?: number | null;
  sc_pearl?: number | null;
  sc_p2p?: boolean | number | null;
  /** The client's new tyre prices: a tyre repaired, a tyre replaced (0 or absent: a missing price). */
  tyre_repair?: number | null;
  tyre_replace?: number | null;
  prices?: {
    dent?: Partial<Record<string, Partial<DentPriceRow>>>;
    scratch?: Partial<Record<string, Partial<ScratchPriceRow>>>;
  } | null;
}

/** A panel of the quote: its catalogue row (the part whose matrix row prices it, its type and variant) and the choices. */
export interface PricingPanel {
  panel_id: number | string;
  part_id: number | string | null;
  type: VehicleType;
  hasLargeVariant: boolean;
  /** No repair type when the panel has no dents. */
  dent: DentChoice;
  /** Null when the panel has no scratches. */
  scratch: ScratchRepairType | null;
}

/** A wheel the agent chose for (row 1 is the front; L or R): its choice becomes a line of the Tyres section. */
export interface PricingTyre {
  row: number;
  direction: 'L' | 'R';
  choice: TyreChoice;
}

/** The line key of a wheel's tyre line (a panel's line is keyed by its panel id): 'tyre:1:L'. */
export const tyreLineKey = (tyre: Pick<PricingTyre, 'row' | 'direction'>) => `tyre:${tyre.row}:${tyre.direction}`;

/** Everything a quote's figures depend on. */
export interface PricingInput {
  client: PricingClient;
  panels: readonly PricingPanel[];
  /** The agent's tyre choices, in wheel order (absent: none). */
  tyres?: readonly PricingTyre[];
  metallic: Flag;
  pearl: Flag;
  aluminium: Flag;
  vehicle_type: VehicleType;
  /** The products' prices, in currency units (parts carry no price). */
  products: readonly { price: number }[];
  /** The application setting GST_PERCENT (default 10). */
  gst_percent: number;
}

/**
 * Why a line's fees are what they are: `priced` from the matrix; `no-price` (0) when the client has no matrix row
 * or cell for the panel's part, the cell is 0 (a row the client's form added starts at 0: nobody priced it), or the
 * panel names no part; `other-vehicle-type` (0) for a large-variant panel of another vehicle type; `invalid` (0) for a
 * choice that cannot be priced (pdr without a category, p2p for a client without Push to Paint): the server refuses
 * those (dentChoiceError), the preview shows them at 0.
 */
export type LineStatus = 'priced' | 'no-price' | 'other-vehicle-type' | 'invalid' | 'advisory';
export const LINE_STATUSES = ['priced', 'no-price', 'other-vehicle-type', 'invalid', 'advisory'] as const satisfies readonly LineStatus[];

/** One line of the quote, every figure in cents. */
export interface PricedLine {
  /** The panel's id; a tyre line's key (tyreLineKey). */
  panel_id: number | string;
  kind: 'dent' | 'scratch' | 'tyre';
  repair_type: RepairType | ScratchRepairType | TyreChoice;
  /** The pdr category; null for the other types and for scratch and tyre lines. */
  category: DentLevel | null;
  /** The section the line counts in (scratch lines: conventional, or paint for spot and paint; tyre lines: tyre). */
  subtotal: Subtotal;
  status: LineStatus;
  repair_fee: Cents;
  aluminium_fee: Cents;
  metallic_fee: Cents;
  pearl_fee: Cents;
  line_total: Cents;
}

/** The quote's totals in cents (the product's totals; grand_total is the wire's grant_total). */
export interface QuoteTotals {
  pdr: Cents;
  conventional: Cents;
  p2p: Cents;
  replacement: Cents;
  /** Scratch / Paint: scratch lines of repair type spot or paint. */
  paint: Cents;
  /** Tyres: the agent's tyre choices. */
  tyre: Cents;
  product: Cents;
  sub_total: Cents;
  tax: Cents;
  grand_total: Cents;
}

export interface QuotePricing {
  lines: PricedLine[];
  totals: QuoteTotals;
}

/** An amount or percent the engine can use: a missing, negative or non-finite one (a half-typed input) counts 0. */
const usable = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0);
const cents = (amount: unknown): Cents | null => (typeof amount === 'number' ? toCents(usable(amount)) : null);

/** The repair types the quote offers the client: p2p only when its sc_p2p is on. */
export function offeredRepairTypes(client: Pick<PricingClient, 'sc_p2p'>): RepairType[] {
  return on(client.sc_p2p) ? [...REPAIR_TYPES] : REPAIR_TYPES.filter((t) => t !== 'p2p');
}

/** A large-variant panel is shown and priced only in its own vehicle type; other panels always. */
export const panelApplies = (panel: Pick<PricingPanel, 'type' | 'hasLargeVariant'>, vehicleType: VehicleType) =>
  !panel.hasLargeVariant || panel.type === vehicleType;

/**
 * Why the server refuses a panel's dent choice given its computed category, or null when it can be priced:
 * a damaged panel needs a repair type, an undamaged one has none, pdr needs a category, p2p needs the client's sc_p2p.
 * The field names the item member at fault.
 */
export function dentChoiceError(
  choice: DentChoice,
  computed: DentLevel | null,
  client: Pick<PricingClient, 'sc_p2p'>,
): { field: 'repair_type' | 'category'; message: string } | null {
  if (computed === null)
    return choice.repair_type === null ? null : { field: 'repair_type', message: 'A panel without dents has no repair type' };
  if (choice.repair_type === null) return { field: 'repair_type', message: 'Repair Type is required' };
  if (!offeredRepairTypes(client).includes(choice.repair_type))
    return { field: 'repair_type', message: 'Push to Paint is not offered to this client' };
  if (choice.repair_type === 'pdr' && choice.category === null) return { field: 'category', message: 'Category is required' };
  return null;
}

/** What every line of one quote shares, read once: the toggles' surcharges in 1/10,000 % (0 when off). */
interface QuoteContext {
  input: PricingInput;
  p2p: boolean;
  aluminium: boolean;
  metallic: number;
  pearl: number;
}

function line(
  base: Pick<PricedLine, 'panel_id' | 'kind' | 'repair_type' | 'category' | 'subtotal'>,
  status: LineStatus,
  repair: Cents = 0,
  aluminium = 0,
  metallic = 0,
  pearl = 0,
): PricedLine {
  const aluminium_fee = percentOfUnits(repair, aluminium);
  const metallic_fee = percentOfUnits(repair, metallic);
  const pearl_fee = percentOfUnits(repair, pearl);
  const line_total = repair + aluminium_fee + metallic_fee + pearl_fee;
  // Spelled out, not spread: with `...base` here V8 made priceQuote about 25 times slower (bench/pricing.ts).
  return {
    panel_id: base.panel_id,
    kind: base.kind,
    repair_type: base.repair_type,
    category: base.category,
    subtotal: base.subtotal,
    status,
    repair_fee: repair,
    aluminium_fee,
    metallic_fee,
    pearl_fee,
    line_total,
  };
}

function dentLine(panel: PricingPanel, repairType: RepairType, q: QuoteContext): PricedLine {
  const category = repairType === 'pdr' ? panel.dent.category : null;
  const base = { panel_id: panel.panel_id, kind: 'dent' as const, repair_type: repairType, category, subtotal: repairType };
  if (!panelApplies(panel, q.input.vehicle_type)) return line(base, 'other-vehicle-type');
  if ((repairType === 'pdr' && category === null) || (repairType === 'p2p' && !q.p2p)) return line(base, 'invalid');
  const column: keyof DentPriceRow = repairType === 'pdr' ? (category as DentLevel) : repairType;
  const row = panel.part_id === null ? undefined : q.input.client.prices?.dent?.[String(panel.part_id)];
  const repair = row ? cents(row[column]) : null;
  if (row === undefined || repair === null || repair === 0) return line(base, 'no-price');
  return line(base, 'priced', repair, q.aluminium ? percentUnits(usable(row.aluminium)) : 0, q.metallic, q.pearl);
}

/** The section a scratch line counts in: a conventional scratch repair is conventional work, spot and paint are paint. */
export const scratchSubtotal = (repairType: ScratchRepairType): Subtotal => (repairType === 'conventional' ? 'conventional' : 'paint');

function scratchLine(panel: PricingPanel, repairType: ScratchRepairType, q: QuoteContext): PricedLine {
  const subtotal = scratchSubtotal(repairType);
  const base = { panel_id: panel.panel_id, kind: 'scratch' as const, repair_type: repairType, category: null, subtotal };
  if (!panelApplies(panel, q.input.vehicle_type)) return line(base, 'other-vehicle-type');
  const row = panel.part_id === null ? undefined : q.input.client.prices?.scratch?.[String(panel.part_id)];
  const repair = row ? cents(row[repairType]) : null;
  if (repair === null || repair === 0) return line(base, 'no-price');
  // Metallic and pearl are paint surcharges: on a scratch line they apply to paint only; aluminium not at all.
  const paint = repairType === 'paint';
  return line(base, 'priced', repair, 0, paint ? q.metallic : 0, paint ? q.pearl : 0);
}

/**
 * A tyre line: Repair and Replace at the client's tyre price (no surcharge ever applies to a tyre; a price of 0 is a
 * missing one), Recheck Next Visit an advisory line at 0.
 */
function tyreLine(tyre: PricingTyre, client: PricingClient): PricedLine {
  const base = { panel_id: tyreLineKey(tyre), kind: 'tyre' as const, repair_type: tyre.choice, category: null, subtotal: 'tyre' as const };
  if (tyre.choice === 'recheck') return line(base, 'advisory');
  const repair = cents(tyre.choice === 'repair' ? client.tyre_repair : client.tyre_replace) ?? 0;
  return repair > 0 ? line(base, 'priced', repair) : line(base, 'no-price');
}

/**
 * A quote's every figure: a dent line per panel with a repair type and a scratch line per panel with
 * scratches (only while its dent line is pdr or absent), in panel order, then a line per wheel the agent chose for;
 * subtotals per section, products, sub-total, GST (rounded once) and grand total.
 */
export function priceQuote(input: PricingInput): QuotePricing {
  const { client } = input;
  const q: QuoteContext = {
    input,
    p2p: on(client.sc_p2p),
    aluminium: on(input.aluminium),
    metallic: on(input.metallic) ? percentUnits(usable(client.sc_metallic)) : 0,
    pearl: on(input.pearl) ? percentUnits(usable(client.sc_pearl)) : 0,
  };
  const lines: PricedLine[] = [];
  for (const panel of input.panels) {
    if (panel.dent.repair_type !== null) lines.push(dentLine(panel, panel.dent.repair_type, q));
    if (panel.scratch !== null && scratchLineAllowed(panel.dent)) lines.push(scratchLine(panel, panel.scratch, q));
  }
  for (const tyre of input.tyres ?? []) lines.push(tyreLine(tyre, client));
  const byType: Record<Subtotal, Cents> = { pdr: 0, conventional: 0, p2p: 0, replacement: 0, paint: 0, tyre: 0 };
  for (const line of lines) byType[line.subtotal] += line.line_total;
  const product = sumCents(input.products.map((p) => cents(p.price) ?? 0));
  let sub_total = product;
  for (const key of SUBTOTALS) sub_total += byType[key];
  const tax = percentOfUnits(sub_total, percentUnits(usable(input.gst_percent)));
  return { lines, totals: { ...byType, product, sub_total, tax, grand_total: sub_total + tax } };
}
