import { type RawBuilder, sql } from 'kysely';
import type { DataScope } from '../../../src/domain/permissions';
import { AGO, DAMAGE_LEVELS, isDateOnly, normalisePlate } from '../../../src/domain/scans';
import type { Executor } from '../../db/database';
import { idArray, type ScopeRule, scopePredicate } from '../../lib/resource';

/** Scans carry their agent and client: an Agent user sees their agents' scans, a Client user their clients'. */
export const scanScope: ScopeRule = {
  agent: (ids) => sql<boolean>`s.agent_id = any(${idArray(ids)})`,
  client: (ids) => sql<boolean>`s.client_id = any(${idArray(ids)})`,
};

/** The display (and filter) time zone of spec 2 §1. */
export const SCAN_TIME_ZONE = 'Australia/Melbourne';
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
const instant = (s: string) => (hasOffset(s) ? sql`${s}::timestamptz` : sql`(${s.replace('T', ' ')}::timestamp at time zone ${SCAN_TIME_ZONE})`);

/**
 * The WHERE of the list and the export: the request's scope, then each filter given. `q` matches a registration prefix
 * (spaces ignored), a make or model prefix, or part of a client's or agent's name; those names are looked up first, so
 * the planner sees plain id lists and every branch of the OR can use an index.
 */
export async function scanWhere(db: Executor, scope: DataScope, f: ScanFilters): Promise<RawBuilder<boolean>> {
  const parts: RawBuilder<boolean>[] = [scopePredicate(scope, scanScope)];
  if (f.agent_id !== undefined) parts.push(sql<boolean>`s.agent_id = ${f.agent_id}`);
  if (f.client_id !== undefined) parts.push(sql<boolean>`s.client_id = ${f.client_id}`);
  if (f.location_id !== undefined) parts.push(sql<boolean>`s.location_id = ${f.location_id}`);
  if (f.status) parts.push(sql<boolean>`s.status = ${f.status}`);
  if (f.type) parts.push(sql<boolean>`s.type = ${f.type}`);
  if (f.ts) parts.push(sql<boolean>`s.scanned_at >= ${instant(f.ts)}`);
  if (f.te) {
    // A date includes its whole (Melbourne) day; a time includes its whole second (or minute, without seconds).
    if (isDateOnly(f.te)) parts.push(sql<boolean>`s.scanned_at < ((${f.te}::date + 1)::timestamp at time zone ${SCAN_TIME_ZONE})`);
    else if (hasOffset(f.te)) parts.push(sql<boolean>`s.scanned_at <= ${f.te}::timestamptz`);
    else parts.push(sql<boolean>`s.scanned_at < ${instant(f.te)} + ${/\d{2}:\d{2}:\d{2}/.test(f.te) ? '1 second' : '1 minute'}::interval`);
  }
  if (f.ago) {
    const m = AGO.exec(f.ago)!;
    parts.push(sql<boolean>`s.scanned_at >= now() - ${`${m[1]} ${{ h: 'hours', d: 'days', m: 'minutes' }[m[2] as 'h' | 'd' | 'm']}`}::interval`);
  }
  if (f.q) {
    const q = f.q.toLowerCase();
    const plate = normalisePlate(f.q).toLowerCase();
    const named = (table: 'clients' | 'agents') => sql<{ id: number }>`select id from ${sql.table(table)} where name ilike ${`%${escapeLike(f.q!)}%`} limit 1000`.execute(db);
    const [clients, agents] = await Promise.all([named('clients'), named('agents')]);
    const branches = [
      sql<boolean>`lower(s.make) like ${`${escapeLike(q)}%`}`,
      sql<boolean>`lower(s.model) like ${`${escapeLike(q)}%`}`,
    ];
    if (plate) branches.unshift(sql<boolean>`lower(s.license_plate) like ${`${escapeLike(plate)}%`}`);
    if (clients.rows.length) branches.push(sql<boolean>`s.client_id = any(${idArray(clients.rows.map((r) => r.id))})`);
    if (agents.rows.length) branches.push(sql<boolean>`s.agent_id = any(${idArray(agents.rows.map((r) => r.id))})`);
    parts.push(sql<boolean>`(${sql.join(branches, sql` or `)})`);
  }
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

/** The columns of a list row (spec 2 §3 Scan, the list's subset), with the names the wire uses. */
const itemColumns = sql`s.id, s.scan_id, s.license_plate as "licensePlate", s.make, s.model, s.car_color as "carColor", s.body_type,
  s.valuation, s.location_id, l.name as location_name, s.location_state, s.client_id, c.name as client_name, s.agent_id,
  a.name as agent_name, s.device_id, s.type, s.status, s.scanned_at as "timestamp", s.start_time as "startTime",
  s.dent_count + s.scratch_count as "damageCount", s.dent_count as "dentCount", s.scratch_count as "scratchCount",
  s.created_at, s.updated_at`;
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
};

