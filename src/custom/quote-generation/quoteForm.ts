import {
  changeCategory,
  changeRepairType,
  DENT_LEVELS,
  initialDentChoice,
  initialScratchRepair,
  recountDents,
  recountScratches,
  panelApplies,
  priceQuote,
  REPAIR_TYPES,
  SCRATCH_REPAIR_TYPES,
  scratchAfterDentChange,
  scratchLineAllowed,
  type PricingTyre,
  type DentChoice,
  type DentLevel,
  type PricingClient,
  type PricingPanel,
  type QuotePricing,
  type RepairType,
  type ScratchRepairType,
  type VehicleType,
} from '../../domain/pricing';
import { DUPLICATE_PRODUCT_MESSAGE, onePerCarPanel, repeatedProducts, scratchRepairError } from '../../domain/quote-rules';

/**
 * The Quote Generation form as plain state and pure changes: what the assessor chose, the
 * live preview through the pricing engine (src/domain/pricing.ts), and the body of `POST quotes`. No React here.
 */

/** A panel of the client's catalogue as the quote screen reads it, with the category the server computed. */
export interface QuotePanel {
  id: number;
  panel_group_id: number;
  label: string;
  carPanel: string | null;
  part_id: number | null;
  type: VehicleType;
  hasLargeVariant: boolean;
  /** The client's threshold category for this panel's dents (null: no dents, 'No Damage Detected'). */
  thresholdCategory: DentLevel | null;
}

/** A wheel the agent chose for on the scan page, with its label ('FRONT LEFT'): a line of the Tyres section. */
export interface QuoteTyreChoice extends PricingTyre {
  label: string;
}

/** A product the quote may carry, from the client's selection: its catalogue price is the row's starting price. */
export interface ProductOption {
  value: string;
  text: string;
  price: number;
}

/** One row of Add Products: the product's value ('' while none is chosen) and the price as typed. */
export interface ProductRow {
  value: string;
  text: string;
  price: string;
}

/** One panel's choices: the dent line (repair type, pdr category) and the scratch line's repair type. */
export interface PanelChoice {
  dent: DentChoice;
  scratch: ScratchRepairType | null;
}

export interface QuoteForm {
  metallic: boolean;
  pearl: boolean;
  aluminium: boolean;
  vehicle_type: VehicleType;
  /** Keyed by panel id. */
  panels: Record<string, PanelChoice>;
  products: ProductRow[];
  parts: string[];
  assessor_comments: string;
  manual_check: boolean;
}

/** The stored quote's choices that the form loads on entry (POST quotes/search). */
export interface SavedQuoteChoices {
  metallic?: boolean | number | null;
  pearl?: boolean | number | null;
  aluminium?: boolean | number | null;
  vehicle_type?: string | null;
  items?: Record<string, { repair_type?: string | null; category?: string | null; scratch_repair_type?: string | null } | null> | null;
  products?: readonly { value?: unknown; text?: unknown; price?: unknown }[] | null;
  parts?: readonly unknown[] | null;
  assessor_comments?: string | null;
  manual_check?: boolean | number | null;
}

export const EMPTY_PRODUCT: ProductRow = { value: '', text: '', price: '' };

const on = (flag: boolean | number | null | undefined) => flag === true || flag === 1;
const isRepairType = (v: unknown): v is RepairType => (REPAIR_TYPES as readonly unknown[]).includes(v);
const isScratchType = (v: unknown): v is ScratchRepairType => (SCRATCH_REPAIR_TYPES as readonly unknown[]).includes(v);
const isLevel = (v: unknown): v is DentLevel => (DENT_LEVELS as readonly unknown[]).includes(v);
const isVehicleType = (v: unknown): v is VehicleType => v === 'D' || v === 'L' || v === 'XL';

/** Dents and scratches of one car panel, from the evaluation's measures (keyed by car panel code). */
export interface PanelDamage {
  dents: number;
  scratches: number;
}

type LevelCounts = Partial<Record<string, number>>;
export interface Measures {
  dents?: Record<string, LevelCounts> | null;
  scratchs?: Record<string, LevelCounts> | null;
}

