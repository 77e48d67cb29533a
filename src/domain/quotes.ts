import { QUOTE_STATUSES, QuoteApprovalRecord } from './quote-approval';
import { z } from 'zod';
import { versionField } from './versions';
import { AU_STATES } from './locations';
import { DENT_LEVELS, LINE_STATUSES, REPAIR_TYPES, SCRATCH_REPAIR_TYPES, TYRE_CHOICES } from './pricing';
import { contactFields, PricingClientRecord, ScanItemRecord } from './records';
import { SCAN_TYPE_IDS } from './scan-codes';
import { countedDate, orderedDays, scanDate } from './scans';
import { messages } from './messages';
import { safeString, singleLine, fromDecimalText } from './text';

/**
 * Quotes on the wire: the bodies of `POST quotes` (the quote screen's multipart and the scan page's
 * JSON variant) and the record the server sends back. Shared by the server (validation, replies) and the quote screens
 * (types). Every figure in a record is the server's, computed by the pricing engine (./pricing) on save.
 */

/** The product picker's rule, with the product's wording (./quote-rules). */
export { DUPLICATE_PRODUCT_MESSAGE } from './quote-rules';
export const QUOTE_VEHICLE_TYPES = ['D', 'L', 'XL'] as const;

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** A multipart part carries JSON as text (items, products, parts): parsed before validation; bad JSON stays a string and fails. */
const jsonText = (v: unknown) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
};

const id = (label: string) =>
  fromDecimalText(
    z
      .number({ error: `${label} must be an id` })
      .int(`${label} must be an id`)
      .positive(`${label} must be an id`)
      .max(Number.MAX_SAFE_INTEGER, `${label} must be an id`),
  );

/** A 0/1 toggle: 0, 1, booleans, or their text forms (multipart sends text); absent is 0. */
const flag = (label: string) =>
  z.preprocess(
    (v) => {
      if (v === undefined || v === null || v === '') return 0;
      if (v === true || v === 'true' || v === '1' || v === 1) return 1;
      if (v === false || v === 'false' || v === '0' || v === 0) return 0;
      return v;
    },
    z.union([z.literal(0), z.literal(1)], { error: `${label} must be 0 or 1` }),
  );

/**
 * One panel's choices (the wire's Quote item). The figures the browser shows (repair_fee, lineTotal…) and its labels
 * may come along and are ignored: the server recomputes them. `scratch_repair_type` is the scratch line's type
 * (our decision); absent, a panel with scratches starts at spot.
 */
export const quoteItemInput = z.looseObject({
  repair_type: z.preprocess(blankToUndefined, z.enum(REPAIR_TYPES, { error: 'The selected repair type is invalid' }).nullish()),
  category: z.preprocess(blankToUndefined, z.enum(DENT_LEVELS, { error: 'The selected category is invalid' }).nullish()),
  scratch_repair_type: z.preprocess(
    blankToUndefined,
    z.enum(SCRATCH_REPAIR_TYPES, { error: 'The selected scratch repair type is invalid' }).nullish(),
  ),
});

const price = fromDecimalText(
  z
    .number({ error: 'Price must be a number' })
    .refine((n) => Number.isFinite(n), 'Price must be a number')
    .min(0, 'Price must be at least 0')
    // 200 products at most, plus GST of up to 100 %, stay within the quote's totals (numeric(12,2): under 10^10).
    .max(9_999_999.99, 'Price must be at most 9999999.99'),
);

/** A product row of the quote: the catalogue product (`value`) at the price the assessor typed (≥ 0). */
export const quoteProductInput = z.looseObject({
  value: id('Product'),
  text: z.preprocess(blankToUndefined, singleLine('Product').max(255).optional()),
  price,
});

/** A part of the quote: typed text or `{text, value}`; trimmed, never empty; its id is the lower-cased text. */
export const quotePartInput = z
  .preprocess(
    // `{text, value}` is read as its text; the text's own rules then name what is wrong (a line break, a NUL byte).
    (p) => (p !== null && typeof p === 'object' && !Array.isArray(p) ? (p as { text?: unknown }).text : p),
    singleLine('Part', { error: 'Part must be a text' }),
  )
  .transform((p) => p.trim())
  .refine((text) => text.length > 0, 'Part must not be empty')
  .refine((text) => text.length <= 255, 'Part must be at most 255 characters')
  .transform((text) => ({ text, value: text.toLowerCase() }));