/**
 * Deep pages. A page's rows are found on the narrow (scanned_at, id) index entries and joined afterwards, so the
 * offset never reads the rows it skips; still, walking 100,000 entries costs milliseconds. So the first row of each
 * deep page served is remembered (per list query, for ANCHOR_TTL_MS, forgotten as soon as this process changes a
 * scan), and a later request for that page or one after it seeks to the nearest such anchor by key and walks only
 * the rest. Another process's changes can shift a remembered page by a row or two for at most the TTL.
 */
const ANCHOR_MIN_OFFSET = 1_000;
const ANCHOR_TTL_MS = 10_000;
const ANCHOR_LISTS = 200;
interface Anchor { ts: string; id: number }
const anchors = new Map<string, { at: number; version: number; byOffset: Map<number, Anchor> }>();
let scansVersion = 0;
/** Called by every write that may move a scan in or out of a list, or change its place in it. */
export const scansChanged = () => { scansVersion++; };

function anchorsFor(db: Executor, where: RawBuilder<boolean>) {
  const compiled = where.compile(db);
  const key = `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
  let entry = anchors.get(key);
  if (entry && (entry.version !== scansVersion || Date.now() - entry.at > ANCHOR_TTL_MS)) entry = undefined;
  if (!entry) {
    entry = { at: Date.now(), version: scansVersion, byOffset: new Map() };
    if (anchors.size >= ANCHOR_LISTS) anchors.delete(anchors.keys().next().value!);
  } else {
    anchors.delete(key);
  }
  anchors.set(key, entry);
  return entry.byOffset;
}

/** One page, newest first. */
export async function pageScans(db: Executor, where: RawBuilder<boolean>, page: number, perPage: number) {
  const offset = (page - 1) * perPage;
  const known = offset >= ANCHOR_MIN_OFFSET ? anchorsFor(db, where) : null;
  let from = 0;
  let anchor: Anchor | undefined;
  for (const [at, a] of known ?? []) if (at <= offset && at >= from) [from, anchor] = [at, a];
  const seek = anchor ? sql`and (s.scanned_at, s.id) <= (${anchor.ts}::timestamptz, ${anchor.id})` : sql``;
  const r = await sql<ScanItem & { anchor_ts: string }>`select ${itemColumns}, p.scanned_at::text as anchor_ts
    from (select s.id, s.scanned_at from scans s where ${where} ${seek} order by s.scanned_at desc, s.id desc
          limit ${perPage} offset ${offset - from}) p
    join scans s on s.id = p.id ${itemJoins}
    order by p.scanned_at desc, p.id desc`.execute(db);
  if (known && r.rows[0]) known.set(offset, { ts: r.rows[0].anchor_ts, id: r.rows[0].id });
  return r.rows.map(({ anchor_ts: _, ...item }) => item);
}

/**
 * The total: the planner's estimate when it expects far more than EXACT_COUNT_LIMIT rows, else an exact count that
 * reads at most EXACT_COUNT_LIMIT + 1 matches (and falls back to the estimate when there are more).
 */
export async function countScans(db: Executor, where: RawBuilder<boolean>): Promise<{ total: number; estimate: boolean }> {
  const estimate = async () => {
    const plan = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`explain (format json) select 1 from scans s where ${where}`.execute(db);
    return Math.round(plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows']);
  };
  const planned = await estimate();
  if (planned > EXACT_COUNT_LIMIT * 10) return { total: planned, estimate: true };
  const r = await sql<{ n: number }>`select count(*)::int as n from (select 1 from scans s where ${where} limit ${EXACT_COUNT_LIMIT + 1}) x`.execute(db);
  const n = r.rows[0].n;
  if (n <= EXACT_COUNT_LIMIT) return { total: n, estimate: false };
  return { total: Math.max(planned, EXACT_COUNT_LIMIT + 1), estimate: true };
}

/** One list row by id, inside the scope (or any, for events and ingestion). */
export async function findScanItem(db: Executor, id: number, scope?: DataScope): Promise<ScanItem | null> {
  const visible = scope ? scopePredicate(scope, scanScope) : sql<boolean>`true`;
  const r = await sql<ScanItem>`select ${itemColumns} from scans s ${itemJoins} where s.id = ${id} and ${visible}`.execute(db);
  return r.rows[0] ?? null;
}

/** Rows of the export, in list order, by keyset (the cursor is the last row's scanned_at as text, so no precision is lost). */
export async function exportBatch(db: Executor, where: RawBuilder<boolean>, after: { ts: string; id: number } | null, limit: number) {
  const cursor = after ? sql`and (s.scanned_at, s.id) < (${after.ts}::timestamptz, ${after.id})` : sql``;
  const r = await sql<ScanItem & { cursor_ts: string; local_time: string }>`select ${itemColumns}, s.scanned_at::text as cursor_ts,
      to_char(s.scanned_at at time zone ${SCAN_TIME_ZONE}, 'DD-MM-YYYY HH12:MI AM') as local_time
    from scans s ${itemJoins} where ${where} ${cursor} order by s.scanned_at desc, s.id desc limit ${limit}`.execute(db);
  return r.rows;
}

export type LevelCounts = Record<(typeof DAMAGE_LEVELS)[number], number>;
const zeroCounts = (): LevelCounts => Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, 0])) as LevelCounts;

/** Everything the scan page shows: the list row plus meta, part results, detections, counts, tyres, videos, images and reports. */
export async function findScanDetail(db: Executor, id: number, scope?: DataScope) {
  const item = await findScanItem(db, id, scope);
  if (!item) return null;
  const [extra, damages, measures, tyres, videos, annotates, reports] = await Promise.all([
    sql<{ meta_thumbnail: string | null; meta_src: string | null } & Record<'arch' | 'chasis' | 'tire' | 'rims', Record<string, unknown> | null>>`
      select meta_thumbnail, meta_src, arch, chasis, tire, rims from scans where id = ${id}`.execute(db),
    sql<{ id: number; damage_id: string; car_panel: string; type: string; level: string; width_mm: number; height_mm: number; image: string | null }>`
      select id, damage_id, car_panel, type, level, width_mm, height_mm, image from scan_damages where scan_id = ${id} order by car_panel, type, id`.execute(db),
    sql<{ car_panel: string; type: 'dents' | 'scratchs'; level: keyof LevelCounts; count: number }>`
      select car_panel, type, level, count from scan_measures where scan_id = ${id} order by car_panel`.execute(db),
    sql<{ id: number; row: number; direction: string; position: string; label: string; depths: number[]; eaten_tire: string; pressure_tire: string;
      coord_x: number | null; coord_y: number | null; measurement_image: string | null; image_file: string | null }>`
      select id, "row", direction, position, label, depths, eaten_tire, pressure_tire, coord_x, coord_y, measurement_image, image_file
      from scan_tyres where scan_id = ${id} order by "row", direction, position`.execute(db),
    sql<{ id: number; video_id: string; src: string; thumbnail: string | null }>`select id, video_id, src, thumbnail from scan_videos where scan_id = ${id} order by id`.execute(db),
    sql<{ id: number; src: string; vehicle_photo: boolean }>`select id, src, vehicle_photo from scan_annotates where scan_id = ${id} order by id`.execute(db),
    sql<{ kind: string; label: string; url: string }>`select kind, label, url from scan_reports where scan_id = ${id} order by id`.execute(db),
  ]);
  const x = extra.rows[0];
  const counts: { dents: Record<string, LevelCounts>; scratchs: Record<string, LevelCounts>; damage_count: Record<string, number> } = { dents: {}, scratchs: {}, damage_count: {} };
  for (const m of measures.rows) {
    (counts[m.type][m.car_panel] ??= zeroCounts())[m.level] = m.count;
    counts.damage_count[m.car_panel] = (counts.damage_count[m.car_panel] ?? 0) + m.count;
  }
  const pathOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  const report = reports.rows.find((r) => r.kind === 'scan_report') ?? null;
  return {
    ...item,
    meta: x.meta_thumbnail || x.meta_src ? { id: item.id, scan_id: item.scan_id, thumbnailImagePathUrl: x.meta_thumbnail, srcImagePathUrl: x.meta_src } : null,
    arch: x.arch ?? null,
    chasis: x.chasis ?? null,
    tire: x.tire ?? null,
    rims: x.rims ?? null,
    damages: damages.rows.map((d) => ({
      id: d.id, damage_id: d.damage_id, src: d.image, type: d.type, carPanel: d.car_panel, level: d.level,
      width_mm: d.width_mm, height_mm: d.height_mm, data: [{ measure: d.level, width_mm: d.width_mm, height_mm: d.height_mm }],
    })),
    measures: counts,
    data: tyres.rows.map((t) => ({
      id: t.id, row: t.row, direction: t.direction, position: t.position, label: t.label, depths: t.depths,
      measurementImageUrl: t.measurement_image, imageFileUrl: t.image_file,
      coordinates: t.coord_x === null || t.coord_y === null ? null : { x: t.coord_x, y: t.coord_y },
      conclusionDescription: { eatenTire: t.eaten_tire, pressureTire: t.pressure_tire },
    })),
    videos: videos.rows.map((v) => ({ id: v.id, video_id: v.video_id, src: v.src, thumbnail: v.thumbnail })),
    annotates: annotates.rows.map((a) => ({ id: a.id, src: a.src, path: pathOf(a.src), vehicle_photo: a.vehicle_photo })),
    report_pdfs: reports.rows.map((r) => ({ label: r.label, url: r.url, path: pathOf(r.url) })),
    pdf: report?.url ?? null,
    pdf_url: report?.url ?? null,
    pdf_path: report ? pathOf(report.url) : null,
  };
}
export type ScanDetail = NonNullable<Awaited<ReturnType<typeof findScanDetail>>>;

/** Recomputes a scan's counts from its detections (when the device sent none) and its totals from the counts. */
export async function refreshCounts(trx: Executor, scanId: number, fromDamages: boolean) {
  if (fromDamages) {
    await sql`delete from scan_measures where scan_id = ${scanId}`.execute(trx);
    await sql`insert into scan_measures (scan_id, car_panel, type, level, count)
      select scan_id, car_panel, type, level, count(*)::int from scan_damages where scan_id = ${scanId} group by scan_id, car_panel, type, level`.execute(trx);
  }
  await sql`update scans set
      dent_count = coalesce((select sum(count) from scan_measures where scan_id = ${scanId} and type = 'dents'), 0),
      scratch_count = coalesce((select sum(count) from scan_measures where scan_id = ${scanId} and type = 'scratchs'), 0),
      updated_at = now()
    where id = ${scanId}`.execute(trx);
}
