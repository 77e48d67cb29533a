import { formatDateTime, formatDay, type DateInput } from './format';
import { INVOICE_LABELS, invoiceLanguage, type InvoiceLabels, type InvoiceLanguage, wheelName } from './invoice-labels';
import { formatMoney, type Cents } from './money';
import type { InvoiceQuote } from './quote-model';
import {
  SUBTOTALS,
  tyreLineKey,
  type PricedLine,
  type PricingInput,
  type PricingPanel,
  type QuotePricing,
  type Subtotal,
  type TyreChoice,
} from './pricing';

/**
 * The estimate invoice ("Invoice") as a plain model: what a saved quote holds in, every figure and line
 * the invoice shows out, formatted in the client's currency and the document's language. The invoice screen and the
 * server's PDF render only this, so they agree in every figure and line. The figures are the engine's (`priceQuote`'s
 * result as the quote stored it); this only selects, orders, labels and formats them.
 */

export type { InvoiceLabels, InvoiceLanguage };

/** The agent's block: its branding and contact details as the agent record has them. */
export interface InvoiceAgentSource {
  name: string;
  logo?: string | null;
  phone?: string | null;
  abn?: string | null;
  address?: string | null;
  email?: string | null;
}

/** The vehicle and the scan, as the quote's scan has them. */
export interface InvoiceVehicleSource {
  registration?: string | null;
  make?: string | null;
  model?: string | null;
  colour?: string | null;
  body_type?: string | null;
  vin?: string | null;
  scanned_at?: DateInput;
}

/** A panel of the quote, or a wheel (keyed by tyreLineKey): its id and the label the invoice prints for it (a PricingPanel with a label fits). */
export interface InvoicePanelSource {
  panel_id: PricingPanel['panel_id'];
  label: string;
  /** A Recheck Next Visit wheel's projected day at the legal minimum (an estimate), printed on its line. */
  projected_at?: string | null;
}

/** A product of the quote: its name and its price in cents. */
export interface InvoiceProductSource {
  text: string;
  price: Cents;
}

/** What a saved quote holds that the invoice shows. */
export interface InvoiceSource {
  /** The quote's number (its id): 'ESTIMATE # 42'. */
  number: string | number;
  /** When the quote was saved. */
  date: DateInput;
  /** The document's language: 'ja' gives Japanese, anything else English. */
  language: string | null | undefined;
  /** The client's currency symbol ($ when unset). */
  currency: string | null | undefined;
  agent: InvoiceAgentSource;
  vehicle: InvoiceVehicleSource;
  assessor?: string | null;
  client?: string | null;
  /**
   * What the invoice reads of the engine's input: the toggles (its surcharge columns), the panels' labels, and the
   * products' names with their prices in cents.
   */
  pricing: Pick<PricingInput, 'metallic' | 'pearl' | 'aluminium'> & {
    panels: readonly InvoicePanelSource[];
    products: readonly InvoiceProductSource[];
  };
  /** The engine's result for that input (the stored figures). */
  result: QuotePricing;
  /** The quote's parts (names; parts carry no price). */
  parts: readonly string[];
  /** The assessor's comments, printed as typed (line breaks kept). */
  comments?: string | null;
  /** The vehicle photo's URL (the screen shows it; the PDF embeds the stored file). */
  photo?: string | null;
  /** The GST rate the quote was priced with, in percent: the GST row names it ('GST 10 %'). */
  gst_percent?: number | null;
  /** Set when the quote prices only the new damage: the previous scan's time and the pre-existing panels' labels. */
  new_damage?: { compared_with: DateInput; pre_existing: readonly string[]; partly_pre_existing?: readonly string[] } | null;
}

/** A labelled value of the agent block or the vehicle header. */
export interface InvoiceField {
  key: string;
  label: string;
  value: string;
}

/** A surcharge column; it is shown when the quote's toggle is on. */
export type InvoiceSurcharge = 'aluminium' | 'metallic' | 'pearl';

export interface InvoiceLine {
  panel_id: number | string;
  kind: PricedLine['kind'];
  /** The panel's label. */
  panel: string;
  /** What is done: the pdr category, 'Dent', 'Scratch (Paint)', or the tyre choice ('Replace', 'Recheck Next Visit'). */
  description: string;
  repair_fee: string;
  aluminium_fee: string;
  metallic_fee: string;
  pearl_fee: string;
  total: string;
  cents: { repair_fee: Cents; aluminium_fee: Cents; metallic_fee: Cents; pearl_fee: Cents; total: Cents };
}

export interface InvoiceSection {
  key: Subtotal;
  title: string;
  /** The heading of the first column: what a line is about ('Panel', or 'Wheel' in the Tyres section). */
  subject: string;
  /** The surcharge columns this section's table shows: the quote's, none for tyres (surcharges never apply to them). */
  surcharges: InvoiceSurcharge[];
  lines: InvoiceLine[];
  /** The section's subtotal (the engine's per-type total). */
  total: string;
  cents: Cents;
}