/** `POST quotes`: the quote screen's multipart (text parts, JSON members as text, `vehicle_photo` a file) or the scan page's JSON. */
export const quoteBody = z.object({
  scan_id: id('Scan'),
  client_id: id('Client'),
  type: z.preprocess(blankToUndefined, z.enum(SCAN_TYPE_IDS, { error: 'The selected type is invalid' }).default('arch')),
  items: z.preprocess(
    (v) => jsonText(blankToUndefined(v)) ?? {},
    z.record(z.string(), quoteItemInput, { error: 'Items must be an object keyed by panel id' }),
  ),
  products: z.preprocess(
    (v) => jsonText(blankToUndefined(v)) ?? [],
    z.array(quoteProductInput, { error: 'Products must be a list' }).max(200, messages.maxItems('Products', 200)),
  ),
  parts: z.preprocess(
    (v) => {
      const parsed = jsonText(blankToUndefined(v)) ?? [];
      // A repeated multipart text part arrives as a list of texts already; one part as its text.
      return typeof parsed === 'string' ? [parsed] : parsed;
    },
    z.array(quotePartInput, { error: 'Parts must be a list' }).max(200, messages.maxItems('Parts', 200)),
  ),
  assessor_comments: z.preprocess(
    blankToUndefined,
    safeString('Comments').max(5000, 'Comments must be at most 5000 characters').optional(),
  ),
  manual_check: flag('Request quote check'),
  metallic: flag('Metallic'),
  pearl: flag('Pearl'),
  aluminium: flag('Aluminium'),
  vehicle_type: z.preprocess(blankToUndefined, z.enum(QUOTE_VEHICLE_TYPES, { error: 'The selected vehicle type is invalid' }).default('D')),
  /** 1: price only what the scan gained since the vehicle's previous scan (its stored comparison). */
  new_damage_only: flag('Price only the new damage'),
  /** A new photo (multipart file); a text value (the current URL echoed back) keeps the stored one. */
  vehicle_photo: z.unknown().optional(),
  /** The scan page's variant sends its scan details along; the server reads the scan itself. */
  scan_details: z.unknown().optional(),
  /** The quote's version the form was made from; 0 when the scan had no quote yet. */
  version: versionField,
});
export type QuoteBody = z.output<typeof quoteBody>;

/** `PUT quotes/{id}/manual_check`: the 'Request quote check' box of the scan page's normal viewer, 0 or 1. */
export const quoteManualCheckBody = z.object({
  manual_check: z.preprocess(
    (v) => (v === true || v === '1' ? 1 : v === false || v === '0' ? 0 : v),
    z.union([z.literal(0), z.literal(1)], { error: 'Request quote check must be 0 or 1' }),
  ),
});

/** `POST quotes/search {scan_id}`: the scan's quote, or null. */
export const quoteSearchBody = z.object({ scan_id: id('Scan') });

const optionalId = (label: string) => z.preprocess(blankToUndefined, id(label).optional());

/** `GET quotes` and `GET quotes/export-quote-report` filters (the wire's Quote filter). */
export const quoteFilterQuery = z.object({
  q: z.preprocess(blankToUndefined, safeString('Search').trim().max(200).optional()),
  ts: z.preprocess(blankToUndefined, scanDate('Start date').optional()),
  te: z.preprocess(blankToUndefined, scanDate('End date').optional()),
  type: z.preprocess(blankToUndefined, z.enum(SCAN_TYPE_IDS, { error: 'The selected type is invalid' }).optional()),
  agent_id: optionalId('Agent'),
  client_id: optionalId('Client'),
  location_state: z.preprocess(
    blankToUndefined,
    z.enum(AU_STATES.map((s) => s.id) as [string, ...string[]], { error: 'The selected location state is invalid' }).optional(),
  ),
});
export type QuoteFilters = z.output<typeof quoteFilterQuery>;

