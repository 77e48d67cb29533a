import { type RawBuilder, sql } from 'kysely';
import type { DataScope } from '../../../src/domain/permissions';
import { AGO, normalisePlate } from '../../../src/domain/scan-codes';
import type { Executor } from '../../db/database';
import { idArray, scopePredicate } from '../../lib/resource';
import { comparisonBasis, comparisonFor, comparisonScope, type ComparisonBasis, scanScope } from '../../lib/scan-scope';
import { endExclusive, instant, itemColumns, itemJoins, SCAN_TIME_ZONE, type ScanItem } from './scan-repository';

/** The scan list's statements: the selection of a list, search or export, its pages and totals, the export's rows and files. */

/** Totals are exact up to this many rows; beyond it the planner's estimate answers (the UI says "about N"). */
export const EXACT_COUNT_LIMIT = 10_000;

export interface ScanFilters {
  q?: string;
  ts?: string;
  te?: string;
  ago?: string;
  status?: string;
  type?: string;
  agent_id?: number;
  client_id?: number;
  location_id?: number;
  new_damage?: string;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A list query that the day counts (scan_counts, migration 007) can answer: at most one of agent or client narrowed
 * (by the scope or a filter), a time range, and nothing else. `keys` are the agent or client ids (0 for 'all').
 */
interface CountedShape {
  dim: 'all' | 'agent' | 'client';
  keys: number[];
  /** Lower bound (inclusive) and upper bound (exclusive) instants, when the filters set them. */
  lo: RawBuilder<unknown> | null;
  hi: RawBuilder<unknown> | null;
}

/** The scans a list or export request selects: its WHERE, and how the day counts can answer it (null: they cannot). */
export interface ScanSelection {
  where: RawBuilder<boolean>;
  /** The comparison the rows' new damage and the new-damage filter read: the scope's. */
  basis: ComparisonBasis;
  /**
   * Where the rows are found, newest first by `at`, then `key`: the scans, or, filtered to new damage, the scope's
   * comparisons with new damage (their own partial index in scan order, migration 034), so a rare match is not
   * looked for scan by scan.
   */
  source: RawBuilder<unknown>;
  /** What a count reads: the comparisons alone when nothing else narrows the list (an index-only count). */
  countSource: RawBuilder<unknown>;
  at: RawBuilder<unknown>;
  key: RawBuilder<unknown>;
  counted: CountedShape | null;
}

const narrow = (base: number[] | null, id: number | undefined) =>
  id === undefined ? base : base === null ? [id] : base.filter((b) => b === id);

/**
 * The WHERE of the list and the export: the request's scope, then each filter given. `q` matches a registration prefix
 * (spaces ignored), a make or model prefix, or part of a client's or agent's name; those names are looked up first, so
 * the planner sees plain id lists and every branch of the OR can use an index.
 */
export async function scanSelection(db: Executor, scope: DataScope, f: ScanFilters): Promise<ScanSelection> {
  const basis = comparisonBasis(scope);
  const byComparison = f.new_damage === 'true';
  // A comparison carries its scan's agent and client (kept by migration 034's triggers): the same scope, on its index.
  const parts: RawBuilder<boolean>[] = [scopePredicate(scope, byComparison ? comparisonScope : scanScope)];
  if (f.agent_id !== undefined) parts.push(sql<boolean>`s.agent_id = ${f.agent_id}`);
  if (f.client_id !== undefined) parts.push(sql<boolean>`s.client_id = ${f.client_id}`);
  if (f.location_id !== undefined) parts.push(sql<boolean>`s.location_id = ${f.location_id}`);
  if (f.status) parts.push(sql<boolean>`s.status = ${f.status}`);
  if (f.type) parts.push(sql<boolean>`s.type = ${f.type}`);
  if (byComparison) parts.push(sql<boolean>`k.has_new_damage and ${comparisonFor(basis)}`);
  if (f.new_damage === 'false')
    parts.push(
      sql<boolean>`not exists (select 1 from scan_comparisons k where k.scan_id = s.id and k.has_new_damage and ${comparisonFor(basis)})`,
    );
  // Time bounds, as instants: lower inclusive, upper exclusive.
  const lows: RawBuilder<unknown>[] = [];
  const highs: RawBuilder<unknown>[] = [];
  if (f.ts) lows.push(instant(f.ts));
  if (f.te) highs.push(endExclusive(f.te));
  if (f.ago) {
    const m = AGO.exec(f.ago)!;
    lows.push(sql`(now() - ${`${m[1]} ${{ h: 'hours', d: 'days', m: 'minutes' }[m[2] as 'h' | 'd' | 'm']}`}::interval)`);
  }
  for (const lo of lows) parts.push(sql<boolean>`s.scanned_at >= ${lo}`);
  for (const hi of highs) parts.push(sql<boolean>`s.scanned_at < ${hi}`);
  if (f.q) {
    const q = f.q.toLowerCase();
    const plate = normalisePlate(f.q).toLowerCase();
    const named = (table: 'clients' | 'agents') =>
      sql<{ id: number }>`select id from ${sql.table(table)} where name ilike ${`%${escapeLike(f.q!)}%`} limit 1000`.execute(db);
    const [clients, agents] = await Promise.all([named('clients'), named('agents')]);
    const branches = [sql<boolean>`lower(s.make) like ${`${escapeLike(q)}%`}`, sql<boolean>`lower(s.model) like ${`${escapeLike(q)}%`}`];
    if (plate) branches.unshift(sql<boolean>`lower(s.license_plate) like ${`${escapeLike(plate)}%`}`);
    if (clients.rows.length) branches.push(sql<boolean>`s.client_id = any(${idArray(clients.rows.map((r) => r.id))})`);
    if (agents.rows.length) branches.push(sql<boolean>`s.agent_id = any(${idArray(agents.rows.map((r) => r.id))})`);
    parts.push(sql<boolean>`(${sql.join(branches, sql` or `)})`);
  }
  const where = sql<boolean>`${sql.join(parts, sql` and `)}`;
  const comparisonsOnly = byComparison && parts.length === 2;

  const agents = narrow(scope.agents, f.agent_id);
  const clients = narrow(scope.clients, f.client_id);
  const countable = !f.q && !f.status && !f.type && !f.new_damage && f.location_id === undefined && (agents === null || clients === null);
  const bound = (xs: RawBuilder<unknown>[], pick: 'greatest' | 'least') =>
    xs.length === 0 ? null : xs.length === 1 ? xs[0] : sql`${sql.raw(pick)}(${sql.join(xs)})`;
  const counted: CountedShape | null = countable
    ? {
        dim: agents ? 'agent' : clients ? 'client' : 'all',
        keys: agents ?? clients ?? [0],
        lo: bound(lows, 'greatest'),
        hi: bound(highs, 'least'),
      }
    : null;
  return {
    where,
    basis,
    counted,
    source: byComparison ? sql`scan_comparisons k join scans s on s.id = k.scan_id` : sql`scans s`,
    countSource: comparisonsOnly
      ? sql`scan_comparisons k`
      : byComparison
        ? sql`scan_comparisons k join scans s on s.id = k.scan_id`
        : sql`scans s`,
    at: byComparison ? sql`k.scanned_at` : sql`s.scanned_at`,
    key: byComparison ? sql`k.scan_id` : sql`s.id`,
  };
}

/** Beyond this offset a counted list finds the page's day from the day counts instead of walking the rows before it. */
const DAY_SEEK_OFFSET = 1_000;

interface DayCount {
  day: string;
  n: number;
}

/**
 * Matching scans per Melbourne day, newest first, from the day counts; the days the time bounds cut (at most two) are
 * counted on the scans themselves with the full WHERE, so the figures are exact.
 */
async function countDays(db: Executor, where: RawBuilder<boolean>, c: CountedShape): Promise<DayCount[]> {
  const dayOf = (x: RawBuilder<unknown> | null, exclusive: boolean) =>
    x ? sql`((${x} - ${exclusive ? '1 microsecond' : '0'}::interval) at time zone ${SCAN_TIME_ZONE})::date` : sql`null::date`;
  const r = await sql<DayCount>`with b as (select ${dayOf(c.lo, false)} as lo_day, ${dayOf(c.hi, true)} as hi_day),
    buckets as (
      select k.day, sum(k.n) as n from scan_counts k, b
      where k.dim = ${c.dim} and k.key = any(${idArray(c.keys)})
        and (b.lo_day is null or k.day > b.lo_day) and (b.hi_day is null or k.day < b.hi_day)
      group by k.day
    ),
    edges as (
      select e.day, (select count(*) from scans s where ${where}
          and s.scanned_at >= (e.day::timestamp at time zone ${SCAN_TIME_ZONE})
          and s.scanned_at < ((e.day + 1)::timestamp at time zone ${SCAN_TIME_ZONE})) as n
      from (select lo_day as day from b union select hi_day from b) e where e.day is not null
    )
    select day::text as day, n::int as n from (select day, n from buckets union all select day, n from edges) x
    where n > 0 order by day desc`.execute(db);
  return r.rows;
}

/** The rows of a page: found on the narrow (scanned_at, id) index entries, joined afterwards, newest first. */
async function pageRows(
  db: Executor,
  { where, basis, source, at, key }: Pick<ScanSelection, 'where' | 'basis' | 'source' | 'at' | 'key'>,
  perPage: number,
  offset: number,
  before: RawBuilder<unknown> | null = null,
) {
  const seek = before ? sql`and ${at} < ${before}` : sql``;
  const r = await sql<ScanItem>`select ${itemColumns(basis)}
    from (select s.id, s.scanned_at from ${source} where ${where} ${seek} order by ${at} desc, ${key} desc
          limit ${perPage} offset ${offset}) p
    join scans s on s.id = p.id ${itemJoins}
    order by p.scanned_at desc, p.id desc`.execute(db);
  return r.rows;
}

export interface ScanPage {
  items: ScanItem[];
  total: number;
  estimate: boolean;
}

/**
 * One page, newest first, with the total. A selection the day counts answer gets an exact total from them, and a deep
 * page starts from the day it falls on (seeking by key to the end of that day and skipping only the rows of that day
 * before it), so page 10,000 costs about what page 1 does. Other selections (search, status, type, location, or both
 * an agent and a client narrowed) walk the offset, and their total is exact up to EXACT_COUNT_LIMIT, an estimate beyond.
 */
export async function listScans(db: Executor, sel: ScanSelection, page: number, perPage: number): Promise<ScanPage> {
  const offset = (page - 1) * perPage;
  if (!sel.counted) {
    const [items, count] = await Promise.all([pageRows(db, sel, perPage, offset), countScans(db, sel)]);
    return { items, total: count.total, estimate: count.estimate };
  }
  if (offset < DAY_SEEK_OFFSET) {
    const [items, days] = await Promise.all([pageRows(db, sel, perPage, offset), countDays(db, sel.where, sel.counted)]);
    return { items, total: days.reduce((t, d) => t + d.n, 0), estimate: false };
  }
  const days = await countDays(db, sel.where, sel.counted);
  const total = days.reduce((t, d) => t + d.n, 0);
  let before = 0;
  const start = days.find((d) => {
    if (before + d.n > offset) return true;
    before += d.n;
    return false;
  });
  if (!start) return { items: [], total, estimate: false };
  const dayEnd = sql`((${start.day}::date + 1)::timestamp at time zone ${SCAN_TIME_ZONE})`;
  return { items: await pageRows(db, sel, perPage, offset - before, dayEnd), total, estimate: false };
}

/**
 * The total of a selection the day counts cannot answer: the planner's estimate when it expects far more than
 * EXACT_COUNT_LIMIT rows, else an exact count that reads at most EXACT_COUNT_LIMIT + 1 matches (and falls back to the
 * estimate when there are more).
 */
async function countScans(
  db: Executor,
  { where, countSource: source }: Pick<ScanSelection, 'where' | 'countSource'>,
): Promise<{ total: number; estimate: boolean }> {
  const estimate = async () => {
    const plan = await sql<{
      'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }];
    }>`explain (format json) select 1 from ${source} where ${where}`.execute(db);
    return Math.round(plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows']);
  };
  const planned = await estimate();
  if (planned > EXACT_COUNT_LIMIT * 10) return { total: planned, estimate: true };
  const r = await sql<{
    n: number;
  }>`select count(*)::int as n from (select 1 from ${source} where ${where} limit ${EXACT_COUNT_LIMIT + 1}) x`.execute(db);
  const n = r.rows[0].n;
  if (n <= EXACT_COUNT_LIMIT) return { total: n, estimate: false };
  return { total: Math.max(planned, EXACT_COUNT_LIMIT + 1), estimate: true };
}

/** How many scans a selection holds, exactly, reading at most `limit` + 1 of them (for the export's size check). */
export async function countUpTo(db: Executor, sel: ScanSelection, limit: number): Promise<number> {
  if (sel.counted) return (await countDays(db, sel.where, sel.counted)).reduce((t, d) => t + d.n, 0);
  const r = await sql<{
    n: number;
  }>`select count(*)::int as n from (select 1 from ${sel.countSource} where ${sel.where} limit ${limit + 1}) x`.execute(db);
  return r.rows[0].n;
}

/** An export row: the list row and its Melbourne wall-clock time ('YYYY-MM-DDTHH:mm:ss'). */
export type ExportRow = ScanItem & { local_iso: string };

/** The export's rows in list order (newest first), for server/lib/report-file.ts to read in batches. */
export const exportRows = ({ where, basis, source }: Pick<ScanSelection, 'where' | 'basis' | 'source'>) =>
  sql<ExportRow>`select ${itemColumns(basis)},
      to_char(s.scanned_at at time zone ${SCAN_TIME_ZONE}, 'YYYY-MM-DD"T"HH24:MI:SS') as local_iso
    from ${source} ${itemJoins} where ${where} order by s.scanned_at desc, s.id desc`;

/** Scans in the scope matching a search text and, when given, one id: at most `perPage` list rows, newest first (no total). */
export async function searchScans(db: Executor, scope: DataScope, f: { q?: string; scan_id?: number }, perPage: number) {
  const sel = await scanSelection(db, scope, { q: f.q });
  if (f.scan_id !== undefined) sel.where = sql<boolean>`${sel.where} and s.id = ${f.scan_id}`;
  sel.counted = null;
  return (await listScans(db, sel, 1, perPage)).items;
}