const total = (counts: LevelCounts | undefined) =>
  Object.values(counts ?? {}).reduce<number>((sum, n) => sum + (typeof n === 'number' && n > 0 ? n : 0), 0);

export function panelDamage(measures: Measures | null | undefined, carPanel: string | null): PanelDamage {
  if (!carPanel) return { dents: 0, scratches: 0 };
  return { dents: total(measures?.dents?.[carPanel]), scratches: total(measures?.scratchs?.[carPanel]) };
}

/**
 * The form on entry: each panel starts by the pricing rules (pdr at its threshold category, or no repair type), with a
 * scratch line at spot when it has scratches; an existing quote's choices then replace the defaults where they fit.
 */
export function initialForm(
  panels: readonly QuotePanel[],
  measures: Measures | null | undefined,
  saved?: SavedQuoteChoices | null,
): QuoteForm {
  const choices: Record<string, PanelChoice> = {};
  for (const panel of panels) {
    const damage = panelDamage(measures, panel.carPanel);
    const start: PanelChoice = { dent: initialDentChoice(panel.thresholdCategory), scratch: initialScratchRepair(damage.scratches) };
    const item = saved?.items?.[String(panel.id)];
    if (item && panel.thresholdCategory !== null && isRepairType(item.repair_type)) {
      const dent = changeRepairType(item.repair_type, panel.thresholdCategory);
      start.dent = dent.repair_type === 'pdr' && isLevel(item.category) ? changeCategory(dent, item.category) : dent;
    }
    if (item && isScratchType(item.scratch_repair_type) && scratchRepairError(item.scratch_repair_type, damage.scratches) === null)
      start.scratch = item.scratch_repair_type;
    if (!scratchLineAllowed(start.dent)) start.scratch = null;
    choices[String(panel.id)] = start;
  }
  const products = (saved?.products ?? [])
    .filter((p) => p && (typeof p.value === 'string' || typeof p.value === 'number'))
    .map((p) => ({
      value: String(p.value as string | number),
      text: typeof p.text === 'string' ? p.text : '',
      price: typeof p.price === 'number' || typeof p.price === 'string' ? String(p.price) : '',
    }));
  const vehicle = saved?.vehicle_type;
  return {
    metallic: on(saved?.metallic),
    pearl: on(saved?.pearl),
    aluminium: on(saved?.aluminium),
    vehicle_type: isVehicleType(vehicle) ? vehicle : 'D',
    panels: choices,
    // The product list always keeps at least one row.
    products: products.length ? products : [{ ...EMPTY_PRODUCT }],
    parts: normaliseParts((saved?.parts ?? []).filter((p): p is string => typeof p === 'string')),
    assessor_comments: saved?.assessor_comments ?? '',
    manual_check: on(saved?.manual_check),
  };
}

/**
 * The damage modal changed some car panels' counts and the evaluation came back with their new categories: the
 * choices of those panels follow the engine's recount rules; every other panel keeps what the assessor chose.
 */
export function recountPanels(form: QuoteForm, panels: readonly QuotePanel[], before: Measures, after: Measures): QuoteForm {
  const counts = (m: Measures, carPanel: string) => JSON.stringify([m.dents?.[carPanel] ?? {}, m.scratchs?.[carPanel] ?? {}]);
  let next = form;
  for (const panel of panels) {
    if (!panel.carPanel || counts(before, panel.carPanel) === counts(after, panel.carPanel)) continue;
    const damage = panelDamage(after, panel.carPanel);
    next = withPanel(next, panel.id, (c) => {
      const dent = recountDents(c.dent, panel.thresholdCategory);
      return { dent, scratch: scratchLineAllowed(dent) ? recountScratches(c.scratch, damage.scratches) : null };
    });
  }
  return next;
}

// ---- Toggles ----

export type Toggle = 'metallic' | 'pearl' | 'aluminium';

export const setToggle = (form: QuoteForm, toggle: Toggle, value: boolean): QuoteForm => ({ ...form, [toggle]: value });

