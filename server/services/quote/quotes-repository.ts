import { type RawBuilder, sql } from 'kysely';
import type { DataScope } from '../../../src/domain/permissions';
import { isDateOnly } from '../../../src/domain/scan-codes';
import { DISPLAY_TIME_ZONE } from '../../../src/domain/formats';
import type { PricedQuote, SavedQuote } from '../../../src/domain/quote-model';
import { pricedOfStored, wireItemsOf, wireProductsOf, wireTotalsOf, wireTyresOf } from '../../../src/domain/quote-wire';
import type { QuoteFilters, QuoteItem, QuoteListRow, QuoteTyre } from '../../../src/domain/quotes';
import type { Executor } from '../../db/database';
import { idArray, type ScopeRule, scopePredicate } from '../../lib/resource';
import { fileUrl } from '../../lib/storage';
import type { QuoteApprovalRecord } from '../../../src/domain/quote-approval';

/** A link's row as Quote Generation reads it: the signed PDF as a file link (signed for the reader on the way out). */
const approvalRecordOf = ({ signed_pdf_key, ...a }: NonNullable<QuoteRaw['approval']>): QuoteApprovalRecord => ({
  ...a,
  signed_pdf_url: signed_pdf_key ? fileUrl(signed_pdf_key) : null,
});

/**
 * Every SQL statement of the quotes, each taking a connection or a transaction. A quote carries its
 * scan's agent (a scan never changes agent) and the client it was priced for, so the scope and the agent and client
 * filters read the quote's own indexed columns; the registration and the location state are the scan's.
 */

import { quoteScope } from '../../lib/scan-scope';
/** The scan a quote is made from, seen through the same rule (its own agent and client). */
export const scanOfQuoteScope: ScopeRule = {
  agent: (ids) => sql<boolean>`s.agent_id = any(${idArray(ids)})`,
  client: (ids) => sql<boolean>`s.client_id = any(${idArray(ids)})`,
};

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const hasOffset = (s: string) => /(Z|[+-]\d{2}:?\d{2})$/.test(s);
const instant = (s: string) =>
  hasOffset(s) ? sql`${s}::timestamptz` : sql`(${s.replace('T', ' ')}::timestamp at time zone ${DISPLAY_TIME_ZONE})`;

/** The WHERE of the list and the export, and whether it reads the scan (registration, state). */
export interface QuoteSelection {
  where: RawBuilder<boolean>;
  joinsScan: boolean;
}

/**
 * The scope, then each filter: ts/te on the quote's creation (Melbourne wall-clock dates and times as the scan list,
 * te inclusive), type, agent, client, the scan's location state, and q: a registration prefix (spaces and dashes
 * ignored) or part of the client's or agent's name (looked up first, so each branch is an indexed id list or prefix).
 */
export async function quoteSelection(db: Executor, scope: DataScope, f: QuoteFilters): Promise<QuoteSelection> {
  const parts: RawBuilder<boolean>[] = [scopePredicate(scope, quoteScope)];
  let joinsScan = false;
  if (f.agent_id !== undefined) parts.push(sql<boolean>`q.agent_id = ${f.agent_id}`);
  if (f.client_id !== undefined) parts.push(sql<boolean>`q.client_id = ${f.client_id}`);
  if (f.type) parts.push(sql<boolean>`q.type = ${f.type}`);
  if (f.ts) parts.push(sql<boolean>`q.created_at >= ${instant(f.ts)}`);
  if (f.te) {
    const hi = isDateOnly(f.te)
      ? sql`((${f.te}::date + 1)::timestamp at time zone ${DISPLAY_TIME_ZONE})`
      : hasOffset(f.te)
        ? sql`(${f.te}::timestamptz + '1 microsecond'::interval)`
        : sql`(${instant(f.te)} + ${/\d{2}:\d{2}:\d{2}/.test(f.te) ? '1 second' : '1 minute'}::interval)`;
    parts.push(sql<boolean>`q.created_at < ${hi}`);
  }
  if (f.location_state) {
    joinsScan = true;
    parts.push(sql<boolean>`s.location_state = ${f.location_state}`);
  }
  if (f.q) {
    joinsScan = true;
    const plate = f.q
      .toUpperCase()
      .replace(/[\s-]+/g, '')
      .toLowerCase();
    const named = (table: 'clients' | 'agents') =>
      sql<{ id: number }>`select id from ${sql.table(table)} where name ilike ${`%${escapeLike(f.q!)}%`} limit 1000`.execute(db);
    const [clients, agents] = await Promise.all([named('clients'), named('agents')]);
    const branches: RawBuilder<boolean>[] = [];
    if (plate) branches.push(sql<boolean>`lower(s.license_plate) like ${`${escapeLike(plate)}%`}`);
    if (clients.rows.length) branches.push(sql<boolean>`q.client_id = any(${idArray(clients.rows.map((r) => r.id))})`);
    if (agents.rows.length) branches.push(sql<boolean>`q.agent_id = any(${idArray(agents.rows.map((r) => r.id))})`);
    parts.push(branches.length ? sql<boolean>`(${sql.join(branches, sql` or `)})` : sql<boolean>`false`);
  }
  return { where: sql<boolean>`${sql.join(parts, sql` and `)}`, joinsScan };
}