export interface InvoiceProduct {
  name: string;
  price: string;
  cents: Cents;
}

export type InvoiceTotalKey = Subtotal | 'product' | 'sub_total' | 'tax' | 'grand_total';

export interface InvoiceTotal {
  key: InvoiceTotalKey;
  label: string;
  amount: string;
  cents: Cents;
}

export interface Invoice {
  language: InvoiceLanguage;
  labels: InvoiceLabels;
  /** 'ESTIMATE # 42' */
  title: string;
  number: string;
  /** The quote's date, formatted for the language. */
  date: string;
  currency: string;
  agent: { name: string; logo: string | null; fields: InvoiceField[] };
  /** Registration, make, model, colour, body type, VIN (when known), scan date/time, assessor, agent, client. */
  vehicle: InvoiceField[];
  /** PDR, Conventional, Push to Paint, Replace, Scratch / Paint, Tyres, always all six (a section may have no lines). */
  sections: InvoiceSection[];
  products: InvoiceProduct[];
  parts: string[];
  /** The per-type totals, Products Total, Sub Total, GST, Grand Total, in that order. */
  totals: InvoiceTotal[];
  /** The assessor's comments, trimmed; null when there are none. */
  comments: string | null;
  /** The vehicle photo's URL, or null. */
  photo: string | null;
  /** A new-damage-only quote: the note the header carries, and the damaged panels left at 0 as pre-existing. */
  new_damage: { note: string; pre_existing: { panel: string; total: string }[] } | null;
}

export { invoiceLanguage, wheelName };

/** Money as the screens show it (one definition, src/domain/money.ts). */
export { formatMoney };

/**
 * A phone or business number grouped 4-3-3: '0412345678' → '0412 345 678'; digits past the tenth stay
 * with the last group ('51824460393' → '5182 446 0393'). A value with anything but digits and spaces (+61 …, dashes,
 * parentheses) is printed as typed, trimmed, since its grouping is the writer's.
 */
export function groupDigits(value: string | null | undefined): string {
  const text = (value ?? '').trim();
  const digits = text.replace(/\s+/g, '');
  if (!/^\d{5,}$/.test(digits)) return text;
  return [digits.slice(0, 4), digits.slice(4, 7), digits.slice(7)].filter(Boolean).join(' ');
}

/**
 * A percentage as the GST row prints it: 10 → '10', 7.5 → '7.5', 8.875 → '8.875': every decimal the setting may hold
 * (four), so the printed rate times the sub-total gives the printed GST.
 */
const percentText = (n: number) => String(Math.round(n * 10_000) / 10_000);

const on = (flag: boolean | number | null | undefined) => flag === true || flag === 1;
const text = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v).trim());

function lineDescription(line: PricedLine, labels: InvoiceLabels, language: InvoiceLanguage, panel?: InvoicePanelSource): string {
  if (line.kind === 'tyre' && line.repair_type === 'recheck' && panel?.projected_at)
    return labels.recheck_by.replace('{date}', formatDay(panel.projected_at, language));
  if (line.kind === 'tyre') {
    const choice = labels.tyre_choices[line.repair_type as TyreChoice] ?? line.repair_type;
    // A price of 0 is a missing price (docs/pricing.md), never a free tyre.
    return line.status === 'no-price' ? labels.tyre_no_price.replace('{choice}', choice) : choice;
  }
  if (line.kind === 'scratch') {
    const type = line.repair_type as keyof InvoiceLabels['scratch_types'];
    return `${labels.scratch} (${labels.scratch_types[type] ?? line.repair_type})`;
  }
  return line.category ? labels.categories[line.category] : labels.dent;
}

/**
 * A line's work in words where no section names its repair type (the approval page, the signed estimate, a
 * supplement's changes): 'PDR (Heavy)', 'Conventional', 'Scratch (Paint)', 'Replace' for a tyre; '' for a product,
 * whose name says it all. The invoice's words, so every document reads alike.
 */
export function lineWords(
  line: { kind: string; repair_type: string; category?: string | null },
  language: string | null | undefined,
): string {
  const labels = INVOICE_LABELS[invoiceLanguage(language)];
  if (line.kind === 'product') return '';
  if (line.kind === 'dent') {
    const type = labels.sections[line.repair_type as Subtotal] ?? line.repair_type;
    const level = line.category ? labels.categories[line.category as keyof InvoiceLabels['categories']] : undefined;
    return level ? `${type} (${level})` : type;
  }
  return lineDescription(line as PricedLine, labels, invoiceLanguage(language));
}