/** Lg and XL are exclusive; turning one on picks its vehicle type, turning it off goes back to D. */
export function setLargeVehicle(form: QuoteForm, type: 'L' | 'XL', value: boolean): QuoteForm {
  if (value) return { ...form, vehicle_type: type };
  return form.vehicle_type === type ? { ...form, vehicle_type: 'D' } : form;
}

// ---- Panels ----

const withPanel = (form: QuoteForm, panelId: number, change: (c: PanelChoice) => PanelChoice): QuoteForm => {
  const key = String(panelId);
  const current = form.panels[key];
  return current ? { ...form, panels: { ...form.panels, [key]: change(current) } } : form;
};

/**
 * The assessor picks a repair type: conventional, push to paint and replacement repaint the panel, so its scratch line
 * goes; back to pdr, it returns at its default (`scratches`: the panel's scratch count).
 */
export const setRepairType = (form: QuoteForm, panel: QuotePanel, to: RepairType, scratches: number): QuoteForm =>
  withPanel(form, panel.id, (c) => {
    const dent = changeRepairType(to, panel.thresholdCategory);
    return { dent, scratch: scratchAfterDentChange(dent, dent.repair_type === c.dent.repair_type ? c.scratch : null, scratches) };
  });

export const setCategory = (form: QuoteForm, panel: QuotePanel, category: DentLevel): QuoteForm =>
  withPanel(form, panel.id, (c) => ({ ...c, dent: changeCategory(c.dent, category) }));

export const setScratchRepair = (form: QuoteForm, panel: QuotePanel, to: ScratchRepairType): QuoteForm =>
  withPanel(form, panel.id, (c) => (c.scratch === null ? c : { ...c, scratch: to }));

/** The panels the quote shows in its vehicle type (a large-variant panel only in its own type), in catalogue order. */
export const visiblePanels = (panels: readonly QuotePanel[], vehicleType: VehicleType) =>
  panels.filter((p) => panelApplies(p, vehicleType));

/**
 * One panel per car panel (the domain's rule, src/domain/quote-rules.ts): a screen without per-panel cards quotes a car
 * panel in two car views once, the one the saved quote priced (`preferred`), else the first in catalogue order.
 */
export { onePerCarPanel };

/** Panels grouped by car view (panel group), the groups in their position order; groups without panels are left out. */
export function groupByView<G extends { id: number; position?: number | null }>(panels: readonly QuotePanel[], groups: readonly G[]) {
  const ordered = [...groups].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  return ordered
    .map((group) => ({ group, panels: panels.filter((p) => p.panel_group_id === group.id) }))
    .filter((g) => g.panels.length > 0);
}

/**
 * The car views in two parts, each in view order: first every view with its damaged panels (dents or scratches, a
 * priced line, or a panel the assessor changed on this visit, so an edited panel never moves away), then every view
 * with the rest, which the screen folds behind their count.
 */
export function splitByDamage<G>(
  views: readonly { group: G; panels: readonly QuotePanel[] }[],
  measures: Measures | null | undefined,
  form: Pick<QuoteForm, 'panels'>,
  touched: ReadonlySet<number> = new Set(),
) {
  const leads = (panel: QuotePanel) => {
    const damage = panelDamage(measures, panel.carPanel);
    const choice = form.panels[String(panel.id)];
    return touched.has(panel.id) || damage.dents > 0 || damage.scratches > 0 || !!choice?.dent.repair_type || choice?.scratch != null;
  };
  const part = (keep: boolean) =>
    views.map(({ group, panels }) => ({ group, panels: panels.filter((p) => leads(p) === keep) })).filter((v) => v.panels.length > 0);
  const undamaged = part(false);
  return { damaged: part(true), undamaged, undamagedCount: undamaged.reduce((n, v) => n + v.panels.length, 0) };
}

// ---- Products ----

export const DUPLICATE_PRODUCT = DUPLICATE_PRODUCT_MESSAGE;