/**
 * `GET quotes/approval-statistics`: the dashboard's filters (agent, client, location; ts and td, Melbourne days or
 * times, td inclusive). The links counted are those sent within the range.
 */
export const approvalStatisticsQuery = z
  .object({
    agent_id: optionalId('Agent'),
    client_id: optionalId('Client'),
    location_id: optionalId('Location'),
    ts: z.preprocess(blankToUndefined, countedDate('Start date').optional()),
    td: z.preprocess(blankToUndefined, countedDate('End date').optional()),
  })
  .refine(...orderedDays('ts', 'td'));
export type ApprovalStatisticsQuery = z.output<typeof approvalStatisticsQuery>;

/** Columns the quotes list sorts by (the server sorts the whole result; resources.ts lists the same). */
export const QUOTE_SORTABLE = [
  'created_at',
  'licensePlate',
  'pdr',
  'conventional',
  'replacement',
  'p2p',
  'paint',
  'tyre',
  'product',
  'tax',
  'grant_total',
] as const;

// ---- Records ----

const money = z.number();
const Level = z.enum(DENT_LEVELS);
const LineStatus = z.enum(LINE_STATUSES);

/** A panel's line as stored and sent (the wire's Quote item, the wire names: metalic_fee, lineTotal), amounts in currency units. */
export const QuoteItemRecord = z.object({
  panel_id: z.number(),
  car_panel: z.string().nullable(),
  label: z.string(),
  name: z.string(),
  panel_group_id: z.number(),
  panel_group_name: z.string().nullable(),
  type: z.literal('dent'),
  /** The panel's computed category from the scan's counts (the client's method); null without dents. */
  threshold_category: Level.nullable(),
  category: Level.nullable(),
  repair_type: z.enum(REPAIR_TYPES).nullable(),
  status: LineStatus.nullable(),
  repair_fee: money,
  aluminium_fee: money,
  metalic_fee: money,
  pearl_fee: money,
  lineTotal: money,
  /** The panel's type (D, L, XL) and whether it is a large variant (priced only in its vehicle type). */
  vehicle_type: z.enum(QUOTE_VEHICLE_TYPES),
  hasLargeVariant: z.boolean(),
  dents: z.record(z.string(), z.number()),
  scratchs: z.record(z.string(), z.number()),
  /** The scratch line: null when the panel has no scratches. */
  scratch: z
    .object({
      repair_type: z.enum(SCRATCH_REPAIR_TYPES),
      status: LineStatus,
      repair_fee: money,
      metalic_fee: money,
      pearl_fee: money,
      lineTotal: money,
    })
    .nullable(),
});

/**
 * A tyre line of the quote's Tyres section: the wheel (row 1 is the front, L or R) with its label ('FRONT LEFT'), the
 * agent's choice, and its figures (Recheck Next Visit is advisory, at 0).
 */
export const QuoteTyreRecord = z.object({
  row: z.number(),
  direction: z.enum(['L', 'R']),
  label: z.string(),
  repair_type: z.enum(TYRE_CHOICES),
  status: LineStatus,
  repair_fee: money,
  lineTotal: money,
  /** Recheck Next Visit: the projected day ('YYYY-MM-DD') the wheel reaches the legal minimum, an estimate; absent when none. */
  projected_at: z.string().nullable().optional(),
});
export type QuoteTyre = z.infer<typeof QuoteTyreRecord>;

export const QuoteTotalsRecord = z.object({
  pdr: money,
  conventional: money,
  p2p: money,
  replacement: money,
  /** Scratch / Paint: the scratch lines of repair type spot or paint. */
  paint: money,
  tyre: money,
  product: money,
  sub_total: money,
  tax: money,
  grant_total: money,
});

/** The scan a quote belongs to, as the invoice heads it. */
export const QuoteScanRecord = ScanItemRecord.pick({
  id: true,
  scan_id: true,
  licensePlate: true,
  make: true,
  model: true,
  carColor: true,
  body_type: true,
  timestamp: true,
  location_state: true,
  type: true,
  status: true,
});