/** A line by its panel, wheel or product and its work: 'Right B Pillar – PDR (Heavy)', 'Paint protection'. */
export function lineName(
  line: { kind: string; label: string; repair_type: string; category?: string | null },
  language: string | null | undefined,
) {
  const words = lineWords(line, language);
  const label = line.kind === 'tyre' ? wheelName(line.label, language) : line.label;
  return words ? `${label} – ${words}` : label;
}

/** A line's evidence on the approval page: the counts of its panel's damage. */
interface LineCounts {
  kind: string;
  panel_id: number | null;
  dents: Record<string, number>;
  scratchs: Record<string, number>;
}

/**
 * The counts a line shows the customer as its evidence: a dent line its panel's dents, a scratch line its scratches. A
 * dent line whose panel has no scratch line (its repair, conventional or a replacement, covers the scratches too) shows
 * both.
 */
export function lineEvidence(
  line: LineCounts,
  lines: readonly Pick<LineCounts, 'kind' | 'panel_id'>[],
): Pick<LineCounts, 'dents' | 'scratchs'> {
  const scratchLine = lines.some((l) => l.kind === 'scratch' && l.panel_id === line.panel_id);
  return {
    dents: line.kind === 'scratch' ? {} : line.dents,
    scratchs: line.kind === 'dent' && scratchLine ? {} : line.scratchs,
  };
}

/** The invoice of a saved quote. Pure: the same source gives the same model in the browser and on the server. */
export function buildInvoice(source: InvoiceSource): Invoice {
  const language = invoiceLanguage(source.language);
  const labels = INVOICE_LABELS[language];
  const currency = source.currency || '$';
  const money = (c: Cents) => formatMoney(c, currency);
  const { pricing, result } = source;

  const panels = new Map(pricing.panels.map((p) => [String(p.panel_id), p]));
  const surcharges = (['aluminium', 'metallic', 'pearl'] as const).filter((s) => on(pricing[s]));
  const sections: InvoiceSection[] = SUBTOTALS.map((key) => ({
    key,
    title: labels.sections[key],
    subject: key === 'tyre' ? labels.wheel : labels.panel,
    surcharges: key === 'tyre' ? [] : surcharges,
    lines: [],
    total: money(result.totals[key]),
    cents: result.totals[key],
  }));
  const byKey = new Map(sections.map((s) => [s.key, s]));
  for (const line of result.lines) {
    // A large-variant panel of another vehicle type is not on this vehicle: priced 0 and not shown.
    if (line.status === 'other-vehicle-type') continue;
    const label = panels.get(String(line.panel_id))?.label ?? String(line.panel_id);
    byKey.get(line.subtotal)?.lines.push({
      panel_id: line.panel_id,
      kind: line.kind,
      panel: line.kind === 'tyre' ? wheelName(label, language) : label,
      description: lineDescription(line, labels, language, panels.get(String(line.panel_id))),
      repair_fee: money(line.repair_fee),
      aluminium_fee: money(line.aluminium_fee),
      metallic_fee: money(line.metallic_fee),
      pearl_fee: money(line.pearl_fee),
      total: money(line.line_total),
      cents: {
        repair_fee: line.repair_fee,
        aluminium_fee: line.aluminium_fee,
        metallic_fee: line.metallic_fee,
        pearl_fee: line.pearl_fee,
        total: line.line_total,
      },
    });
  }

  const products = pricing.products.map((p): InvoiceProduct => ({ name: text(p.text), price: money(p.price), cents: p.price }));

  const totalKeys: InvoiceTotalKey[] = [...SUBTOTALS, 'product', 'sub_total', 'tax', 'grand_total'];
  const totals = totalKeys.map((key): InvoiceTotal => ({
    key,
    label: labels.totals[key],
    amount: money(result.totals[key]),
    cents: result.totals[key],
  }));

  // The GST row names its rate, so a reader can check the tax against the sub-total.
  const rate = source.gst_percent;
  const tax = totals.find((t) => t.key === 'tax');
  if (tax && typeof rate === 'number' && Number.isFinite(rate) && rate >= 0) tax.label = `${tax.label} ${percentText(rate)} %`;

  const { agent, vehicle } = source;
  const field = (key: string, label: string, value: string): InvoiceField => ({ key, label, value });
  const agentFields = [
    field('phone', labels.phone, groupDigits(agent.phone)),
    field('address', labels.address, text(agent.address)),
    field('email', labels.email, text(agent.email)),
    field('abn', labels.abn, groupDigits(agent.abn)),
  ].filter((f) => f.value !== '');
  const vehicleFields = [
    field('registration', labels.registration, text(vehicle.registration)),
    field('make', labels.make, text(vehicle.make)),
    field('model', labels.model, text(vehicle.model)),
    field('colour', labels.colour, text(vehicle.colour)),
    field('body_type', labels.body_type, text(vehicle.body_type)),
    field('vin', labels.vin, text(vehicle.vin)),
    field('scan_date', labels.scan_date, formatDateTime(vehicle.scanned_at, language)),
    field('assessor', labels.assessor, text(source.assessor)),
    field('agent', labels.agent, text(agent.name)),
    field('client', labels.client, text(source.client)),
  ].filter((f) => f.key !== 'vin' || f.value !== '');

  const number = text(source.number);
  return {
    language,
    labels,
    title: `${labels.estimate} ${number}`,
    number,
    date: formatDateTime(source.date, language),
    currency,
    agent: { name: text(agent.name), logo: text(agent.logo) || null, fields: agentFields },
    vehicle: vehicleFields,
    sections,
    products,
    parts: source.parts.map(text).filter(Boolean),
    totals,
    comments: text(source.comments) || null,
    photo: text(source.photo) || null,
    new_damage: source.new_damage
      ? {
          note: labels.new_damage_only.replace('{date}', formatDay(source.new_damage.compared_with, language)),
          // A panel priced for its new damage only is listed too: the rest of its damage was there before.
          pre_existing: [
            ...source.new_damage.pre_existing.map((panel) => ({ panel, total: money(0) })),
            ...(source.new_damage.partly_pre_existing ?? []).map((panel) => ({ panel, total: labels.new_damage_part })),
          ],
        }
      : null,
  };
}

