import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { DataScope } from '../../../src/domain/permissions';
import {
  AGO,
  DAMAGE_LEVELS,
  type ImageKind,
  type ingestResultsBody,
  isDateOnly,
  normalisePlate,
  type ScanStatus,
  TYRE_REPAIR_TYPES,
  type TyreRepairType,
  tyreLabel,
} from '../../../src/domain/scans';
import type { Executor } from '../../db/database';
import { FILES_PATH, keyOfUrl } from '../../lib/storage';
import { ValidationError } from '../../errors';
import { idArray, scopePredicate } from '../../lib/resource';
import { scanScope } from '../../lib/scan-scope';
import { loadTyreChoices } from '../../lib/pricing-inputs';
import { DISPLAY_TIME_ZONE, SQL_DATE_TIME_FORMAT } from '../../../src/domain/formats';

/** Scans carry their agent and client (the rule lives in server/lib, where the email service reads it too). */
export { scanScope };

/** The display (and filter) time zone: the product shows Melbourne time. */
/** Scans' days and local times are Melbourne's (src/domain/formats.ts). */
export const SCAN_TIME_ZONE = DISPLAY_TIME_ZONE;
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
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const hasOffset = (s: string) => /(Z|[+-]\d{2}:?\d{2})$/.test(s);
/** A filter bound: an instant as given, or a Melbourne wall-clock time. */
const instant = (s: string) =>
  hasOffset(s) ? sql`${s}::timestamptz` : sql`(${s.replace('T', ' ')}::timestamp at time zone ${SCAN_TIME_ZONE})`;

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
  const parts: RawBuilder<boolean>[] = [scopePredicate(scope, scanScope)];
  if (f.agent_id !== undefined) parts.push(sql<boolean>`s.agent_id = ${f.agent_id}`);
  if (f.client_id !== undefined) parts.push(sql<boolean>`s.client_id = ${f.client_id}`);
  if (f.location_id !== undefined) parts.push(sql<boolean>`s.location_id = ${f.location_id}`);
  if (f.status) parts.push(sql<boolean>`s.status = ${f.status}`);
  if (f.type) parts.push(sql<boolean>`s.type = ${f.type}`);
  // Time bounds, as instants: lower inclusive, upper exclusive.
  const lows: RawBuilder<unknown>[] = [];
  const highs: RawBuilder<unknown>[] = [];
  if (f.ts) lows.push(instant(f.ts));
  if (f.te) {
    // A date includes its whole (Melbourne) day; a time includes its whole second (or minute, without seconds).
    if (isDateOnly(f.te)) highs.push(sql`((${f.te}::date + 1)::timestamp at time zone ${SCAN_TIME_ZONE})`);
    else if (hasOffset(f.te)) highs.push(sql`(${f.te}::timestamptz + '1 microsecond'::interval)`);
    else highs.push(sql`(${instant(f.te)} + ${/\d{2}:\d{2}:\d{2}/.test(f.te) ? '1 second' : '1 minute'}::interval)`);
  }
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

  const agents = narrow(scope.agents, f.agent_id);
  const clients = narrow(scope.clients, f.client_id);
  const countable = !f.q && !f.status && !f.type && f.location_id === undefined && (agents === null || clients === null);
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
  return { where, counted };
}

/** The columns of a list row (the wire's Scan, the list's subset), with the names the wire uses. */
const itemColumns = sql`s.id, s.scan_id, s.license_plate as "licensePlate", s.make, s.model, s.car_color as "carColor", s.body_type,
  s.valuation, s.location_id, l.name as location_name, s.location_state, s.client_id, c.name as client_name, s.agent_id,
  a.name as agent_name, s.device_id, s.type, s.status, s.scanned_at as "timestamp", s.start_time as "startTime",
  s.dent_count + s.scratch_count as "damageCount", s.dent_count as "dentCount", s.scratch_count as "scratchCount",
  s.created_at, s.updated_at, exists (select 1 from quotes q where q.scan_id = s.id) as has_quote`;
const itemJoins = sql`join agents a on a.id = s.agent_id left join clients c on c.id = s.client_id left join locations l on l.id = s.location_id`;

