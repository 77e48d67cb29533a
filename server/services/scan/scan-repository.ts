import { sql } from 'kysely';
import { SCAN_REPORTS } from './report';
import type { DataScope } from '../../../src/domain/permissions';
import { DAMAGE_LEVELS, isDateOnly, TYRE_REPAIR_TYPES } from '../../../src/domain/scan-codes';
import { DISPLAY_TIME_ZONE } from '../../../src/domain/formats';
import type { Executor } from '../../db/database';
import { scopePredicate } from '../../lib/resource';
import { comparisonBasis, comparisonFor, type ComparisonBasis, scanScope } from '../../lib/scan-scope';
import { FILES_PATH, keyOfUrl } from '../../lib/storage';
import { loadTyreChoices } from '../../lib/pricing-inputs';

/**
 * The scan record's statements: its list row and everything the scan page shows, and the writes every caller of a scan
 * shares (vehicle fields, counts, manual scans, the report row, deletion). Each takes a connection or a transaction.
 */

/** Scans' days and local times are Melbourne's (src/domain/formats.ts). */
export const SCAN_TIME_ZONE = DISPLAY_TIME_ZONE;

const hasOffset = (s: string) => /(Z|[+-]\d{2}:?\d{2})$/.test(s);
/** A time bound: an instant as given, or a Melbourne wall-clock time. */
export const instant = (s: string) =>
  hasOffset(s) ? sql`${s}::timestamptz` : sql`(${s.replace('T', ' ')}::timestamp at time zone ${SCAN_TIME_ZONE})`;
/** An inclusive end bound as the exclusive instant after it: a date includes its whole (Melbourne) day, a time its whole second (or minute, without seconds). */
export function endExclusive(te: string) {
  if (isDateOnly(te)) return sql`((${te}::date + 1)::timestamp at time zone ${SCAN_TIME_ZONE})`;
  if (hasOffset(te)) return sql`(${te}::timestamptz + '1 microsecond'::interval)`;
  return sql`(${instant(te)} + ${/\d{2}:\d{2}:\d{2}/.test(te) ? '1 second' : '1 minute'}::interval)`;
}

/**
 * The columns of a list row (the wire's Scan, the list's subset), with the names the wire uses; `new_damage` is read
 * from the comparison the basis names (the scope's, so no scan out of it is told of).
 */
export const itemColumns = (
  basis: ComparisonBasis,
) => sql`s.id, s.scan_id, s.license_plate as "licensePlate", s.make, s.model, s.car_color as "carColor", s.body_type,
  s.valuation, s.location_id, l.name as location_name, s.location_state, s.client_id, c.name as client_name, s.agent_id,
  a.name as agent_name, s.device_id, s.type, s.status, s.scanned_at as "timestamp", s.start_time as "startTime",
  s.dent_count + s.scratch_count as "damageCount", s.dent_count as "dentCount", s.scratch_count as "scratchCount",
  s.created_at, s.updated_at, exists (select 1 from quotes q where q.scan_id = s.id) as has_quote,
  coalesce((select k.new_damage_count from scan_comparisons k where k.scan_id = s.id and ${comparisonFor(basis)}), 0) as new_damage`;
export const itemJoins = sql`join agents a on a.id = s.agent_id left join clients c on c.id = s.client_id left join locations l on l.id = s.location_id`;

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
  /** Damage gained since the vehicle's previous scan (0 without a comparison). */
  new_damage: number;
};

/**
 * One list row by id, inside the scope (or any, for events and ingestion: its new damage is then the one every viewer
 * of the scan may see).
 */
export async function findScanItem(db: Executor, id: number, scope?: DataScope): Promise<ScanItem | null> {
  const visible = scope ? scopePredicate(scope, scanScope) : sql<boolean>`true`;
  const r =
    await sql<ScanItem>`select ${itemColumns(comparisonBasis(scope))} from scans s ${itemJoins} where s.id = ${id} and ${visible}`.execute(
      db,
    );
  return r.rows[0] ?? null;
}

export type LevelCounts = Record<(typeof DAMAGE_LEVELS)[number], number>;
export const zeroCounts = (): LevelCounts => Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, 0])) as LevelCounts;

/** Everything the scan page shows: the list row plus meta, part results, detections, counts, tyres, videos, images and reports. */
export async function findScanDetail(db: Executor, id: number, scope?: DataScope) {
  const item = await findScanItem(db, id, scope);
  if (!item) return null;
  const [extra, damages, measures, tyres, videos, annotates, reports, repairs] = await Promise.all([
    sql<
      { meta_thumbnail: string | null; meta_src: string | null } & Record<
        'arch' | 'chasis' | 'tire' | 'rims',
        Record<string, unknown> | null
      > & { version: number; vehicle_id: number | null }
    >`
      select meta_thumbnail, meta_src, arch, chasis, tire, rims, version, vehicle_id from scans where id = ${id}`.execute(db),
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
    version: x.version,
    vehicle_id: x.vehicle_id === null ? null : Number(x.vehicle_id),
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

/** Whether the scan has every one of its report PDFs (SCAN_REPORTS). */
export async function hasScanReport(db: Executor, scanId: number) {
  const kinds = SCAN_REPORTS.map((r) => r.kind);
  const r = await sql<{ n: number }>`select count(*)::int as n from scan_reports where scan_id = ${scanId}
    and kind = any(${kinds}::text[])`.execute(db);
  return r.rows[0].n === kinds.length;
}

/** Records one of the scan's report PDFs, replacing the previous one of its kind. */
export async function upsertScanReport(trx: Executor, scanId: number, report: { kind: string; label: string }, url: string) {
  await sql`insert into scan_reports (scan_id, kind, label, url) values (${scanId}, ${report.kind}, ${report.label}, ${url})
    on conflict (scan_id, kind) do update set url = excluded.url, label = excluded.label, created_at = now()`.execute(trx);
}

/**
 * Deletes a scan (its rows go with it) and returns the file keys it linked; null when no row was left to delete
 * (another DELETE committed first).
 */
export async function deleteScanRows(trx: Executor, scanId: number) {
  const linked = (await sql<{ key: string }>`select key from scan_files where scan_id = ${scanId}`.execute(trx)).rows.map((r) => r.key);
  const deleted = await sql`delete from scans where id = ${scanId}`.execute(trx);
  return Number(deleted.numAffectedRows ?? 0) > 0 ? linked : null;
}

export async function tyreRepairs(db: Executor, scanId: number) {
  return (await loadTyreChoices(db, scanId)).map((x) => ({
    ...x,
    position: x.direction === 'L' ? ('left' as const) : ('right' as const),
    repair_label: TYRE_REPAIR_TYPES.find((t) => t.id === x.repair_type)!.name,
  }));
}