const listColumns = sql`q.id, q.scan_id, q.client_id, c.name as client_name, q.agent_id, a.name as agent_name, q.type,
  s.license_plate as "licensePlate", s.location_state, q.currency, q.pdr, q.conventional, q.replacement, q.p2p, q.paint, q.tyre, q.product,
  q.sub_total, q.tax, q.gst_percent::float8 as tax_percent, q.grant_total, q.pdf_key, q.status, q.revision, q.created_at, q.updated_at`;
const listJoins = sql`join scans s on s.id = q.scan_id join agents a on a.id = q.agent_id left join clients c on c.id = q.client_id`;

type ListRowRaw = Omit<QuoteListRow, 'pdf'> & { pdf_key: string | null };
const toListRow = ({ pdf_key, ...r }: ListRowRaw): QuoteListRow => ({ ...r, pdf: pdf_key ? fileUrl(pdf_key) : null });

/** Sort keys (QUOTE_SORTABLE) -> their expressions; created_at and id break ties so paging is stable. */
const SORT: Record<string, RawBuilder<unknown>> = {
  created_at: sql`q.created_at`,
  licensePlate: sql`s.license_plate`,
  pdr: sql`q.pdr`,
  conventional: sql`q.conventional`,
  replacement: sql`q.replacement`,
  p2p: sql`q.p2p`,
  paint: sql`q.paint`,
  tyre: sql`q.tyre`,
  product: sql`q.product`,
  tax: sql`q.tax`,
  grant_total: sql`q.grant_total`,
};

/**
 * A page: the page's ids read on the (created_at, id) index (or a filter's own index) with the scan joined only when
 * a filter or the sort needs it, then the names; the total (exact up to EXACT_COUNT_LIMIT) alongside.
 */
export async function listQuotes(
  db: Executor,
  sel: QuoteSelection,
  page: { page: number; per_page: number; sort: string; order: 'asc' | 'desc' },
) {
  const offset = (page.page - 1) * page.per_page;
  const dir = sql.raw(page.order === 'asc' ? 'asc' : 'desc');
  const key = SORT[page.sort] ?? SORT.created_at;
  const needsScan = sel.joinsScan || page.sort === 'licensePlate';
  const scanJoin = needsScan ? sql`join scans s on s.id = q.scan_id` : sql``;
  const order =
    page.sort === 'created_at' || !SORT[page.sort]
      ? sql`q.created_at ${dir}, q.id ${dir}`
      : sql`${key} ${dir} nulls last, q.created_at desc, q.id desc`;
  const outerOrder =
    page.sort === 'created_at' || !SORT[page.sort]
      ? sql`p.created_at ${dir}, p.id ${dir}`
      : sql`p.k ${dir} nulls last, p.created_at desc, p.id desc`;
  const [rows, count] = await Promise.all([
    sql<ListRowRaw>`select ${listColumns}
      from (select q.id, q.created_at, ${key} as k from quotes q ${scanJoin} where ${sel.where} order by ${order}
            limit ${page.per_page} offset ${offset}) p
      join quotes q on q.id = p.id ${listJoins}
      order by ${outerOrder}`.execute(db),
    countQuotes(db, sel),
  ]);
  return { items: rows.rows.map(toListRow), total: count.total, total_is_estimate: count.estimate };
}

/** Totals are exact up to this many quotes; beyond it the planner's estimate answers (as the scan list: "about N"). */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * A selection's total: the planner's estimate when it expects more than EXACT_COUNT_LIMIT quotes (counting 200,000
 * rows costs more than the page itself), else an exact count reading at most EXACT_COUNT_LIMIT + 1 of them (and the
 * estimate again when there are more: the planner was low).
 */