/** The agent block of the invoice (Invoice). */
export const QuoteAgentRecord = z.object({
  id: z.number(),
  name: z.string(),
  ...contactFields,
  language: z.string().nullable(),
});

/** The client as the quote was priced (the snapshot): surcharges, currency and contact as they were. */
export const QuoteClientRecord = PricingClientRecord.omit({
  calculation_method: true,
  sc_threshold: true,
  weighted_no: true,
  products: true,
  parts: true,
  prices: true,
});

/** A quotes list row (the wire's Quote list row, plus what its actions need). */
export const QuoteListRecord = z.object({
  id: z.number(),
  scan_id: z.number(),
  client_id: z.number(),
  client_name: z.string().nullable(),
  agent_id: z.number(),
  agent_name: z.string().nullable(),
  type: z.string(),
  licensePlate: z.string().nullable(),
  location_state: z.string().nullable(),
  currency: z.string(),
  pdr: money,
  conventional: money,
  replacement: money,
  p2p: money,
  paint: money,
  tyre: money,
  product: money,
  sub_total: money,
  tax: money,
  /** The GST rate the quote was priced with (the list's GST column shows it as the product names it). */
  tax_percent: z.number(),
  grant_total: money,
  /** The PDF's URL when one was made, else null (the list's PDF action shows only then). */
  pdf: z.string().nullable(),
  /** Draft until sent for approval, then the customer's answer or the link's end (src/domain/quote-approval.ts). */
  status: z.enum(QUOTE_STATUSES),
  /** The current revision: 0 the original estimate, n the supplement Sn (src/domain/quote-revisions.ts). */
  revision: z.number().int(),
  created_at: z.date(),
  updated_at: z.date(),
});

/** A new-damage-only quote's basis: the previous scan's time and the damaged panels left at 0 as pre-existing. */
export const NewDamageBasisRecord = z.object({
  compared_with: z.date(),
  pre_existing: z.array(z.string()),
  /** The panels priced for their new damage only, some of it there before ([] on quotes saved before it was kept). */
  partly_pre_existing: z.array(z.string()),
});

/** One quote with everything the generation screen, the invoice and the PDF need (the wire's Quote). */
export const QuoteRecord = QuoteListRecord.extend({
  items: z.record(z.string(), QuoteItemRecord),
  /** The Tyres section: a line per wheel the agent chose for, in wheel order. */
  tyres: z.array(QuoteTyreRecord),
  products: z.array(z.object({ value: z.number(), text: z.string(), price: money })),
  parts: z.array(z.object({ text: z.string(), value: z.string() })),
  assessor_comments: z.string().nullable(),
  manual_check: z.number(),
  metallic: z.number(),
  pearl: z.number(),
  aluminium: z.number(),
  vehicle_type: z.enum(QUOTE_VEHICLE_TYPES),
  vehicle_photo: z.string().nullable(),
  pdf_url: z.string().nullable(),
  pdf_path: z.string().nullable(),
  /** The scan page's variant may open a proforma: none is made (always null), kept for the wire shape. */
  proforma: z.string().nullable(),
  totals: QuoteTotalsRecord,
  gst_percent: z.number(),
  assessor: z.string().nullable(),
  user_id: z.number().nullable(),
  client: QuoteClientRecord,
  agent: QuoteAgentRecord,
  scan: QuoteScanRecord,
  /** The quote's version (src/domain/versions.ts), sent back with the next save. */
  version: z.number().int(),
  /** 1 when it prices only the new damage; `new_damage` then says what it was compared with. */
  new_damage_only: z.number(),
  new_damage: NewDamageBasisRecord.nullable(),
  /** The latest approval link sent (never its token), or null. */
  approval: QuoteApprovalRecord.nullable(),
});
export type QuoteRecordType = z.infer<typeof QuoteRecord>;
export type QuoteListRow = z.infer<typeof QuoteListRecord>;
export type QuoteItem = z.infer<typeof QuoteItemRecord>;