/** Every text the invoice prints, in reading order (the PDF picks its font from these; tests compare the renderers). */
export function invoiceTexts(invoice: Invoice): string[] {
  const { labels } = invoice;
  return [
    invoice.title,
    invoice.date,
    invoice.agent.name,
    ...invoice.agent.fields.flatMap((f) => [f.label, f.value]),
    ...invoice.vehicle.flatMap((f) => [f.label, f.value]),
    ...(invoice.new_damage
      ? [invoice.new_damage.note, labels.pre_existing, ...invoice.new_damage.pre_existing.flatMap((p) => [p.panel, p.total])]
      : []),
    labels.description,
    labels.repair_fee,
    labels.aluminium_fee,
    labels.metallic_fee,
    labels.pearl_fee,
    labels.amount,
    ...invoice.sections.flatMap((s) => [
      s.title,
      s.subject,
      s.total,
      ...s.lines.flatMap((l) => [l.panel, l.description, l.repair_fee, l.aluminium_fee, l.metallic_fee, l.pearl_fee, l.total]),
    ]),
    labels.products,
    labels.product,
    labels.price,
    ...invoice.products.flatMap((p) => [p.name, p.price]),
    labels.parts,
    ...invoice.parts,
    labels.vehicle_photo,
    labels.comments,
    invoice.comments ?? '',
    labels.totals_title,
    ...invoice.totals.flatMap((t) => [t.label, t.amount]),
  ];
}

// ---- A saved quote ----

/**
 * The invoice source of a saved quote (./quote-model, every figure in cents), in `language` (the screen's interface
 * language; by default the agent's, as the PDF is made). Lines are in panel order, a panel's dent line before its
 * scratch line, then the wheels, as the engine makes them.
 */
export function invoiceSourceOfQuote(quote: InvoiceQuote, language?: string | null): InvoiceSource {
  const order = new Map(quote.panels.map((p, i) => [String(p.panel_id), i]));
  const rank = (l: PricedLine) => (l.kind === 'tyre' ? Number.MAX_SAFE_INTEGER : (order.get(String(l.panel_id)) ?? -1));
  const lines = [...quote.lines].sort((a, b) => rank(a) - rank(b));
  return {
    number: quote.id,
    date: quote.updated_at ?? quote.created_at,
    language: language ?? quote.agent.language,
    currency: quote.currency,
    agent: quote.agent,
    vehicle: {
      registration: quote.scan.licensePlate,
      make: quote.scan.make,
      model: quote.scan.model,
      colour: quote.scan.carColor,
      body_type: quote.scan.body_type ?? null,
      vin: quote.scan.vin ?? null,
      scanned_at: quote.scan.timestamp,
    },
    assessor: quote.assessor,
    client: quote.client?.name ?? null,
    pricing: {
      metallic: quote.metallic,
      pearl: quote.pearl,
      aluminium: quote.aluminium,
      panels: [
        ...quote.panels.map((p) => ({ panel_id: p.panel_id, label: p.label })),
        ...quote.tyres.map((tyre) => ({ panel_id: tyreLineKey(tyre), label: tyre.label, projected_at: tyre.projected_at ?? null })),
      ],
      products: quote.products,
    },
    result: { lines, totals: quote.totals },
    parts: quote.parts.map((p) => p.text),
    comments: quote.assessor_comments,
    photo: quote.vehicle_photo,
    gst_percent: quote.gst_percent,
    new_damage: quote.new_damage ?? null,
  };
}
