import { sql } from 'kysely';
import type { DataScope } from '../../src/domain/permissions';
import { DEFAULT_TREAD_LIMITS, treadLimitsOf } from '../../src/domain/scan-view';
import { wheelWear, type WheelWear } from '../../src/domain/tyre-wear';
import type { Executor } from '../db/database';
import { scopePredicate } from './resource';
import { scanScope } from './scan-scope';

/**
 * A scan's tyre wear: its vehicle's scans up to it (inside the caller's scope, when one is given) with their tyre
 * sides, as each wheel's readings and projection (src/domain/tyre-wear.ts). The scan service's tyre tab and the quote
 * service's Recheck Next Visit line both read it here. A scan without a vehicle has only its own readings.
 */
export async function loadTyreWear(
  db: Executor,
  scanId: number,
  scope?: DataScope,
): Promise<{ legal_min_mm: number; wheels: WheelWear[] }> {
  const visible = scope ? scopePredicate(scope, scanScope) : sql<boolean>`true`;
  const [rows, legal] = await Promise.all([
    sql<{ scan_id: number; scanned_at: Date; odometer_km: number | null; row: number; direction: 'L' | 'R'; depths: number[] }>`
      select s.id as scan_id, s.scanned_at, s.odometer_km, t."row", t.direction, t.depths
      from scans c
      join scans s on s.id = c.id or (s.vehicle_id = c.vehicle_id and (s.scanned_at, s.id) < (c.scanned_at, c.id))
      join scan_tyres t on t.scan_id = s.id
      where c.id = ${scanId} and ${visible}`.execute(db),
    legalMinMm(db),
  ]);
  const scans = [
    ...new Map(
      rows.rows.map((r) => [Number(r.scan_id), { id: Number(r.scan_id), scanned_at: r.scanned_at, odometer_km: r.odometer_km }]),
    ).values(),
  ];
  const tyres = rows.rows.map((r) => ({ scan_id: Number(r.scan_id), row: r.row, direction: r.direction, depths: r.depths }));
  return { legal_min_mm: legal, wheels: wheelWear(scans, tyres, legal) };
}

/** The tyre legal minimum (application setting TYRE_LEGAL_MIN_MM, default 1.5 mm). */
export async function legalMinMm(db: Executor): Promise<number> {
  const r = await sql<{ option_value: string }>`select option_value from options where option_name = 'TYRE_LEGAL_MIN_MM'`.execute(db);
  const value = r.rows[0]?.option_value;
  return value === undefined ? DEFAULT_TREAD_LIMITS.legal : treadLimitsOf({ TYRE_LEGAL_MIN_MM: value }).legal;
}
