import { type RawBuilder, sql } from 'kysely';
import { type DataScope, isUnrestricted } from '../../../src/domain/permissions';
import type { DamageCounts, PanelComparison } from '../../../src/domain/vehicle-history';
import type { VehicleSort } from '../../../src/domain/vehicles';
import { DISPLAY_TIME_ZONE } from '../../../src/domain/formats';
import type { Executor } from '../../db/database';
import { scopePredicate } from '../../lib/resource';
import { comparisonBasis, comparisonFor, type ComparisonBasis, scanScope } from '../../lib/scan-scope';

const BASES: ComparisonBasis[] = ['all', 'agent', 'client', 'pair'];

/** What linking reads of a scan. */
export interface ScanVehicleFacts {
  id: number;
  type: string;
  license_plate: string | null;
  location_state: string | null;
  vin: string | null;
  make: string | null;
  model: string | null;
  scanned_at: Date;
  vehicle_id: number | null;
}

export async function findScanVehicleFacts(trx: Executor, scanId: number) {
  const r = await sql<ScanVehicleFacts>`select id, type, license_plate, location_state, vin, make, model, scanned_at, vehicle_id
    from scans where id = ${scanId}`.execute(trx);
  return r.rows[0] ?? null;
}

/** Writes what a device reported beyond the registration (VIN, odometer); undefined leaves a column as it is. */
export async function setScanVehicleExtras(trx: Executor, scanId: number, extras: { vin?: string | null; odometer_km?: number | null }) {
  if (extras.vin === undefined && extras.odometer_km === undefined) return;
  await sql`update scans set
      vin = ${extras.vin === undefined ? sql.ref('vin') : extras.vin},
      odometer_km = ${extras.odometer_km === undefined ? sql.ref('odometer_km') : extras.odometer_km}
    where id = ${scanId}`.execute(trx);
}

/** Serialises the linking of one key (a VIN, or a registration in a state) across concurrent writers. */
export async function lockVehicleKey(trx: Executor, key: string) {
  await sql`select pg_advisory_xact_lock(hashtext(${`vehicle:${key}`}))`.execute(trx);
}

interface VehicleHead {
  id: number;
  vin: string | null;
}

export async function vehicleByVin(trx: Executor, vin: string) {
  const r = await sql<VehicleHead>`select id, vin from vehicles where vin = ${vin}`.execute(trx);
  return r.rows[0] ?? null;
}

/** The vehicle carrying a registration in a state now: of several (a plate moved to another car), the one seen last. */
export async function vehicleByRegistration(trx: Executor, registration: string, state: string | null) {
  const r = await sql<VehicleHead>`select id, vin from vehicles
    where registration = ${registration} and coalesce(state, '') = coalesce(${state}::text, '')
    order by last_seen desc, id desc limit 1`.execute(trx);
  return r.rows[0] ?? null;
}

export async function insertVehicle(trx: Executor, v: { registration: string | null; state: string | null; vin: string | null; at: Date }) {
  const r = await sql<{ id: number }>`insert into vehicles (registration, state, vin, first_seen, last_seen)
    values (${v.registration}, ${v.state}, ${v.vin}, ${v.at}, ${v.at}) returning id`.execute(trx);
  return r.rows[0].id;
}

export async function setVehicleVin(trx: Executor, vehicleId: number, vin: string) {
  await sql`update vehicles set vin = ${vin}, updated_at = now() where id = ${vehicleId}`.execute(trx);
}

export async function setScanVehicle(trx: Executor, scanId: number, vehicleId: number | null) {
  await sql`update scans set vehicle_id = ${vehicleId} where id = ${scanId} and vehicle_id is distinct from ${vehicleId}`.execute(trx);
}

/**
 * Recomputes a vehicle's first and last seen, and takes its registration, state, make and model from its latest scan
 * that has them; a vehicle left without scans is removed.
 */
export async function refreshVehicle(trx: Executor, vehicleId: number) {
  const r = await sql`update vehicles v set
      first_seen = x.first_seen, last_seen = x.last_seen,
      registration = coalesce(x.registration, v.registration), state = coalesce(x.state, v.state),
      make = coalesce(x.make, v.make), model = coalesce(x.model, v.model), updated_at = now()
    from (
      select min(scanned_at) as first_seen, max(scanned_at) as last_seen,
        (array_agg(upper(regexp_replace(license_plate, '[\\s-]+', '', 'g')) order by scanned_at desc, id desc)
          filter (where license_plate is not null and license_plate <> ''))[1] as registration,
        (array_agg(location_state order by scanned_at desc, id desc) filter (where location_state is not null))[1] as state,
        (array_agg(make order by scanned_at desc, id desc) filter (where make is not null))[1] as make,
        (array_agg(model order by scanned_at desc, id desc) filter (where model is not null))[1] as model
      from scans where vehicle_id = ${vehicleId}
    ) x
    where v.id = ${vehicleId} and x.last_seen is not null`.execute(trx);
  if (Number(r.numAffectedRows ?? 0) === 0) await sql`delete from vehicles where id = ${vehicleId}`.execute(trx);
}