/** Picks a product on a row: refused (the row unchanged, the product's message) when another row already has it. */
export function chooseProduct(
  rows: readonly ProductRow[],
  index: number,
  option: ProductOption,
): { rows: ProductRow[]; error: typeof DUPLICATE_PRODUCT | null } {
  const values = rows.map((r, i) => (i === index ? option.value : r.value));
  if (repeatedProducts(values).some((i) => i === index || values[i] === option.value)) return { rows: [...rows], error: DUPLICATE_PRODUCT };
  return {
    rows: rows.map((r, i) => (i === index ? { value: option.value, text: option.text, price: String(option.price) } : r)),
    error: null,
  };
}

export const addProductRow = (rows: readonly ProductRow[]): ProductRow[] => [...rows, { ...EMPTY_PRODUCT }];

/** Removes a row, except the last one (the list keeps at least one row). */
export const removeProductRow = (rows: readonly ProductRow[], index: number): ProductRow[] =>
  rows.length <= 1 ? [...rows] : rows.filter((_, i) => i !== index);

export const setProductPrice = (rows: readonly ProductRow[], index: number, price: string): ProductRow[] =>
  rows.map((r, i) => (i === index ? { ...r, price } : r));

/** A typed price: a number ≥ 0, or null when blank or not one. */
export function parsePrice(price: string): number | null {
  if (price.trim() === '') return null;
  const n = Number(price);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** Why a row's price cannot be saved: 'required' (a product without a price), 'min' (below 0 or not a number), or null. */
export function productPriceError(row: ProductRow): 'required' | 'min' | null {
  if (!row.value) return null;
  if (row.price.trim() === '') return 'required';
  return parsePrice(row.price) === null ? 'min' : null;
}

/** The rows that carry a product (an empty row is the list's placeholder). */
export const chosenProducts = (rows: readonly ProductRow[]) => rows.filter((r) => r.value !== '');

// ---- Parts ----

/** A typed part name, trimmed; null when nothing is left. */
export const partName = (text: string): string | null => {
  const name = text.trim();
  return name ? name : null;
};

/** A part's id is its lower-cased text. */
export const partId = (name: string) => name.trim().toLowerCase();

/** Trimmed, empty ones dropped, one per id (the first spelling kept). */
export function normaliseParts(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const text of names) {
    const name = partName(text);
    if (name === null || seen.has(partId(name))) continue;
    seen.add(partId(name));
    out.push(name);
  }
  return out;
}

// ---- Vehicle photo ----

/** Only image files are accepted. */
export const isImageFile = (file: Pick<File, 'type'>) => /^image\//i.test(file.type);

// ---- Preview and body ----

/** The engine's input from the form: the panels with damage, the scan's tyre choices, the toggles, the products with a usable price. */
export function pricingOf(
  form: QuoteForm,
  panels: readonly QuotePanel[],
  client: PricingClient,
  gstPercent: number,
  tyres: readonly PricingTyre[] = [],
): QuotePricing {
  const priced: PricingPanel[] = [];
  for (const panel of panels) {
    const choice = form.panels[String(panel.id)];
    if (!choice || (choice.dent.repair_type === null && choice.scratch === null)) continue;
    priced.push({
      panel_id: panel.id,
      part_id: panel.part_id,
      type: panel.type,
      hasLargeVariant: panel.hasLargeVariant,
      dent: choice.dent,
      scratch: choice.scratch,
    });
  }
  const products = chosenProducts(form.products).map((r) => ({ price: parsePrice(r.price) ?? 0 }));
  return priceQuote({
    client,
    panels: priced,
    metallic: form.metallic,
    pearl: form.pearl,
    aluminium: form.aluminium,
    vehicle_type: form.vehicle_type,
    products,
    gst_percent: gstPercent,
    tyres,
  });
}

/** What stops a save, checked in the browser before the server does it again. */
export function formErrors(form: QuoteForm): { products?: string } | null {
  const rows = chosenProducts(form.products);
  if (rows.some((r) => productPriceError(r) !== null)) return { products: 'price' };
  if (repeatedProducts(rows.map((r) => r.value)).length) return { products: DUPLICATE_PRODUCT };
  return null;
}

