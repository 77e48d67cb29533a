import type { DateInput } from './format';
import { centsToAmount, toCents } from './money';
import {
  type DentLevel,
  type LineStatus,
  type PricedLine,
  type QuoteTotals,
  type RepairType,
  scratchSubtotal,
  type ScratchRepairType,
  SUBTOTALS,
  type TyreChoice,
  tyreLineKey,
} from './pricing';
import type { InvoiceQuote, PricedQuote, QuotedPanel, QuotedWheel, SavedQuote } from './quote-model';
import { panelLines } from './quote-model';
import type { QuoteItem, QuoteRecordType, QuoteTyre } from './quotes';

/**
 * The quote between its model (./quote-model: the engine's lines and totals in cents) and the wire (./quotes'
 * QuoteRecord: decimals in currency units under the wire's names, `metalic_fee`, `lineTotal`, `grant_total`). The one
 * place those names and decimals are made or read: the quote service's replies, the stored `items` and `tyres` (which
 * keep the wire's shape, so quotes saved before keep their figures), and the invoice screen's reading of a record.
 */

const amount = centsToAmount;

/** The totals under the wire's names, in currency units. */
export function wireTotalsOf(t: QuoteTotals): QuoteRecordType['totals'] {
  return {
    ...(Object.fromEntries(SUBTOTALS.map((key) => [key, amount(t[key])])) as Record<(typeof SUBTOTALS)[number], number>),
    product: amount(t.product),
    sub_total: amount(t.sub_total),
    tax: amount(t.tax),
    grant_total: amount(t.grand_total),
  };
}

/** The wire's totals in cents (a record from before the Scratch / Paint and Tyres sections has neither: 0). */
export function totalsOfWire(t: WireTotals): QuoteTotals {
  return {
    pdr: toCents(t.pdr),
    conventional: toCents(t.conventional),
    p2p: toCents(t.p2p),
    replacement: toCents(t.replacement),
    paint: toCents(t.paint ?? 0),
    tyre: toCents(t.tyre ?? 0),
    product: toCents(t.product),
    sub_total: toCents(t.sub_total),
    tax: toCents(t.tax),
    grand_total: toCents(t.grant_total),
  };
}

type WireTotals = Record<RepairType | 'product' | 'sub_total' | 'tax' | 'grant_total', number> & Partial<Record<'paint' | 'tyre', number>>;

/** The quoted panels as the wire's items, keyed by panel id, each with its dent line's figures and its scratch line. */
export function wireItemsOf(q: Pick<PricedQuote, 'panels' | 'lines'>): Record<string, QuoteItem> {
  const items: Record<string, QuoteItem> = {};
  for (const panel of q.panels) {
    const { dent, scratch } = panelLines(q.lines, panel.panel_id);
    items[String(panel.panel_id)] = {
      panel_id: panel.panel_id,
      car_panel: panel.car_panel,
      label: panel.label,
      name: panel.name,
      panel_group_id: panel.panel_group_id,
      panel_group_name: panel.panel_group_name,
      type: 'dent',
      threshold_category: panel.threshold_category,
      category: dent?.category ?? null,
      repair_type: (dent?.repair_type as RepairType | undefined) ?? null,
      status: dent?.status ?? null,
      repair_fee: amount(dent?.repair_fee ?? 0),
      aluminium_fee: amount(dent?.aluminium_fee ?? 0),
      metalic_fee: amount(dent?.metallic_fee ?? 0),
      pearl_fee: amount(dent?.pearl_fee ?? 0),
      lineTotal: amount(dent?.line_total ?? 0),
      vehicle_type: panel.vehicle_type,
      hasLargeVariant: panel.hasLargeVariant,
      dents: panel.dents,
      scratchs: panel.scratchs,
      scratch: scratch
        ? {
            repair_type: scratch.repair_type as ScratchRepairType,
            status: scratch.status,
            repair_fee: amount(scratch.repair_fee),
            metalic_fee: amount(scratch.metallic_fee),
            pearl_fee: amount(scratch.pearl_fee),
            lineTotal: amount(scratch.line_total),
          }
        : null,
    };
  }
  return items;
}

/** The wheels as the wire's tyre lines, each with its line's choice and figures. */
export function wireTyresOf(q: Pick<PricedQuote, 'tyres' | 'lines'>): QuoteTyre[] {
  return q.tyres.map((t) => {
    const line = q.lines.find((l) => l.kind === 'tyre' && l.panel_id === tyreLineKey(t));
    return {
      row: t.row,
      direction: t.direction,
      label: t.label,
      repair_type: (line?.repair_type as TyreChoice | undefined) ?? 'recheck',
      status: line?.status ?? 'advisory',
      repair_fee: amount(line?.repair_fee ?? 0),
      lineTotal: amount(line?.line_total ?? 0),
      ...(t.projected_at ? { projected_at: t.projected_at } : {}),
    };
  });
}

