import { z } from 'zod';
import { toCents } from '../../domain/money';
import type { PricingClient, QuotePricing, QuoteTotals } from '../../domain/pricing';
import { DEFAULT_GST_PERCENT } from '../../domain/quote-rules';
import { linesOfWire, totalsOfWire } from '../../domain/quote-wire';
import { QuoteItemRecord, QuoteTotalsRecord, QuoteTyreRecord, type QuoteRecordType } from '../../domain/quotes';
import type { EvaluationReply, Wire } from '../../domain/records';
import type { Measures, ProductOption, QuotePanel, QuoteTyreChoice, SavedQuoteChoices } from './quoteForm';

/**
 * Reads the replies the screen starts from: `GET scans/{id}/evaluate` (the domain's `EvaluationRecord`:
 * measures, client, panels, scanInfo) and `POST quotes/search` (the scan's quote, if any).
 */

export interface ScanInfo {
  id: number;
  type: string;
  licensePlate: string;
  timestamp: string;
  agent_id: number | null;
  agent_name: string;
  client_name: string;
}

export interface QuoteClient extends PricingClient {
  id: number;
  name: string;
  currency: string;
}

export interface Evaluation {
  scan: ScanInfo;
  client: QuoteClient;
  panels: QuotePanel[];
  measures: Measures;
  /** The ids of the products and parts the client offers on its quotes (the wire's Client products, parts). */
  productIds: string[];
  partIds: string[];
  /** The agent's tyre choices on the scan (chosen on the scan page): the quote's Tyres section. */
  tyres: QuoteTyreChoice[];
  /** GST_PERCENT when the reply carries it. */
  gstPercent: number | null;
  /** When the scan has a comparison with its vehicle's previous scan: that scan's time ("Price only the new damage"). */
  comparedWith: string | null;
  /** The counts above are the comparison's gains; `preExisting` names the car panels damaged before, left at 0. */
  newDamageOnly: boolean;
  preExisting: string[];
  /** The car panels priced for their new damage only, some of it there before. */
  partlyPreExisting: string[];
}

/**
 * The quote loaded on entry (the domain's record): its id (to update it, delete its photo), photo URL and GST rate, with
 * its choices as the form reads them; its total, currency and PDF for the read-only views.
 */
export type SavedQuote = SavedQuoteChoices &
  Pick<Wire<QuoteRecordType>, 'id'> &
  Partial<
    Pick<
      Wire<QuoteRecordType>,
      | 'vehicle_photo'
      | 'gst_percent'
      | 'grant_total'
      | 'totals'
      | 'currency'
      | 'pdf_url'
      | 'version'
      | 'status'
      | 'revision'
      | 'approval'
      | 'client'
      | 'new_damage_only'
    >
  > & {
    /** The figures the quote was saved with (its lines and totals), what a reader is shown; null when the reply lacks them. */
    pricing?: QuotePricing | null;
  };

/**
 * Whether the figures priced now for the saved choices differ from the saved quote's (a price, the GST rate or the
 * catalogue changed since): any section's total, not only the grand total, since an amount can move from one section
 * to another and leave the total as it was.
 */
export function repricedSince(saved: Pick<SavedQuote, 'grant_total' | 'totals'>, now: QuoteTotals): boolean {
  const t = saved.totals;
  if (t) {
    const { grant_total, ...sections } = t;
    if (toCents(grant_total) !== now.grand_total) return true;
    return Object.entries(sections).some(([k, v]) => typeof v === 'number' && toCents(v) !== now[k as keyof QuoteTotals]);
  }
  return typeof saved.grant_total === 'number' && toCents(saved.grant_total) !== now.grand_total;
}

/** The rate the preview uses: the evaluation's, else the saved quote's, else the setting's default. */
export const previewGstPercent = (evaluation: Pick<Evaluation, 'gstPercent'>, saved: Pick<SavedQuote, 'gst_percent'> | null) =>
  evaluation.gstPercent ?? (typeof saved?.gst_percent === 'number' ? saved.gst_percent : DEFAULT_GST_PERCENT);

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : null;

/**
 * The client's products as picker options, from `products/lists` ({text, value, price}): the client's selection, in
 * the catalogue's order; a product's catalogue price is the row's starting price.
 */
export function productOptions(
  lists: readonly { text: string; value: number | string; price?: unknown }[],
  clientIds: readonly string[],
): ProductOption[] {
  const wanted = new Set(clientIds);
  return lists.filter((p) => wanted.has(String(p.value))).map((p) => ({ value: String(p.value), text: p.text, price: num(p.price) ?? 0 }));
}