export type ScanItem = {
  id: number;
  scan_id: string;
  licensePlate: string | null;
  make: string | null;
  model: string | null;
  carColor: string | null;
  body_type: string | null;
  valuation: number | null;
  location_id: number | null;
  location_name: string | null;
  location_state: string | null;
  client_id: number | null;
  client_name: string | null;
  agent_id: number;
  agent_name: string;
  device_id: number | null;
  type: string;
  status: string;
  timestamp: Date;
  startTime: Date | null;
  damageCount: number;
  dentCount: number;
  scratchCount: number;
  created_at: Date;
  updated_at: Date;
  /** The scan has a quote (the customer portal's 'completed'). */
  has_quote: boolean;
};

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
  where: RawBuilder<boolean>,
  perPage: number,
  offset: number,
  before: RawBuilder<unknown> | null = null,
) {
  const seek = before ? sql`and s.scanned_at < ${before}` : sql``;
  const r = await sql<ScanItem>`select ${itemColumns}
    from (select s.id, s.scanned_at from scans s where ${where} ${seek} order by s.scanned_at desc, s.id desc
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
    const [items, count] = await Promise.all([pageRows(db, sel.where, perPage, offset), countScans(db, sel.where)]);
    return { items, total: count.total, estimate: count.estimate };
  }
  if (offset < DAY_SEEK_OFFSET) {
    const [items, days] = await Promise.all([pageRows(db, sel.where, perPage, offset), countDays(db, sel.where, sel.counted)]);
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
  return { items: await pageRows(db, sel.where, perPage, offset - before, dayEnd), total, estimate: false };
}

/**
 * The total of a selection the day counts cannot answer: the planner's estimate when it expects far more than
 * EXACT_COUNT_LIMIT rows, else an exact count that reads at most EXACT_COUNT_LIMIT + 1 matches (and falls back to the
 * estimate when there are more).
 */
async function countScans(db: Executor, where: RawBuilder<boolean>): Promise<{ total: number; estimate: boolean }> {
  const estimate = async () => {
    const plan = await sql<{
      'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }];
    }>`explain (format json) select 1 from scans s where ${where}`.execute(db);
    return Math.round(plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows']);
  };
  const planned = await estimate();
  if (planned > EXACT_COUNT_LIMIT * 10) return { total: planned, estimate: true };
  const r = await sql<{
    n: number;
  }>`select count(*)::int as n from (select 1 from scans s where ${where} limit ${EXACT_COUNT_LIMIT + 1}) x`.execute(db);
  const n = r.rows[0].n;
  if (n <= EXACT_COUNT_LIMIT) return { total: n, estimate: false };
  return { total: Math.max(planned, EXACT_COUNT_LIMIT + 1), estimate: true };
}

/** How many scans a selection holds, exactly, reading at most `limit` + 1 of them (for the export's size check). */
export async function countUpTo(db: Executor, sel: ScanSelection, limit: number): Promise<number> {
  if (sel.counted) return (await countDays(db, sel.where, sel.counted)).reduce((t, d) => t + d.n, 0);
  const r = await sql<{
    n: number;
  }>`select count(*)::int as n from (select 1 from scans s where ${sel.where} limit ${limit + 1}) x`.execute(db);
  return r.rows[0].n;
}

/** One list row by id, inside the scope (or any, for events and ingestion). */
export async function findScanItem(db: Executor, id: number, scope?: DataScope): Promise<ScanItem | null> {
  const visible = scope ? scopePredicate(scope, scanScope) : sql<boolean>`true`;
  const r = await sql<ScanItem>`select ${itemColumns} from scans s ${itemJoins} where s.id = ${id} and ${visible}`.execute(db);
  return r.rows[0] ?? null;
}

/** An export row: the list row, its keyset cursor, and its Melbourne wall-clock time as the CSV writes it and as ISO. */
export type ExportRow = ScanItem & { cursor_ts: string; local_time: string; local_iso: string };

/** Rows of the export, in list order, by keyset (the cursor is the last row's scanned_at as text, so no precision is lost). */
export async function exportBatch(db: Executor, where: RawBuilder<boolean>, after: { ts: string; id: number } | null, limit: number) {
  const cursor = after ? sql`and (s.scanned_at, s.id) < (${after.ts}::timestamptz, ${after.id})` : sql``;
  const r = await sql<ExportRow>`select ${itemColumns}, s.scanned_at::text as cursor_ts,
      to_char(s.scanned_at at time zone ${SCAN_TIME_ZONE}, ${SQL_DATE_TIME_FORMAT}) as local_time,
      to_char(s.scanned_at at time zone ${SCAN_TIME_ZONE}, 'YYYY-MM-DD"T"HH24:MI:SS') as local_iso
    from scans s ${itemJoins} where ${where} ${cursor} order by s.scanned_at desc, s.id desc limit ${limit}`.execute(db);
  return r.rows;
}

export type LevelCounts = Record<(typeof DAMAGE_LEVELS)[number], number>;
const zeroCounts = (): LevelCounts => Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, 0])) as LevelCounts;

/** Everything the scan page shows: the list row plus meta, part results, detections, counts, tyres, videos, images and reports. */
export async function findScanDetail(db: Executor, id: number, scope?: DataScope) {
  const item = await findScanItem(db, id, scope);
  if (!item) return null;
  const [extra, damages, measures, tyres, videos, annotates, reports, repairs] = await Promise.all([
    sql<
      { meta_thumbnail: string | null; meta_src: string | null } & Record<
        'arch' | 'chasis' | 'tire' | 'rims',
        Record<string, unknown> | null
      >
    >`
      select meta_thumbnail, meta_src, arch, chasis, tire, rims from scans where id = ${id}`.execute(db),
    sql<{
      id: number;
      damage_id: string;
      car_panel: string;
      type: string;
      level: string;
      width_mm: number;
      height_mm: number;
      image: string | null;
    }>`
      select id, damage_id, car_panel, type, level, width_mm, height_mm, image from scan_damages where scan_id = ${id} order by car_panel, type, id`.execute(
      db,
    ),
    sql<{ car_panel: string; type: 'dents' | 'scratchs'; level: keyof LevelCounts; count: number }>`
      select car_panel, type, level, count from scan_measures where scan_id = ${id} order by car_panel`.execute(db),
    sql<{
      id: number;
      row: number;
      direction: string;
      position: string;
      label: string;
      depths: number[];
      eaten_tire: string;
      pressure_tire: string;
      coord_x: number | null;
      coord_y: number | null;
      measurement_image: string | null;
      image_file: string | null;
    }>`
      select id, "row", direction, position, label, depths, eaten_tire, pressure_tire, coord_x, coord_y, measurement_image, image_file
      from scan_tyres where scan_id = ${id} order by "row", direction, position`.execute(db),
    sql<{
      id: number;
      video_id: string;
      src: string;
      thumbnail: string | null;
    }>`select id, video_id, src, thumbnail from scan_videos where scan_id = ${id} order by id`.execute(db),
    sql<{
      id: number;
      src: string;
      vehicle_photo: boolean;
    }>`select id, src, vehicle_photo from scan_annotates where scan_id = ${id} order by id`.execute(db),
    // The scan's reports, then its quote's PDF as 'View Quote' (Reports) when the quote has one.
    sql<{ kind: string; label: string; url: string }>`select kind, label, url from (
        select id, 0 as o, kind, label, url from scan_reports where scan_id = ${id}
        union all select id, 1, 'quote', 'View Quote', ${FILES_PATH} || pdf_key from quotes where scan_id = ${id} and pdf_key is not null
      ) r order by o, id`.execute(db),
    tyreRepairs(db, id),
  ]);
  const x = extra.rows[0];
  const counts: { dents: Record<string, LevelCounts>; scratchs: Record<string, LevelCounts>; damage_count: Record<string, number> } = {
    dents: {},
    scratchs: {},
    damage_count: {},
  };
  for (const m of measures.rows) {
    (counts[m.type][m.car_panel] ??= zeroCounts())[m.level] = m.count;
    counts.damage_count[m.car_panel] = (counts.damage_count[m.car_panel] ?? 0) + m.count;
  }
  const pathOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  const report = reports.rows.find((r) => r.kind === 'scan_report') ?? null;
  return {
    ...item,
    meta:
      x.meta_thumbnail || x.meta_src
        ? { id: item.id, scan_id: item.scan_id, thumbnailImagePathUrl: x.meta_thumbnail, srcImagePathUrl: x.meta_src }
        : null,
    arch: x.arch ?? null,
    chasis: x.chasis ?? null,
    tire: x.tire ?? null,
    rims: x.rims ?? null,
    damages: damages.rows.map((d) => ({
      id: d.id,
      damage_id: d.damage_id,
      src: d.image,
      path: keyOfUrl(d.image),
      type: d.type,
      carPanel: d.car_panel,
      level: d.level,
      width_mm: d.width_mm,
      height_mm: d.height_mm,
      data: [{ measure: d.level, width_mm: d.width_mm, height_mm: d.height_mm }],
    })),
    measures: counts,
    data: tyres.rows.map((t) => ({
      id: t.id,
      row: t.row,
      direction: t.direction,
      position: t.position,
      label: t.label,
      depths: t.depths,
      measurementImageUrl: t.measurement_image,
      imageFileUrl: t.image_file,
      coordinates: t.coord_x === null || t.coord_y === null ? null : { x: t.coord_x, y: t.coord_y },
      conclusionDescription: { eatenTire: t.eaten_tire, pressureTire: t.pressure_tire },
    })),
    videos: videos.rows.map((v) => ({ id: v.id, video_id: v.video_id, src: v.src, thumbnail: v.thumbnail })),
    annotates: annotates.rows.map((a) => ({ id: a.id, src: a.src, path: pathOf(a.src), vehicle_photo: a.vehicle_photo })),
    report_pdfs: reports.rows.map((r) => ({ label: r.label, url: r.url, path: pathOf(r.url) })),
    pdf: report?.url ?? null,
    pdf_url: report?.url ?? null,
    pdf_path: report ? pathOf(report.url) : null,
    tyre_repairs: repairs,
  };
}
export type ScanDetail = NonNullable<Awaited<ReturnType<typeof findScanDetail>>>;

/** Recomputes a scan's counts from its detections (when the device sent none) and its totals from the counts. */
export async function refreshCounts(trx: Executor, scanId: number, fromDamages: boolean) {
  if (fromDamages) {
    await sql`delete from scan_measures where scan_id = ${scanId}`.execute(trx);
    await sql`insert into scan_measures (scan_id, car_panel, type, level, count)
      select scan_id, car_panel, type, level, count(*)::int from scan_damages where scan_id = ${scanId} group by scan_id, car_panel, type, level`.execute(
      trx,
    );
  }
  await sql`update scans set
      dent_count = coalesce((select sum(count) from scan_measures where scan_id = ${scanId} and type = 'dents'), 0),
      scratch_count = coalesce((select sum(count) from scan_measures where scan_id = ${scanId} and type = 'scratchs'), 0),
      updated_at = now()
    where id = ${scanId}`.execute(trx);
}

// ---- Writes (the scan routes and the device ingestion API) ----

/** A scan's owner and status: what a device call checks before it writes. */
export async function findScanHead(db: Executor, id: number) {
  const r = await sql<{
    id: number;
    agent_id: number;
    status: ScanStatus;
  }>`select id, agent_id, status from scans where id = ${id}`.execute(db);
  return r.rows[0] ?? null;
}

export interface DeviceRow {
  id: number;
  serial: string;
  type: string;
  agent_id: number;
  location_id: number;
  location_name: string;
  location_state: string;
}

/** The devices of these agents with their site, by agent then id. */
export async function devicesOfAgents(db: Executor, agents: number[]) {
  const r = await sql<DeviceRow>`
    select d.id, d.serial, d.type, d.agent_id, d.location_id, l.name as location_name, l.state as location_state
    from devices d join locations l on l.id = d.location_id where d.agent_id = any(${idArray(agents)}) order by d.agent_id, d.id`.execute(
    db,
  );
  return r.rows;
}

/** What a new device scan takes from its device: agent, site, default client and the site's state. */
export async function findDeviceOrigin(db: Executor, deviceId: number) {
  const r = await sql<{ agent_id: number; location_id: number; default_client_id: number; state: string }>`
    select d.agent_id, d.location_id, d.default_client_id, l.state from devices d join locations l on l.id = d.location_id
    where d.id = ${deviceId}`.execute(db);
  return r.rows[0] ?? null;
}

export interface NewDeviceScan {
  scan_id: string;
  agent_id: number;
  client_id: number;
  location_id: number;
  device_id: number;
  type: string;
  license_plate: string | null;
  make: string | null;
  model: string | null;
  car_color: string | null;
  body_type: string | null;
  valuation: number | null;
  location_state: string;
  scanned_at: string;
  start_time: string | null;
}

/** Inserts a device's scan (status metadata); null when the agent already has that scan_id (a replay). */
export async function insertDeviceScan(trx: Executor, s: NewDeviceScan) {
  const r = await sql<{
    id: number;
  }>`insert into scans (scan_id, agent_id, client_id, location_id, device_id, type, status, license_plate, make,
      model, car_color, body_type, valuation, location_state, scanned_at, start_time)
    values (${s.scan_id}, ${s.agent_id}, ${s.client_id}, ${s.location_id}, ${s.device_id}, ${s.type}, 'metadata',
      ${s.license_plate}, ${s.make}, ${s.model}, ${s.car_color}, ${s.body_type}, ${s.valuation},
      ${s.location_state}, ${s.scanned_at}, ${s.start_time})
    on conflict (agent_id, scan_id) do nothing returning id`.execute(trx);
  return r.rows[0]?.id ?? null;
}

/** The scan an agent's device created under its own scan_id. */
export async function findScanIdByDeviceScanId(db: Executor, agentId: number, scanId: string): Promise<number | null> {
  const r = await sql<{ id: number }>`select id from scans where agent_id = ${agentId} and scan_id = ${scanId}`.execute(db);
  return r.rows[0]?.id ?? null;
}

export type ScanResults = z.output<typeof ingestResultsBody>;

/**
 * Stores a results upload: part summaries, detections (by id), tyres (by wheel), then the counts: the `measures` sent
 * replace them, else they are derived from the detections when some came.
 */
export async function writeScanResults(trx: Executor, scanId: number, b: ScanResults) {
  const parts = (['arch', 'chasis', 'tire', 'rims'] as const).filter((p) => b[p] !== undefined);
  if (parts.length) {
    await sql`update scans set ${sql.join(parts.map((p) => sql`${sql.ref(p)} = ${b[p] === null ? null : JSON.stringify(b[p])}::jsonb`))} where id = ${scanId}`.execute(
      trx,
    );
  }
  if (b.damages?.length) await upsertDamages(trx, scanId, b.damages);
  if (b.tyres?.length) await upsertTyres(trx, scanId, b.tyres);
  if (!b.measures) return refreshCounts(trx, scanId, !!b.damages?.length);
  await sql`delete from scan_measures where scan_id = ${scanId}`.execute(trx);
  const rows = (['dents', 'scratchs'] as const).flatMap((type) =>
    Object.entries(b.measures?.[type] ?? {}).flatMap(([panel, counts]) =>
      Object.entries(counts)
        .filter(([, n]) => (n ?? 0) > 0)
        .map(([level, n]) => ({ panel, type, level, n })),
    ),
  );
  if (rows.length) {
    await sql`insert into scan_measures (scan_id, car_panel, type, level, count)
      select ${scanId}, * from unnest(${rows.map((x) => x.panel)}::text[], ${rows.map((x) => x.type)}::text[], ${rows.map((x) => x.level)}::text[], ${rows.map((x) => x.n)}::int[])`.execute(
      trx,
    );
  }
  await refreshCounts(trx, scanId, false);
}

async function upsertDamages(trx: Executor, scanId: number, damages: NonNullable<ScanResults['damages']>) {
  await sql`insert into scan_damages (scan_id, damage_id, car_panel, type, level, width_mm, height_mm)
    select ${scanId}, * from unnest(${damages.map((d) => d.id)}::text[], ${damages.map((d) => d.carPanel)}::text[], ${damages.map((d) => d.type)}::text[],
      ${damages.map((d) => d.level)}::text[], ${damages.map((d) => d.width_mm)}::numeric[], ${damages.map((d) => d.height_mm)}::numeric[])
    on conflict (scan_id, damage_id) do update set car_panel = excluded.car_panel, type = excluded.type, level = excluded.level,
      width_mm = excluded.width_mm, height_mm = excluded.height_mm, updated_at = now()`.execute(trx);
}

async function upsertTyres(trx: Executor, scanId: number, tyres: NonNullable<ScanResults['tyres']>) {
  for (const t of tyres) {
    await sql`insert into scan_tyres (scan_id, "row", direction, position, label, depths, eaten_tire, pressure_tire, coord_x, coord_y)
      values (${scanId}, ${t.row}, ${t.direction}, ${t.position}, '', ${t.depths}::real[], ${t.eatenTire}, ${t.pressureTire}, ${t.coordinates?.x ?? null}, ${t.coordinates?.y ?? null})
      on conflict (scan_id, "row", direction, position) do update set depths = excluded.depths, eaten_tire = excluded.eaten_tire,
        pressure_tire = excluded.pressure_tire, coord_x = excluded.coord_x, coord_y = excluded.coord_y, updated_at = now()`.execute(trx);
  }
  // Labels depend on the last row (REAR on the last row), so they are set once all rows are known.
  const rows = await sql<{
    id: number;
    row: number;
    direction: 'L' | 'R';
  }>`select id, "row", direction from scan_tyres where scan_id = ${scanId}`.execute(trx);
  const last = Math.max(...rows.rows.map((x) => x.row));
  await sql`update scan_tyres t set label = v.label from unnest(${rows.rows.map((x) => x.id)}::bigint[], ${rows.rows.map((x) => tyreLabel(x.row, last, x.direction))}::text[]) as v(id, label)
    where t.id = v.id`.execute(trx);
}

/** The slot an uploaded image fills (ingestion): a meta image, a detection, a tyre, or a vehicle photo. */
export interface ImageSlot {
  kind: ImageKind;
  damage_id?: string;
  row?: number;
  direction?: string;
  position?: string;
  image_id?: string;
}

/** Puts an uploaded image's URL into its slot; a slot naming a detection or tyre the scan lacks is the field's 422. */
export async function placeImage(trx: Executor, scanId: number, url: string, b: ImageSlot) {
  const changed = async (q: RawBuilder<unknown>) => Number((await q.execute(trx)).numAffectedRows ?? 0) > 0;
  switch (b.kind) {
    case 'thumbnail':
      await sql`update scans set meta_thumbnail = ${url}, updated_at = now() where id = ${scanId}`.execute(trx);
      return;
    case 'src':
      await sql`update scans set meta_src = ${url}, updated_at = now() where id = ${scanId}`.execute(trx);
      return;
    case 'damage':
      if (
        !(await changed(
          sql`update scan_damages set image = ${url}, updated_at = now() where scan_id = ${scanId} and damage_id = ${b.damage_id!}`,
        ))
      ) {
        throw new ValidationError({ damage_id: 'The selected damage id is invalid: upload the results first' });
      }
      return;
    case 'tyre_measurement':
    case 'tyre_image': {
      const column = b.kind === 'tyre_measurement' ? sql.ref('measurement_image') : sql.ref('image_file');
      if (
        !(await changed(sql`update scan_tyres set ${column} = ${url}, updated_at = now()
          where scan_id = ${scanId} and "row" = ${b.row!} and direction = ${b.direction!} and position = ${b.position!}`))
      ) {
        throw new ValidationError({ row: 'The selected tyre is invalid: upload the results first' });
      }
      return;
    }
    case 'vehicle_photo':
      await sql`insert into scan_annotates (scan_id, image_id, src, vehicle_photo) values (${scanId}, ${b.image_id!}, ${url}, true)
        on conflict (scan_id, image_id) do update set src = excluded.src`.execute(trx);
  }
}

/** Stores (or replaces, by the device's video id) a scan's video. */
export async function upsertVideo(
  trx: Executor,
  scanId: number,
  v: { video_id: string; src: string; thumbnail: string | null; content_type: string; size: number },
) {
  await sql`insert into scan_videos (scan_id, video_id, src, thumbnail, content_type, size)
    values (${scanId}, ${v.video_id}, ${v.src}, ${v.thumbnail}, ${v.content_type}, ${v.size})
    on conflict (scan_id, video_id) do update set src = excluded.src, thumbnail = excluded.thumbnail, content_type = excluded.content_type, size = excluded.size`.execute(
    trx,
  );
}

export async function setScanStatus(trx: Executor, scanId: number, status: ScanStatus) {
  await sql`update scans set status = ${status}, updated_at = now() where id = ${scanId}`.execute(trx);
}

/** Sets the given columns (names from the caller's fixed list, never from input) and updated_at. */
export async function updateScanColumns(trx: Executor, scanId: number, columns: Record<string, unknown>) {
  const sets = Object.entries(columns).map(([c, v]) => sql`${sql.ref(c)} = ${v}`);
  await sql`update scans set ${sql.join([...sets, sql`updated_at = now()`])} where id = ${scanId}`.execute(trx);
}

export async function agentDefaultClient(db: Executor, agentId: number) {
  const r = await sql<{ default_client_id: number | null }>`select default_client_id from agents where id = ${agentId}`.execute(db);
  return r.rows[0]?.default_client_id ?? null;
}

/** A manual scan: type tire, status uploaded; `startTime` an instant or a Melbourne wall-clock time. */
export async function insertManualScan(
  trx: Executor,
  s: { scan_id: string; agent_id: number; client_id: number | null; startTime: string | null },
) {
  const start = s.startTime ? instant(s.startTime) : sql`now()`;
  const r = await sql<{ id: number }>`insert into scans (scan_id, agent_id, client_id, type, status, scanned_at, start_time)
    values (${s.scan_id}, ${s.agent_id}, ${s.client_id}, 'tire', 'uploaded', now(), ${start}) returning id`.execute(trx);
  return r.rows[0].id;
}

export async function hasScanReport(db: Executor, scanId: number) {
  const r = await sql<{ id: number }>`select id from scan_reports where scan_id = ${scanId} and kind = 'scan_report'`.execute(db);
  return r.rows.length > 0;
}

/** Records the scan's report PDF, replacing the previous one. */
export async function upsertScanReport(trx: Executor, scanId: number, url: string) {
  await sql`insert into scan_reports (scan_id, kind, label, url) values (${scanId}, 'scan_report', 'View Scan Report', ${url})
    on conflict (scan_id, kind) do update set url = excluded.url, label = excluded.label, created_at = now()`.execute(trx);
}

/** Deletes a scan (its rows go with it) and returns the file keys it linked. */
export async function deleteScanRows(trx: Executor, scanId: number) {
  const linked = (await sql<{ key: string }>`select key from scan_files where scan_id = ${scanId}`.execute(trx)).rows.map((r) => r.key);
  await sql`delete from scans where id = ${scanId}`.execute(trx);
  return linked;
}

// ---- The scan page ----

/** The scan's meta images (GET meta/{id}), null when the device sent none. */
export async function findScanMeta(db: Executor, id: number) {
  const r = await sql<{
    id: number;
    scan_id: string;
    meta_thumbnail: string | null;
    meta_src: string | null;
  }>`select id, scan_id, meta_thumbnail, meta_src from scans where id = ${id}`.execute(db);
  const x = r.rows[0];
  if (!x || (!x.meta_thumbnail && !x.meta_src)) return null;
  return { id: x.id, scan_id: x.scan_id, thumbnailImagePathUrl: x.meta_thumbnail, srcImagePathUrl: x.meta_src };
}

/** The car sketch's data (GET archData/search): the counts by measure and the panel groups with their panels' counts. */
export async function archData(db: Executor, scanId: number, type: string) {
  const [measures, panels] = await Promise.all([
    sql<{ car_panel: string; type: 'dents' | 'scratchs'; level: keyof LevelCounts; count: number }>`
      select car_panel, type, level, count from scan_measures where scan_id = ${scanId} order by car_panel`.execute(db),
    sql<{
      group_id: number;
      group_name: string;
      group_image: string | null;
      group_position: number;
      id: number | null;
      name: string | null;
      label: string | null;
      car_panel: string | null;
      type: string | null;
      position: number | null;
    }>`select g.id as group_id, g.name as group_name, g.image as group_image, g.position as group_position,
        p.id, p.name, p.label, p.car_panel, p.type, p.position
      from panel_groups g left join panels p on p.panel_group_id = g.id and p.status and p.car_panel is not null
      order by g.position, g.id, p.position, p.id`.execute(db),
  ]);
  const countbymeasure: {
    dents: Record<string, LevelCounts>;
    scratchs: Record<string, LevelCounts>;
    damage_count: Record<string, number>;
  } = { dents: {}, scratchs: {}, damage_count: {} };
  for (const m of measures.rows) {
    (countbymeasure[m.type][m.car_panel] ??= zeroCounts())[m.level] = m.count;
    countbymeasure.damage_count[m.car_panel] = (countbymeasure.damage_count[m.car_panel] ?? 0) + m.count;
  }
  const sum = (c: LevelCounts | undefined) => (c ? DAMAGE_LEVELS.reduce((t, l) => t + c[l], 0) : 0);
  const groups = new Map<
    number,
    {
      id: number;
      name: string;
      image: string | null;
      position: number;
      dent_total: number;
      scratch_total: number;
      dents: LevelCounts;
      scratchs: LevelCounts;
      panels: {
        id: number;
        name: string;
        label: string;
        carPanel: string;
        type: string;
        position: number;
        dent_count: number;
        scratch_count: number;
      }[];
    }
  >();
  const placed = new Set<string>();
  for (const row of panels.rows) {
    let g = groups.get(row.group_id);
    if (!g) {
      g = {
        id: row.group_id,
        name: row.group_name,
        image: row.group_image,
        position: row.group_position,
        dent_total: 0,
        scratch_total: 0,
        dents: zeroCounts(),
        scratchs: zeroCounts(),
        panels: [],
      };
      groups.set(row.group_id, g);
    }
    if (row.id === null || row.car_panel === null) continue;
    placed.add(row.car_panel);
    const dents = countbymeasure.dents[row.car_panel];
    const scratchs = countbymeasure.scratchs[row.car_panel];
    for (const l of DAMAGE_LEVELS) {
      g.dents[l] += dents?.[l] ?? 0;
      g.scratchs[l] += scratchs?.[l] ?? 0;
    }
    g.dent_total += sum(dents);
    g.scratch_total += sum(scratchs);
    g.panels.push({
      id: row.id,
      name: row.name!,
      label: row.label!,
      carPanel: row.car_panel,
      type: row.type!,
      position: row.position!,
      dent_count: sum(dents),
      scratch_count: sum(scratchs),
    });
  }
  const unplaced = Object.keys(countbymeasure.damage_count).filter((p) => !placed.has(p));
  return { scan_id: scanId, type, countbymeasure, panel_groups: [...groups.values()], unplaced };
}

/** Whether a car panel code is one the catalogue's panels name or the scan already counts. */
export async function isKnownCarPanel(db: Executor, scanId: number, carPanel: string) {
  const r = await sql<{ ok: boolean }>`select exists (select 1 from panels where car_panel = ${carPanel})
    or exists (select 1 from scan_measures where scan_id = ${scanId} and car_panel = ${carPanel}) as ok`.execute(db);
  return r.rows[0].ok;
}

/** Sets a panel's counts for the levels given (a 0 removes the row), then recomputes the scan's totals, in `trx`. */
export async function setPanelCounts(
  trx: Executor,
  scanId: number,
  carPanel: string,
  counts: Partial<Record<'dents' | 'scratchs', Partial<LevelCounts>>>,
) {
  for (const type of ['dents', 'scratchs'] as const) {
    for (const [level, n] of Object.entries(counts[type] ?? {})) {
      if (n === undefined) continue;
      if (n === 0)
        await sql`delete from scan_measures where scan_id = ${scanId} and car_panel = ${carPanel} and type = ${type} and level = ${level}`.execute(
          trx,
        );
      else
        await sql`insert into scan_measures (scan_id, car_panel, type, level, count) values (${scanId}, ${carPanel}, ${type}, ${level}, ${n})
          on conflict (scan_id, car_panel, type, level) do update set count = excluded.count`.execute(trx);
    }
  }
  await refreshCounts(trx, scanId, false);
}

export async function insertAnnotate(trx: Executor, scanId: number, src: string, userId: number) {
  const r = await sql<{ id: number; src: string; vehicle_photo: boolean }>`insert into scan_annotates (scan_id, src, user_id)
    values (${scanId}, ${src}, ${userId}) returning id, src, vehicle_photo`.execute(trx);
  return r.rows[0];
}

/** Replaces a saved image's file (the `edit` flag); null when the scan has no such image. */
export async function replaceAnnotate(trx: Executor, scanId: number, annotateId: number, src: string, userId: number) {
  const r = await sql<{ id: number; src: string; vehicle_photo: boolean }>`update scan_annotates set src = ${src}, user_id = ${userId}
    where id = ${annotateId} and scan_id = ${scanId} returning id, src, vehicle_photo`.execute(trx);
  return r.rows[0] ?? null;
}

/** Deletes a saved image of the scan; false when it has none of that id. */
export async function deleteAnnotate(trx: Executor, scanId: number, annotateId: number) {
  const r = await sql`delete from scan_annotates where id = ${annotateId} and scan_id = ${scanId}`.execute(trx);
  return Number(r.numAffectedRows ?? 0) > 0;
}

/** The tyre labels of a scan's wheels, by row and side (none when it has no tyre data). */
export async function tyreWheels(db: Executor, scanId: number) {
  const r = await sql<{ row: number; direction: 'L' | 'R'; label: string }>`select distinct "row", direction, label from scan_tyres
    where scan_id = ${scanId} order by "row", direction`.execute(db);
  return r.rows;
}

export async function tyreRepairs(db: Executor, scanId: number) {
  return (await loadTyreChoices(db, scanId)).map((x) => ({
    ...x,
    position: x.direction === 'L' ? ('left' as const) : ('right' as const),
    repair_label: TYRE_REPAIR_TYPES.find((t) => t.id === x.repair_type)!.name,
  }));
}

/** Sets (or, with null, clears) a wheel's repair choice: one per scan, row and side. */
export async function setTyreRepair(
  trx: Executor,
  scanId: number,
  wheel: { row: number; direction: 'L' | 'R' },
  repairType: TyreRepairType | null,
  userId: number,
) {
  if (repairType === null) {
    await sql`delete from scan_tyre_repairs where scan_id = ${scanId} and "row" = ${wheel.row} and direction = ${wheel.direction}`.execute(
      trx,
    );
    return;
  }
  await sql`insert into scan_tyre_repairs (scan_id, "row", direction, repair_type, user_id) values (${scanId}, ${wheel.row}, ${wheel.direction}, ${repairType}, ${userId})
    on conflict (scan_id, "row", direction) do update set repair_type = excluded.repair_type, user_id = excluded.user_id, updated_at = now()`.execute(
    trx,
  );
}