async function countQuotes(db: Executor, sel: QuoteSelection): Promise<{ total: number; estimate: boolean }> {
  const from = sql`from quotes q ${sel.joinsScan ? sql`join scans s on s.id = q.scan_id` : sql``} where ${sel.where}`;
  const plan = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`explain (format json) select 1 ${from}`.execute(db);
  const planned = Math.round(plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows']);
  if (planned > EXACT_COUNT_LIMIT) return { total: planned, estimate: true };
  const r = await sql<{ n: number }>`select count(*)::int as n from (select 1 ${from} limit ${EXACT_COUNT_LIMIT + 1}) x`.execute(db);
  const n = r.rows[0].n;
  if (n <= EXACT_COUNT_LIMIT) return { total: n, estimate: false };
  return { total: Math.max(planned, EXACT_COUNT_LIMIT + 1), estimate: true };
}

/** An export row: the list row and its Melbourne wall-clock creation time ('YYYY-MM-DDTHH:mm:ss'); as stored, and as the list words it. */
export type StoredQuoteExportRow = ListRowRaw & { local_iso: string };
export type QuoteExportRow = QuoteListRow & { local_iso: string };

/** The export's rows as stored, in list order (newest first), for server/lib/report-file.ts to read in batches. */
export const quoteExportRows = (where: RawBuilder<boolean>) =>
  sql<StoredQuoteExportRow>`select ${listColumns},
      to_char(q.created_at at time zone ${DISPLAY_TIME_ZONE}, 'YYYY-MM-DD"T"HH24:MI:SS') as local_iso
    from quotes q ${listJoins} where ${where} order by q.created_at desc, q.id desc`;

/** A stored export row as the list words it. */
export function toQuoteExportRow({ local_iso, ...rest }: StoredQuoteExportRow): QuoteExportRow {
  return { ...toListRow(rest), local_iso };
}

/** How many quotes a selection holds, reading at most `limit` + 1. */
export async function countQuotesUpTo(db: Executor, sel: QuoteSelection, limit: number) {
  const r = await sql<{ n: number }>`select count(*)::int as n from (select 1 from quotes q
      ${sel.joinsScan ? sql`join scans s on s.id = q.scan_id` : sql``} where ${sel.where} limit ${limit + 1}) x`.execute(db);
  return r.rows[0].n;
}

interface QuoteRaw extends ListRowRaw {
  items: Record<string, QuoteItem>;
  tyres: QuoteTyre[];
  products: { value: number; text: string; price: number }[];
  parts: { text: string; value: string }[];
  assessor_comments: string | null;
  manual_check: boolean;
  metallic: boolean;
  pearl: boolean;
  aluminium: boolean;
  version: number;
  vehicle_type: SavedQuote['vehicle_type'];
  vehicle_photo: string | null;
  gst_percent: number;
  assessor: string | null;
  user_id: number | null;
  client_snapshot: SavedQuote['client'];
  agent: SavedQuote['agent'];
  scan: Omit<SavedQuote['scan'], 'timestamp'> & { timestamp: string };
  new_damage: { compared_with: string; pre_existing: string[]; partly_pre_existing?: string[] } | null;
  approval: (Omit<QuoteApprovalRecord, 'signed_pdf_url'> & { signed_pdf_key: string | null }) | null;
}

/**
 * One saved quote, inside the scope when one is given: its figures in cents. The money columns and the wire-shaped
 * `items`, `tyres` and `products` are read back through the quote's wire mapping (src/domain/quote-wire.ts).
 */
export async function findQuote(db: Executor, id: number, scope?: DataScope): Promise<SavedQuote | null> {
  const visible = scope ? scopePredicate(scope, quoteScope) : sql<boolean>`true`;
  const r = await sql<QuoteRaw>`select ${listColumns}, q.items, q.tyres, q.products, q.parts, q.assessor_comments,
      q.manual_check, q.metallic, q.pearl, q.aluminium, q.version, q.new_damage,
      q.vehicle_type, q.vehicle_photo, q.gst_percent::float8 as gst_percent, q.assessor, q.user_id, q.client_snapshot,
      json_build_object('id', a.id, 'name', a.name, 'logo', a.logo, 'phone', a.phone, 'address', a.address, 'email', a.email,
        'abn', a.abn, 'language', a.language) as agent,
      json_build_object('id', s.id, 'scan_id', s.scan_id, 'licensePlate', s.license_plate, 'make', s.make, 'model', s.model,
        'carColor', s.car_color, 'body_type', s.body_type, 'timestamp', s.scanned_at, 'location_state', s.location_state, 'type', s.type, 'status', s.status) as scan,
      (select json_build_object('id', l.id, 'revision', l.revision, 'recipient', l.recipient, 'sent_at', l.sent_at, 'expires_at', l.expires_at,
          'revoked_at', l.revoked_at, 'decided_at', l.decided_at, 'signer_name', l.signer_name,
          'approved_total', l.approved_total::float8, 'signed_pdf_key', l.signed_pdf_key)
        from quote_approvals l where l.quote_id = q.id and l.revision <= q.revision order by l.sent_at desc, l.id desc limit 1) as approval
    from quotes q ${listJoins} where q.id = ${id} and ${visible}`.execute(db);
  const row = r.rows[0];
  if (!row) return null;
  return {
    ...pricedOfStored({ items: row.items, tyres: row.tyres, totals: row, products: row.products, parts: row.parts }),
    id: row.id,
    version: row.version,
    status: row.status,
    revision: row.revision,
    approval: row.approval && approvalRecordOf(row.approval),
    scan_id: row.scan_id,
    client_id: row.client_id,
    client_name: row.client_name,
    agent_id: row.agent_id,
    agent_name: row.agent_name,
    type: row.type,
    currency: row.currency,
    created_at: row.created_at,
    updated_at: row.updated_at,
    metallic: row.metallic,
    pearl: row.pearl,
    aluminium: row.aluminium,
    vehicle_type: row.vehicle_type,
    gst_percent: row.gst_percent,
    assessor: row.assessor,
    user_id: row.user_id,
    assessor_comments: row.assessor_comments,
    manual_check: row.manual_check,
    vehicle_photo: row.vehicle_photo ? fileUrl(row.vehicle_photo) : null,
    pdf_url: row.pdf_key ? fileUrl(row.pdf_key) : null,
    pdf_key: row.pdf_key,
    client: row.client_snapshot,
    agent: row.agent,
    scan: { ...row.scan, timestamp: new Date(row.scan.timestamp) },
    new_damage: row.new_damage ? { ...row.new_damage, compared_with: new Date(row.new_damage.compared_with) } : null,
  };
}

/** The quote of a scan (there is at most one), inside the scope. */
export async function findQuoteIdByScan(db: Executor, scanId: number, scope?: DataScope) {
  const visible = scope ? scopePredicate(scope, quoteScope) : sql<boolean>`true`;
  const r = await sql<{ id: number }>`select q.id from quotes q where q.scan_id = ${scanId} and ${visible}`.execute(db);
  return r.rows[0]?.id ?? null;
}

/** The files a quote holds (to remove when replaced or deleted). */
export async function quoteFiles(db: Executor, id: number) {
  const r = await sql<{
    vehicle_photo: string | null;
    pdf_key: string | null;
  }>`select vehicle_photo, pdf_key from quotes where id = ${id}`.execute(db);
  return r.rows[0] ?? null;
}

/** The scan a quote is made from: its owner, client and portal fields, inside the scope (locked for the save). */
export async function findQuoteScan(db: Executor, scanId: number, scope: DataScope, lock = false) {
  const r = await sql<{
    id: number;
    agent_id: number;
    client_id: number | null;
    licensePlate: string | null;
    timestamp: Date;
    status: string;
    type: string;
  }>`select s.id, s.agent_id, s.client_id, s.license_plate as "licensePlate", s.scanned_at as "timestamp", s.status, s.type
    from scans s where s.id = ${scanId} and ${scopePredicate(scope, scanOfQuoteScope)} ${lock ? sql`for update` : sql``}`.execute(db);
  return r.rows[0] ?? null;
}

export interface QuoteWrite {
  scan_id: number;
  agent_id: number;
  client_id: number;
  user_id: number | null;
  assessor: string | null;
  type: string;
  manual_check: boolean;
  assessor_comments: string | null;
  /** The engine's priced quote, in cents: stored in the columns' units and the wire's shape (src/domain/quote-wire.ts). */
  priced: PricedQuote;
  client_snapshot: unknown;
  currency: string;
  /** A new photo's key; undefined keeps the stored one. */
  vehicle_photo?: string;
}

/** Inserts the scan's quote, or re-prices the existing one in place (its id, the quote number, stays). */
export async function upsertQuote(trx: Executor, w: QuoteWrite): Promise<{ id: number; created: boolean }> {
  const p = w.priced;
  const t = wireTotalsOf(p.totals);
  const photo = w.vehicle_photo === undefined ? sql`null` : sql`${w.vehicle_photo}`;
  const keepPhoto = w.vehicle_photo === undefined ? sql`quotes.vehicle_photo` : sql`excluded.vehicle_photo`;
  const r = await sql<{ id: number; created: boolean }>`insert into quotes (scan_id, agent_id, client_id, user_id, assessor, type, metallic,
      pearl, aluminium, vehicle_type, manual_check, assessor_comments, items, tyres, products, parts, client_snapshot, currency,
      gst_percent, pdr, conventional, p2p, replacement, paint, tyre, product, sub_total, tax, grant_total, vehicle_photo,
      new_damage_only, new_damage)
    values (${w.scan_id}, ${w.agent_id}, ${w.client_id}, ${w.user_id}, ${w.assessor}, ${w.type}, ${p.metallic}, ${p.pearl},
      ${p.aluminium}, ${p.vehicle_type}, ${w.manual_check}, ${w.assessor_comments}, ${JSON.stringify(wireItemsOf(p))}::jsonb,
      ${JSON.stringify(wireTyresOf(p))}::jsonb, ${JSON.stringify(wireProductsOf(p.products))}::jsonb, ${JSON.stringify(p.parts)}::jsonb,
      ${JSON.stringify(w.client_snapshot)}::jsonb, ${w.currency}, ${p.gst_percent}, ${t.pdr}, ${t.conventional}, ${t.p2p},
      ${t.replacement}, ${t.paint}, ${t.tyre}, ${t.product}, ${t.sub_total}, ${t.tax}, ${t.grant_total}, ${photo},
      ${p.new_damage != null}, ${p.new_damage ? JSON.stringify(p.new_damage) : null}::jsonb)
    on conflict (scan_id) do update set agent_id = excluded.agent_id, client_id = excluded.client_id, user_id = excluded.user_id,
      assessor = excluded.assessor, type = excluded.type, metallic = excluded.metallic, pearl = excluded.pearl,
      aluminium = excluded.aluminium, vehicle_type = excluded.vehicle_type, manual_check = excluded.manual_check,
      assessor_comments = excluded.assessor_comments, items = excluded.items, tyres = excluded.tyres, products = excluded.products,
      parts = excluded.parts,
      client_snapshot = excluded.client_snapshot, currency = excluded.currency, gst_percent = excluded.gst_percent,
      pdr = excluded.pdr, conventional = excluded.conventional, p2p = excluded.p2p, replacement = excluded.replacement,
      paint = excluded.paint, tyre = excluded.tyre, product = excluded.product, sub_total = excluded.sub_total, tax = excluded.tax, grant_total = excluded.grant_total,
      vehicle_photo = ${keepPhoto}, new_damage_only = excluded.new_damage_only, new_damage = excluded.new_damage, updated_at = now()
    returning id, (xmax = 0) as created`.execute(trx);
  return r.rows[0];
}

/** The scan's customer-portal card fields (the live `saved` event), has_quote aside. */
export async function portalCard(db: Executor, scanId: number) {
  const r = await sql<{
    id: number;
    licensePlate: string | null;
    timestamp: Date;
    status: string;
    type: string;
    damageCount: number;
    dentCount: number;
    scratchCount: number;
  }>`select id, license_plate as "licensePlate", scanned_at as "timestamp", status, type, dent_count + scratch_count as "damageCount",
      dent_count as "dentCount", scratch_count as "scratchCount" from scans where id = ${scanId}`.execute(db);
  return r.rows[0] ?? null;
}

export async function setQuotePdf(db: Executor, id: number, key: string | null) {
  await sql`update quotes set pdf_key = ${key} where id = ${id}`.execute(db);
}

export async function clearVehiclePhoto(trx: Executor, id: number) {
  await sql`update quotes set vehicle_photo = null, version = version + 1, updated_at = now() where id = ${id}`.execute(trx);
}

export async function setManualCheck(db: Executor, id: number, on: boolean) {
  await sql`update quotes set manual_check = ${on}, version = version + 1, updated_at = now() where id = ${id}`.execute(db);
}

/** Whether the row was deleted: one that waited for another DELETE to commit finds nothing left. */
export async function deleteQuoteRow(trx: Executor, id: number) {
  return Number((await sql`delete from quotes where id = ${id}`.execute(trx)).numAffectedRows ?? 0) > 0;
}

/** Which of these product ids exist, with their catalogue names. */
export async function productNames(db: Executor, ids: number[]) {
  if (!ids.length) return new Map<number, string>();
  const r = await sql<{ id: number; name: string }>`select id, name from products where id = any(${idArray(ids)})`.execute(db);
  return new Map(r.rows.map((p) => [p.id, p.name]));
}