/** A stored line's figures as the wire has them. */
interface WireFees {
  repair_fee: number;
  metalic_fee: number;
  pearl_fee: number;
  lineTotal: number;
  status: LineStatus | null;
}

/** What a panel's lines are read from: the wire item's choices and figures. */
export type WireItemLines = WireFees & {
  panel_id: number;
  label: string;
  category: DentLevel | null;
  repair_type: RepairType | null;
  aluminium_fee: number;
  scratch: (WireFees & { repair_type: ScratchRepairType }) | null;
};

type WireTyreLine = Pick<QuoteTyre, 'row' | 'direction' | 'label' | 'repair_type' | 'repair_fee' | 'lineTotal'> & {
  status: LineStatus | null;
};

/**
 * The engine's lines of a wire quote, in cents: panels in panel order, a panel's dent line before its scratch line, then
 * the wheels, as the engine makes them.
 */
export function linesOfWire(items: Record<string, WireItemLines>, tyres: readonly WireTyreLine[] = []): PricedLine[] {
  const lines: PricedLine[] = [];
  for (const item of Object.values(items).sort((a, b) => a.panel_id - b.panel_id)) {
    if (item.repair_type !== null)
      lines.push({
        panel_id: item.panel_id,
        kind: 'dent',
        repair_type: item.repair_type,
        category: item.repair_type === 'pdr' ? item.category : null,
        subtotal: item.repair_type,
        status: item.status ?? 'priced',
        repair_fee: toCents(item.repair_fee),
        aluminium_fee: toCents(item.aluminium_fee),
        metallic_fee: toCents(item.metalic_fee),
        pearl_fee: toCents(item.pearl_fee),
        line_total: toCents(item.lineTotal),
      });
    if (item.scratch)
      lines.push({
        panel_id: item.panel_id,
        kind: 'scratch',
        repair_type: item.scratch.repair_type,
        category: null,
        subtotal: scratchSubtotal(item.scratch.repair_type),
        status: item.scratch.status ?? 'priced',
        repair_fee: toCents(item.scratch.repair_fee),
        aluminium_fee: 0,
        metallic_fee: toCents(item.scratch.metalic_fee),
        pearl_fee: toCents(item.scratch.pearl_fee),
        line_total: toCents(item.scratch.lineTotal),
      });
  }
  for (const tyre of tyres)
    lines.push({
      panel_id: tyreLineKey(tyre),
      kind: 'tyre',
      repair_type: tyre.repair_type,
      category: null,
      subtotal: 'tyre',
      status: tyre.status ?? 'priced',
      repair_fee: toCents(tyre.repair_fee),
      aluminium_fee: 0,
      metallic_fee: 0,
      pearl_fee: 0,
      line_total: toCents(tyre.lineTotal),
    });
  return lines;
}

/** The quoted panels of stored items (their facts without the figures), in panel order. */
export function panelsOfWire(items: Record<string, QuoteItem>): QuotedPanel[] {
  return Object.values(items)
    .sort((a, b) => a.panel_id - b.panel_id)
    .map((i) => ({
      panel_id: i.panel_id,
      car_panel: i.car_panel,
      label: i.label,
      name: i.name,
      panel_group_id: i.panel_group_id,
      panel_group_name: i.panel_group_name,
      threshold_category: i.threshold_category,
      vehicle_type: i.vehicle_type,
      hasLargeVariant: i.hasLargeVariant,
      dents: i.dents,
      scratchs: i.scratchs,
    }));
}

const wheelOf = (t: Pick<QuoteTyre, 'row' | 'direction' | 'label' | 'projected_at'>): QuotedWheel => ({
  row: t.row,
  direction: t.direction,
  label: t.label,
  ...(t.projected_at ? { projected_at: t.projected_at } : {}),
});

/** What the stored columns hold of the priced quote, read back: the wire-shaped items, tyres and products, the totals. */
export function pricedOfStored(stored: {
  items: Record<string, QuoteItem>;
  tyres: readonly QuoteTyre[];
  totals: WireTotals;
  products: readonly { value: number; text: string; price: number }[];
  parts: readonly { text: string; value: string }[];
}): Pick<PricedQuote, 'panels' | 'tyres' | 'lines' | 'totals' | 'products' | 'parts'> {
  return {
    panels: panelsOfWire(stored.items),
    tyres: stored.tyres.map(wheelOf),
    lines: linesOfWire(stored.items, stored.tyres),
    totals: totalsOfWire(stored.totals),
    products: stored.products.map((p) => ({ value: p.value, text: p.text, price: toCents(p.price) })),
    parts: stored.parts.map((p) => ({ text: p.text, value: p.value })),
  };
}

/** The products as the wire (and the stored column) has them: prices in currency units. */
export const wireProductsOf = (products: PricedQuote['products']) =>
  products.map((p) => ({ value: p.value, text: p.text, price: amount(p.price) }));

