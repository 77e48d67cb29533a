import { DAMAGE_LEVELS, DAMAGE_TYPES, tyreLabel, type DamageLevel, type DamageType } from './scan-codes';
import type { VehicleDetail } from './vehicles';

/** One cell of the damage table: a scan's counts on one panel, per type, the levels that have any (level order). */
export type DamageCell = Record<DamageType, { level: DamageLevel; count: number }[]>;

const countsOf = (measures: VehicleDetail['damage'][number]['measures'], panel: string): DamageCell =>
  Object.fromEntries(
    DAMAGE_TYPES.map((type) => [
      type,
      DAMAGE_LEVELS.map((level) => ({ level, count: measures[type]?.[panel]?.[level] ?? 0 })).filter((c) => c.count > 0),
    ]),
  ) as DamageCell;

/**
 * The vehicle page's damage table: the panels any of its scans counted damage on (sorted), and per scan (in the given
 * order) one cell per panel.
 */
export function damageTable(damage: VehicleDetail['damage']): { panels: string[]; columns: { scanId: number; cells: DamageCell[] }[] } {
  const codes = new Set(damage.flatMap((d) => DAMAGE_TYPES.flatMap((type) => Object.keys(d.measures[type] ?? {}))));
  const panels = [...codes]
    .sort()
    .filter((panel) => damage.some((d) => DAMAGE_TYPES.some((type) => countsOf(d.measures, panel)[type].length > 0)));
  return { panels, columns: damage.map((d) => ({ scanId: d.scan_id, cells: panels.map((panel) => countsOf(d.measures, panel)) })) };
}

/** A wheel key ('1L', '2R') as the tire tab names it: FRONT LEFT, REAR RIGHT, or '{n} LEFT' between them. */
export function wheelLabels(wheels: string[]): Map<string, string> {
  const parsed = wheels.map((w) => ({ w, row: Number(w.slice(0, -1)), direction: w.slice(-1) as 'L' | 'R' }));
  const lastRow = Math.max(0, ...parsed.map((p) => p.row));
  return new Map(parsed.map((p) => [p.w, tyreLabel(p.row, lastRow, p.direction)]));
}

/** Wheels front to back, left before right. */
export const wheelOrder = (a: string, b: string) =>
  Number(a.slice(0, -1)) - Number(b.slice(0, -1)) || a.slice(-1).localeCompare(b.slice(-1));