/** The comparison window in days (application setting VEHICLE_COMPARE_WINDOW_DAYS). */
export async function compareWindowDays(trx: Executor, fallback: number) {
  const r = await sql<{
    option_value: string;
  }>`select option_value from options where option_name = 'VEHICLE_COMPARE_WINDOW_DAYS'`.execute(trx);
  const n = Number(r.rows[0]?.option_value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** A basis's test on another scan `p` of the scan `s`'s vehicle: any scan, or one of the same agent, client, or both. */
const sameBasis: Record<ComparisonBasis, (p: string) => RawBuilder<boolean>> = {
  all: () => sql<boolean>`true`,
  agent: (p) => sql<boolean>`${sql.ref(`${p}.agent_id`)} = s.agent_id`,
  client: (p) => sql<boolean>`${sql.ref(`${p}.client_id`)} = s.client_id`,
  pair: (p) => sql<boolean>`${sql.ref(`${p}.agent_id`)} = s.agent_id and ${sql.ref(`${p}.client_id`)} = s.client_id`,
};

export type PreviousScans = Record<ComparisonBasis, { id: number; scanned_at: Date } | null>;

/**
 * The same vehicle's previous scan of the same kind within the window before this one, per basis (of any agent and
 * client, of the scan's agent, of its client, of both); null where there is none.
 */
export async function previousScansOf(trx: Executor, scanId: number, windowDays: number): Promise<PreviousScans> {
  const previous = (basis: ComparisonBasis) => sql`(
      select json_build_object('id', p.id, 'scanned_at', p.scanned_at) from scans p
      where p.vehicle_id = s.vehicle_id and p.type = s.type and (p.scanned_at, p.id) < (s.scanned_at, s.id)
        and p.scanned_at >= s.scanned_at - make_interval(days => ${windowDays}) and ${sameBasis[basis]('p')}
      order by p.scanned_at desc, p.id desc limit 1
    ) as ${sql.ref(basis)}`;
  const r = await sql<Record<ComparisonBasis, { id: number; scanned_at: string } | null>>`select
      ${sql.join(BASES.map(previous))}
    from scans s where s.id = ${scanId} and s.vehicle_id is not null`.execute(trx);
  const row = r.rows[0];
  const of = (basis: ComparisonBasis) => {
    const p = row?.[basis];
    return p ? { id: Number(p.id), scanned_at: new Date(p.scanned_at) } : null;
  };
  return { all: of('all'), agent: of('agent'), client: of('client'), pair: of('pair') };
}

/** The same vehicle's next scans of the same kind after this one, per basis (their comparisons may rest on this scan now). */
export async function nextScansOf(trx: Executor, scanId: number) {
  const next = (basis: ComparisonBasis) => sql`(
      select n.id from scans n
      where n.vehicle_id = s.vehicle_id and n.type = s.type and (n.scanned_at, n.id) > (s.scanned_at, s.id) and ${sameBasis[basis]('n')}
      order by n.scanned_at, n.id limit 1
    )`;
  const r = await sql<{ ids: (number | null)[] }>`select array[${sql.join(BASES.map(next))}] as ids
    from scans s where s.id = ${scanId} and s.vehicle_id is not null`.execute(trx);
  return [...new Set((r.rows[0]?.ids ?? []).filter((id) => id !== null).map(Number))];
}

/** The scans whose stored comparison rests on this one. */
export async function comparedAgainst(trx: Executor, scanId: number) {
  const r = await sql<{ scan_id: number }>`select scan_id from scan_comparisons where previous_scan_id = ${scanId}`.execute(trx);
  return r.rows.map((x) => x.scan_id);
}

/** Two scans' counts per type, panel and level. */
export async function countsOf(trx: Executor, scanIds: number[]) {
  const r = await sql<{
    scan_id: number;
    car_panel: string;
    type: 'dents' | 'scratchs';
    level: string;
    count: number;
  }>`select scan_id, car_panel, type, level, count from scan_measures where scan_id = any(${scanIds}::bigint[]) and count > 0`.execute(trx);
  const out = new Map<number, DamageCounts>(scanIds.map((id) => [id, { dents: {}, scratchs: {} }]));
  for (const m of r.rows) {
    const panels = out.get(Number(m.scan_id))![m.type];
    panels[m.car_panel] = { ...panels[m.car_panel], [m.level]: m.count };
  }
  return out;
}

export interface StoredComparison {
  previous_scan_id: number;
  previous_scanned_at: Date;
  differences: PanelComparison[];
  summary: string;
  has_new_damage: boolean;
  new_damage_count: number;
  /** The viewers it serves (docs/server.md, Vehicles). */
  bases: ComparisonBasis[];
}

/** Stores the scan's comparisons (one per distinct previous scan, flagged with the bases it serves) and drops the rest. */
export async function replaceComparisons(trx: Executor, scanId: number, rows: StoredComparison[]) {
  const kept = rows.map((c) => c.previous_scan_id);
  await sql`delete from scan_comparisons where scan_id = ${scanId} and not (previous_scan_id = any(${kept}::bigint[]))`.execute(trx);
  for (const c of rows)
    await sql`insert into scan_comparisons (scan_id, previous_scan_id, previous_scanned_at, differences, summary, has_new_damage,
        new_damage_count, for_all, for_agent, for_client, for_pair)
      values (${scanId}, ${c.previous_scan_id}, ${c.previous_scanned_at}, ${JSON.stringify(c.differences)}::jsonb, ${c.summary},
        ${c.has_new_damage}, ${c.new_damage_count}, ${c.bases.includes('all')}, ${c.bases.includes('agent')},
        ${c.bases.includes('client')}, ${c.bases.includes('pair')})
      on conflict (scan_id, previous_scan_id) do update set previous_scanned_at = excluded.previous_scanned_at,
        differences = excluded.differences, summary = excluded.summary, has_new_damage = excluded.has_new_damage,
        new_damage_count = excluded.new_damage_count, for_all = excluded.for_all, for_agent = excluded.for_agent,
        for_client = excluded.for_client, for_pair = excluded.for_pair, computed_at = now()`.execute(trx);
}

/** A scan's stored comparison for a basis, as the scan page shows it; null when there is none. */
export async function findComparison(db: Executor, scanId: number, basis: ComparisonBasis) {
  const r = await sql<{
    previous_scan_id: number;
    previous_scanned_at: Date;
    differences: PanelComparison[];
    summary: string;
    has_new_damage: boolean;
  }>`select previous_scan_id, previous_scanned_at, differences, summary, has_new_damage
    from scan_comparisons k where scan_id = ${scanId} and ${comparisonFor(basis)}`.execute(db);
  return r.rows[0] ?? null;
}

/**
 * The vehicles as the caller sees them. An unrestricted caller reads the stored rows, whose facts come from all the
 * vehicle's scans (`refreshVehicle`). Anyone else sees only the vehicles with a scan in their scope, with the facts
 * of those scans alone: another agent's later scan must not show its date, make or model (or a VIN only it read).
 */
function vehiclesSeen(scope: DataScope) {
  if (isUnrestricted(scope)) return sql`vehicles`;
  const latest = (column: RawBuilder<unknown>, present: RawBuilder<boolean>) =>
    sql`(array_agg(${column} order by s.scanned_at desc, s.id desc) filter (where ${present}))[1]`;
  return sql`(select v.id, coalesce(x.registration, v.registration) as registration, coalesce(x.state, v.state) as state,
      x.vin, x.make, x.model, x.first_seen, x.last_seen
    from vehicles v cross join lateral (
      select min(s.scanned_at) as first_seen, max(s.scanned_at) as last_seen,
        ${latest(sql`upper(regexp_replace(s.license_plate, '[\\s-]+', '', 'g'))`, sql`s.license_plate is not null and s.license_plate <> ''`)} as registration,
        ${latest(sql`s.location_state`, sql`s.location_state is not null`)} as state,
        ${latest(sql`s.vin`, sql`s.vin is not null`)} as vin,
        ${latest(sql`s.make`, sql`s.make is not null`)} as make,
        ${latest(sql`s.model`, sql`s.model is not null`)} as model
      from scans s where s.vehicle_id = v.id and ${scopePredicate(scope, scanScope)}
    ) x
    where x.last_seen is not null)`;
}

export interface VehicleRow {
  id: number;
  registration: string | null;
  state: string | null;
  vin: string | null;
  make: string | null;
  model: string | null;
  first_seen: Date;
  last_seen: Date;
}

/** The vehicles whose registration or VIN starts with `q` (all of them without one). */
function vehicleSearch(q: string | undefined) {
  const prefix = q ? `${q.replace(/[\\%_]/g, '\\$&')}%` : null;
  return sql<boolean>`(${prefix}::text is null or v.registration like ${prefix} or v.vin like ${prefix})`;
}

const VEHICLE_COLUMNS = sql`v.id, v.registration, v.state, v.vin, v.make, v.model, v.first_seen, v.last_seen`;

/** A page of the vehicles the caller sees a scan of; `q` is a prefix of the registration or the VIN. */
export async function listVehicles(
  db: Executor,
  scope: DataScope,
  query: { q?: string; sort: VehicleSort; order: 'asc' | 'desc'; page: number; per_page: number },
) {
  const where = vehicleSearch(query.q);
  const order = query.order === 'asc' ? sql`asc` : sql`desc`;
  const from = vehiclesSeen(scope);
  const [rows, total] = await Promise.all([
    sql<VehicleRow>`select ${VEHICLE_COLUMNS} from ${from} v
      where ${where} order by ${sql.ref(`v.${query.sort}`)} ${order} nulls last, v.id ${order}
      limit ${query.per_page} offset ${(query.page - 1) * query.per_page}`.execute(db),
    sql<{ n: string }>`select count(*) as n from ${from} v where ${where}`.execute(db),
  ]);
  return { items: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}

/** How many vehicles the search holds, counting no further than `limit + 1`. */
export async function countVehiclesUpTo(db: Executor, scope: DataScope, q: string | undefined, limit: number) {
  const r = await sql<{ n: number }>`select count(*)::int as n from (select 1 from ${vehiclesSeen(scope)} v
    where ${vehicleSearch(q)} limit ${limit + 1}) x`.execute(db);
  return r.rows[0].n;
}

/** A report row: the list row and its first and last scans in Melbourne wall-clock time ('YYYY-MM-DDTHH:mm:ss'). */
export type VehicleExportRow = VehicleRow & { first_iso: string; last_iso: string };

/** The report's rows in the list's order (`sort` then id, empty values last), for server/lib/report-file.ts to read in batches. */
export function vehicleExportRows(scope: DataScope, query: { q?: string; sort: VehicleSort; order: 'asc' | 'desc' }) {
  const order = query.order === 'asc' ? sql`asc` : sql`desc`;
  return sql<VehicleExportRow>`select ${VEHICLE_COLUMNS},
      to_char(v.first_seen at time zone ${DISPLAY_TIME_ZONE}, 'YYYY-MM-DD"T"HH24:MI:SS') as first_iso,
      to_char(v.last_seen at time zone ${DISPLAY_TIME_ZONE}, 'YYYY-MM-DD"T"HH24:MI:SS') as last_iso
    from ${vehiclesSeen(scope)} v where ${vehicleSearch(query.q)}
    order by ${sql.ref(`v.${query.sort}`)} ${order} nulls last, v.id ${order}`;
}

export async function findVehicle(db: Executor, scope: DataScope, id: number) {
  const r = await sql<VehicleRow>`select ${VEHICLE_COLUMNS} from ${vehiclesSeen(scope)} v where v.id = ${id}`.execute(db);
  return r.rows[0] ?? null;
}

/** The vehicle's scans in the caller's scope, oldest first, each with its comparison for the scope (no scan out of it shows). */
export async function vehicleScans(db: Executor, scope: DataScope, vehicleId: number) {
  const r = await sql<{
    id: number;
    scan_id: string;
    type: string;
    status: string;
    license_plate: string | null;
    scanned_at: Date;
    odometer_km: number | null;
    dent_count: number;
    scratch_count: number;
    summary: string | null;
    differences: PanelComparison[] | null;
    has_new_damage: boolean | null;
    previous_scan_id: number | null;
  }>`select s.id, s.scan_id, s.type, s.status, s.license_plate, s.scanned_at, s.odometer_km, s.dent_count, s.scratch_count,
      c.summary, c.differences, c.has_new_damage, c.previous_scan_id
    from scans s
    left join scan_comparisons c on c.scan_id = s.id and ${comparisonFor(comparisonBasis(scope), 'c')}
    where s.vehicle_id = ${vehicleId} and ${scopePredicate(scope, scanScope)}
    order by s.scanned_at, s.id`.execute(db);
  return r.rows;
}

/** The quotes of those scans, oldest first. */
export async function quotesOfScans(db: Executor, scanIds: number[]) {
  const r = await sql<{
    id: number;
    scan_id: number;
    grant_total: number;
    currency: string | null;
    manual_check: boolean;
    created_at: Date;
    status: string;
  }>`select id, scan_id, grant_total, currency, manual_check, created_at, status from quotes where scan_id = any(${scanIds}::bigint[])
    order by created_at, id`.execute(db);
  return r.rows;
}

/** Every tyre side of those scans: the wheel, its tread profile. */
export async function tyresOfScans(db: Executor, scanIds: number[]) {
  const r = await sql<{
    scan_id: number;
    row: number;
    direction: 'L' | 'R';
    depths: number[];
  }>`select scan_id, "row", direction, depths from scan_tyres where scan_id = any(${scanIds}::bigint[])`.execute(db);
  return r.rows;
}