/** The client's parts as names, from `parts/lists`. */
export const partOptions = (lists: readonly { text: string; value: number | string }[], clientIds: readonly string[]) => {
  const wanted = new Set(clientIds);
  return lists.filter((p) => wanted.has(String(p.value))).map((p) => p.text);
};

/** The evaluation reply as the screen uses it; null when the scan has no client (nothing to price with). */
export function toEvaluation(reply: EvaluationReply): Evaluation | null {
  const { client, scanInfo: scan } = reply;
  if (!client) return null;
  return {
    scan: {
      id: scan.id,
      type: scan.type || 'arch',
      licensePlate: scan.licensePlate ?? '',
      timestamp: scan.timestamp,
      agent_id: scan.agent_id,
      agent_name: scan.agent_name,
      client_name: scan.client_name || client.name,
    },
    client: {
      id: client.id,
      name: client.name,
      currency: client.currency || '$',
      sc_metallic: client.sc_metallic,
      sc_pearl: client.sc_pearl,
      sc_p2p: client.sc_p2p === 1,
      tyre_repair: client.tyre_repair,
      tyre_replace: client.tyre_replace,
      prices: client.prices,
    },
    panels: reply.panels.map((p) => ({
      id: p.id,
      panel_group_id: p.panel_group_id,
      label: p.label || p.name,
      carPanel: p.car_panel || null,
      part_id: p.part_id,
      type: p.type,
      hasLargeVariant: p.hasLargeVariant,
      thresholdCategory: p.thresholdCategory,
    })),
    measures: reply.measures,
    tyres: (reply.tyres ?? []).map((t) => ({ row: t.row, direction: t.direction, label: t.label, choice: t.repair_type })),
    productIds: client.products.map(String),
    partIds: client.parts.map(String),
    // GST_PERCENT as saving will use it (the server prices every save with the current rate).
    gstPercent: reply.gst_percent,
    comparedWith: reply.comparison?.compared_with ?? null,
    newDamageOnly: reply.new_damage_only,
    preExisting: reply.pre_existing,
    partlyPreExisting: reply.partly_pre_existing,
  };
}

/** The parts of a wire quote its figures are read from (src/domain/quotes.ts). */
const SavedFigures = z.object({
  items: z.record(
    z.string(),
    QuoteItemRecord.pick({
      panel_id: true,
      label: true,
      category: true,
      repair_type: true,
      status: true,
      repair_fee: true,
      aluminium_fee: true,
      metalic_fee: true,
      pearl_fee: true,
      lineTotal: true,
      scratch: true,
    }),
  ),
  tyres: z.array(
    QuoteTyreRecord.pick({ row: true, direction: true, label: true, repair_type: true, status: true, repair_fee: true, lineTotal: true }),
  ),
  totals: QuoteTotalsRecord,
});

/** A saved quote's own figures, in the engine's shape: its stored lines and totals, not its choices priced again. */
export function savedPricing(reply: unknown): QuotePricing | null {
  const figures = SavedFigures.safeParse(reply);
  if (!figures.success) return null;
  return { lines: linesOfWire(figures.data.items, figures.data.tyres), totals: totalsOfWire(figures.data.totals) };
}

/**
 * The reply of `POST quotes/search`: the scan's quote, or null when it has none. Its parts are `{text, value}` and each
 * item's scratch line is `scratch.repair_type`: read as the form keeps them.
 */
export function toSavedQuote(reply: unknown): SavedQuote | null {
  const r = obj(Array.isArray(reply) ? reply[0] : reply);
  const id = num(r.id);
  if (id === null) return null;
  const items: NonNullable<SavedQuoteChoices['items']> = {};
  for (const [key, raw] of Object.entries(obj(r.items))) {
    const item = obj(raw);
    items[key] = {
      repair_type: str(item.repair_type) || null,
      category: str(item.category) || null,
      scratch_repair_type: str(item.scratch_repair_type ?? obj(item.scratch).repair_type) || null,
    };
  }
  const parts = (Array.isArray(r.parts) ? r.parts : []).map((p) => (typeof p === 'string' ? p : str(obj(p).text))).filter(Boolean);
  const products = Array.isArray(r.products) ? (r.products as NonNullable<SavedQuoteChoices['products']>) : [];
  return { ...r, id, items, parts, products, pricing: savedPricing(r) };
}