/** A saved quote as `GET quote/quotes/{id}` and the save's reply send it (src/domain/quotes.ts QuoteRecord). */
export function quoteRecordOf(q: SavedQuote): QuoteRecordType {
  const totals = wireTotalsOf(q.totals);
  return {
    id: q.id,
    scan_id: q.scan_id,
    client_id: q.client_id,
    client_name: q.client_name,
    agent_id: q.agent_id,
    agent_name: q.agent_name,
    type: q.type,
    licensePlate: q.scan.licensePlate,
    location_state: q.scan.location_state,
    currency: q.currency,
    ...totals,
    tax_percent: q.gst_percent,
    pdf: q.pdf_url,
    status: q.status,
    revision: q.revision,
    created_at: q.created_at,
    updated_at: q.updated_at,
    items: wireItemsOf(q),
    tyres: wireTyresOf(q),
    products: wireProductsOf(q.products),
    parts: q.parts,
    assessor_comments: q.assessor_comments,
    manual_check: q.manual_check ? 1 : 0,
    metallic: q.metallic ? 1 : 0,
    pearl: q.pearl ? 1 : 0,
    aluminium: q.aluminium ? 1 : 0,
    vehicle_type: q.vehicle_type,
    vehicle_photo: q.vehicle_photo,
    pdf_url: q.pdf_url,
    pdf_path: q.pdf_key,
    proforma: null,
    totals,
    gst_percent: q.gst_percent,
    assessor: q.assessor,
    user_id: q.user_id,
    client: q.client,
    agent: q.agent,
    scan: q.scan,
    version: q.version,
    new_damage_only: q.new_damage ? 1 : 0,
    new_damage: q.new_damage
      ? {
          compared_with: new Date(q.new_damage.compared_with),
          pre_existing: q.new_damage.pre_existing,
          partly_pre_existing: q.new_damage.partly_pre_existing ?? [],
        }
      : null,
    approval: q.approval,
  };
}

/**
 * What the invoice screen reads of `GET quote/quotes/{id}` (QuoteRecord, as the browser gets it: dates as text): the
 * stored lines and totals, the toggles, products, parts, the agent block, the scan and the client.
 */
export interface QuoteInvoiceRecord {
  id: number;
  created_at: DateInput;
  updated_at?: DateInput;
  currency: string | null;
  metallic: number | boolean;
  pearl: number | boolean;
  aluminium: number | boolean;
  items: Record<string, WireItemLines>;
  /** The Tyres section's lines (absent on a record that has none). */
  tyres?: readonly WireTyreLine[];
  products: readonly { text: string; price: number }[];
  parts: readonly (string | { text: string; value?: string })[];
  totals: WireTotals;
  assessor: string | null;
  assessor_comments?: string | null;
  vehicle_photo?: string | null;
  gst_percent?: number | null;
  client: { name: string } | null;
  agent: InvoiceQuote['agent'];
  scan: InvoiceQuote['scan'];
  /** A new-damage-only quote's basis (absent or null on any other). */
  new_damage?: { compared_with: DateInput; pre_existing: string[]; partly_pre_existing?: string[] } | null;
  /** 0 for the estimate first sent, n for supplement Sn (absent on a past revision's record). */
  revision?: number;
}

/** The invoice's quote of a record the browser read: the stored figures back in cents. */
export function invoiceQuoteOfRecord(record: QuoteInvoiceRecord): InvoiceQuote {
  const flag = (v: number | boolean) => v === true || v === 1;
  const tyres = record.tyres ?? [];
  return {
    id: record.id,
    created_at: record.created_at,
    updated_at: record.updated_at,
    currency: record.currency,
    metallic: flag(record.metallic),
    pearl: flag(record.pearl),
    aluminium: flag(record.aluminium),
    panels: Object.values(record.items)
      .sort((a, b) => a.panel_id - b.panel_id)
      .map((i) => ({ panel_id: i.panel_id, label: i.label })),
    tyres: tyres.map(wheelOf),
    lines: linesOfWire(record.items, tyres),
    totals: totalsOfWire(record.totals),
    products: record.products.map((p) => ({ text: p.text, price: toCents(p.price) })),
    parts: record.parts.map((p) =>
      typeof p === 'string' ? { text: p, value: p.toLowerCase() } : { text: p.text, value: p.value ?? p.text.toLowerCase() },
    ),
    assessor: record.assessor,
    assessor_comments: record.assessor_comments ?? null,
    vehicle_photo: record.vehicle_photo ?? null,
    gst_percent: record.gst_percent ?? null,
    client: record.client,
    agent: record.agent,
    scan: record.scan,
    new_damage: record.new_damage
      ? {
          compared_with: String(record.new_damage.compared_with),
          pre_existing: record.new_damage.pre_existing,
          partly_pre_existing: record.new_damage.partly_pre_existing ?? [],
        }
      : null,
  };
}