export interface QuoteBodyContext {
  scanId: number;
  clientId: number;
  scanType: string;
  panels: readonly QuotePanel[];
  /** A new photo to upload (multipart part `vehicle_photo`). */
  photo: File | null;
  /** Without an agent id in the route the assessor may ask for a quote check. */
  withManualCheck: boolean;
}

/** `POST quotes` as plain values: the JSON variant of the scan page sends them as they are. */
export interface QuoteFields {
  client_id: number;
  scan_id: number;
  type: string;
  items: Record<string, QuoteItemBody>;
  assessor_comments: string;
  parts: string[];
  products: { value: string; text: string; price: number }[];
  metallic: 0 | 1;
  pearl: 0 | 1;
  aluminium: 0 | 1;
  vehicle_type: VehicleType;
  manual_check?: 0 | 1;
}

/** One panel's choices as sent: the server prices them, so no figure goes with them. */
export interface QuoteItemBody {
  category: DentLevel | null;
  repair_type: RepairType | null;
  scratch_repair_type: ScratchRepairType | null;
}

const bit = (on: boolean): 0 | 1 => (on ? 1 : 0);

/**
 * The quote's fields: client_id, scan_id, type, items keyed by panel_id (the choices of the panels with one),
 * assessor_comments, parts, products (the product, its name and the price typed), metallic, pearl, aluminium (0/1),
 * vehicle_type, and manual_check only where the screen offers it.
 */
export function quoteFields(form: QuoteForm, ctx: Omit<QuoteBodyContext, 'photo'>): QuoteFields {
  const items: Record<string, QuoteItemBody> = {};
  for (const panel of ctx.panels) {
    const choice = form.panels[String(panel.id)];
    if (!choice || (choice.dent.repair_type === null && choice.scratch === null)) continue;
    items[String(panel.id)] = {
      category: choice.dent.category,
      repair_type: choice.dent.repair_type,
      scratch_repair_type: choice.scratch,
    };
  }
  return {
    client_id: ctx.clientId,
    scan_id: ctx.scanId,
    type: ctx.scanType,
    items,
    assessor_comments: form.assessor_comments,
    parts: normaliseParts(form.parts),
    products: chosenProducts(form.products).map((r) => ({ value: r.value, text: r.text, price: parsePrice(r.price) ?? 0 })),
    metallic: bit(form.metallic),
    pearl: bit(form.pearl),
    aluminium: bit(form.aluminium),
    vehicle_type: form.vehicle_type,
    ...(ctx.withManualCheck ? { manual_check: bit(form.manual_check) } : {}),
  };
}

/**
 * `POST quotes` (the quote screen's multipart): the fields of `quoteFields` as text parts (items, parts and
 * products as JSON text) and the photo as the file `vehicle_photo`.
 */
export function quoteBody(form: QuoteForm, ctx: QuoteBodyContext): FormData {
  const f = quoteFields(form, ctx);
  const body = new FormData();
  body.append('client_id', String(f.client_id));
  body.append('scan_id', String(f.scan_id));
  body.append('type', f.type);
  if (ctx.photo) body.append('vehicle_photo', ctx.photo);
  body.append('items', JSON.stringify(f.items));
  body.append('assessor_comments', f.assessor_comments);
  body.append('parts', JSON.stringify(f.parts));
  body.append('products', JSON.stringify(f.products));
  body.append('metallic', String(f.metallic));
  body.append('pearl', String(f.pearl));
  body.append('aluminium', String(f.aluminium));
  body.append('vehicle_type', f.vehicle_type);
  if (f.manual_check !== undefined) body.append('manual_check', String(f.manual_check));
  return body;
}

/** A 422 of POST quotes names these fields: its keyed messages read with the quote screens' labels (Quote Generation, the scan page's agent viewer). */
export const QUOTE_SAVE_LABELS: Record<string, string> = {
  products: 'app.quotes.generation.add_products',
  parts: 'app.quotes.generation.add_parts',
  vehicle_photo: 'app.quotes.generation.vehicle_photo',
  assessor_comments: 'app.quotes.generation.comments',
  items: 'app.quotes.generation.details',
};
