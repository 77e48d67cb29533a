import { formatDay } from './format';
import { minDepthByWheel, projectWear, type TreadReading, type TyreSide, type WearProjection } from './vehicle-history';

/**
 * Tyre wear per wheel across a vehicle's scans (the scan page's tyre tab, the vehicle page, the Recheck Next Visit
 * line of a quote): each wheel's lowest tread depth at each scan, and the projection to the legal minimum
 * (./vehicle-history `projectWear`), which is an estimate and is always printed with the readings it rests on.
 */

/** One wheel ('1L'): its readings, oldest first, and the projection (null: too few readings, or not wearing). */
export interface WheelWear {
  wheel: string;
  readings: TreadReading[];
  projection: WearProjection | null;
}

/** A scan's time and odometer, and its tyre sides. */
export interface WearScan {
  id: number;
  scanned_at: Date | string;
  odometer_km: number | null;
}

/** Each wheel's wear over the scans (any order), in wheel order. */
export function wheelWear(scans: readonly WearScan[], tyres: readonly (TyreSide & { scan_id: number })[], legalMinMm: number): WheelWear[] {
  const readings = new Map<string, TreadReading[]>();
  const ordered = [...scans].sort((a, b) => Date.parse(String(a.scanned_at)) - Date.parse(String(b.scanned_at)) || a.id - b.id);
  for (const scan of ordered) {
    const at = new Date(scan.scanned_at).toISOString();
    for (const [wheel, depthMm] of minDepthByWheel(tyres.filter((t) => Number(t.scan_id) === scan.id)))
      readings.set(wheel, [...(readings.get(wheel) ?? []), { at, depthMm, odometerKm: scan.odometer_km }]);
  }
  return [...readings]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([wheel, list]) => ({ wheel, readings: list, projection: projectWear(list, legalMinMm) }));
}

/** A depth or a rate in millimetres as printed: at most two decimals ('1.5', '0.42'). */
export const formatMm = (mm: number) => String(Math.round(mm * 100) / 100);

/** The figures a projection is printed with, formatted for the language: rate, unit key, projected day, readings. */
export function wearFigures(projection: WearProjection, locale = 'en') {
  return {
    rate: formatMm(projection.rateMm),
    unit: projection.unit,
    projected: projection.projectedAt ? formatDay(projection.projectedAt, locale) : null,
    readings: projection.readings.map((r) => `${formatDay(r.at, locale)} ${formatMm(r.depthMm)} mm`),
  };
}
