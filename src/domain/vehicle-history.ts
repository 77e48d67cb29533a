import { DAMAGE_LEVELS, DAMAGE_TYPES, normalisePlate, type DamageLevel, type DamageType } from './scan-codes';
import { panelLabelOf } from './scan-view';

/** A registration as vehicles are keyed by: upper-case, no spaces or dashes; blank is no registration. */
export const normaliseRegistration = (plate: string | null | undefined): string | null => {
  const n = plate == null ? '' : normalisePlate(plate);
  return n === '' ? null : n;
};

/** A VIN as vehicles are matched by: upper-case, no spaces or dashes; blank is no VIN. */
export const normaliseVin = normaliseRegistration;

/** A scan's damage counts per type, panel and level (the wire's `measures`). */
export type DamageCounts = Record<DamageType, Record<string, Partial<Record<DamageLevel, number>>>>;

/** What happened to one panel, type and level between two scans. */
export type DamageChange = 'new' | 'worsened' | 'unchanged' | 'gone';

export interface DamageDifference {
  carPanel: string;
  type: DamageType;
  level: DamageLevel;
  before: number;
  after: number;
  /** after - before */
  delta: number;
  /** new: none before; worsened: more than before; gone: fewer than before (none left or some); unchanged. */
  change: DamageChange;
}

/** One panel and type: its levels' differences and the overall verdict (a shift to a higher level is worsened). */
export interface PanelComparison {
  carPanel: string;
  type: DamageType;
  change: DamageChange;
  levels: DamageDifference[];
}

export interface DamageComparison {
  panels: PanelComparison[];
  /** True when any level of any panel gained damage. */
  hasNewDamage: boolean;
}

const levelChange = (before: number, after: number): DamageChange =>
  after === before ? 'unchanged' : before === 0 ? 'new' : after > before ? 'worsened' : 'gone';

/** Weighted by severity rank, so one light dent becoming medium reads as worse although the count stays. */
const severity = (counts: Partial<Record<DamageLevel, number>> | undefined) =>
  DAMAGE_LEVELS.reduce((s, l, i) => s + (counts?.[l] ?? 0) * (i + 1), 0);
const total = (counts: Partial<Record<DamageLevel, number>> | undefined) => DAMAGE_LEVELS.reduce((s, l) => s + (counts?.[l] ?? 0), 0);

function panelChange(before: Partial<Record<DamageLevel, number>> | undefined, after: Partial<Record<DamageLevel, number>> | undefined) {
  const [b, a] = [total(before), total(after)];
  if (b === 0) return a === 0 ? 'unchanged' : 'new';
  if (a === 0) return 'gone';
  const [sb, sa] = [severity(before), severity(after)];
  if (a > b || (a === b && sa > sb)) return 'worsened';
  if (a < b || sa < sb) return 'gone';
  return 'unchanged';
}

/**
 * Compares a scan's counts with the vehicle's previous scan's, per panel, type and level. A panel counted in only one
 * of the two scans is compared with zero; a panel with no damage in either is left out.
 */
export function compareDamage(previous: DamageCounts, current: DamageCounts): DamageComparison {
  const panels: PanelComparison[] = [];
  for (const type of DAMAGE_TYPES) {
    const codes = new Set([...Object.keys(previous[type] ?? {}), ...Object.keys(current[type] ?? {})]);
    for (const carPanel of [...codes].sort()) {
      const before = previous[type]?.[carPanel];
      const after = current[type]?.[carPanel];
      if (total(before) + total(after) === 0) continue;
      const levels = DAMAGE_LEVELS.map((level) => {
        const [b, a] = [before?.[level] ?? 0, after?.[level] ?? 0];
        return { carPanel, type, level, before: b, after: a, delta: a - b, change: levelChange(b, a) };
      }).filter((d) => d.before + d.after > 0);
      panels.push({ carPanel, type, change: panelChange(before, after), levels });
    }
  }
  return { panels, hasNewDamage: panels.some((p) => p.levels.some((l) => l.delta > 0)) };
}

/** The gains of a comparison, a panel's dents before its scratches, in panel order. */
export function newDamage(comparison: DamageComparison): DamageDifference[] {
  return comparison.panels
    .flatMap((p) => p.levels)
    .filter((d) => d.delta > 0)
    .sort((x, y) => x.carPanel.localeCompare(y.carPanel) || DAMAGE_TYPES.indexOf(x.type) - DAMAGE_TYPES.indexOf(y.type));
}

/**
 * One line for the gains: 'Left Front Door +2 medium dents, Bonnet +1 scratch'. Dents keep their level (they price
 * by it); a panel's new scratches are summed across levels. Empty when nothing is new.
 */
export function newDamageSummary(comparison: DamageComparison, labelOf: (carPanel: string) => string = panelLabelOf): string {
  const parts: string[] = [];
  const gains = newDamage(comparison);
  const panels = [...new Set(gains.map((d) => d.carPanel))];
  for (const carPanel of panels) {
    const label = labelOf(carPanel);
    for (const d of gains.filter((g) => g.carPanel === carPanel && g.type === 'dents'))
      parts.push(`${label} +${d.delta} ${d.level} ${d.delta === 1 ? 'dent' : 'dents'}`);
    const scratches = gains.filter((g) => g.carPanel === carPanel && g.type === 'scratchs').reduce((s, d) => s + d.delta, 0);
    if (scratches > 0) parts.push(`${label} +${scratches} ${scratches === 1 ? 'scratch' : 'scratches'}`);
  }
  return parts.join(', ');
}

/**
 * The same gains in the reader's language through the catalogue (app.scanPage.new_dents, new_scratches,
 * new_separator): the scan page's New since line and the vehicle page's timeline.
 */
export function newDamageText(panels: PanelComparison[], translate: (key: string, options?: object) => string): string {
  const gains = newDamage({ panels, hasNewDamage: true });
  const parts: string[] = [];
  for (const carPanel of [...new Set(gains.map((g) => g.carPanel))]) {
    const panel = panelLabelOf(carPanel);
    for (const d of gains.filter((g) => g.carPanel === carPanel && g.type === 'dents'))
      parts.push(
        translate('app.scanPage.new_dents', {
          panel,
          smart_count: d.delta,
          level: translate(`app.scanPage.level.${d.level}`).toLowerCase(),
        }),
      );
    const scratches = gains.filter((g) => g.carPanel === carPanel && g.type === 'scratchs').reduce((s, d) => s + d.delta, 0);
    if (scratches > 0) parts.push(translate('app.scanPage.new_scratches', { panel, smart_count: scratches }));
  }
  return parts.join(translate('app.scanPage.new_separator'));
}

/** One wheel's reading at one scan: the lowest depth across its tread profile (and sides). */
export interface TreadReading {
  /** ISO 8601 */
  at: string;
  depthMm: number;
  odometerKm?: number | null;
}

export interface WearProjection {
  /** The readings the projection rests on: from the last tyre change on, oldest first. */
  readings: TreadReading[];
  /** Wear per 10,000 km when every reading has an odometer figure, else per 30 days. */
  unit: 'per10000km' | 'per30days';
  /** Millimetres lost per unit (positive while the tyre wears). */
  rateMm: number;
  /** When the fitted line reaches the legal minimum (ISO date); null when the tread is not wearing. */
  projectedAt: string | null;
}

/** A rise of more than this between two readings is a new tyre: its series starts there. */
export const TYRE_CHANGE_MM = 1;
export const DEFAULT_LEGAL_MIN_MM = 1.5;
const DAY_MS = 86_400_000;

/** The least-squares line y = intercept + slope x; null when the x values do not spread. */
function leastSquares(points: { x: number; y: number }[]) {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  if (sxx === 0) return null;
  const slope = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
  return { slope, intercept: my - slope * mx };
}

/** The readings since the last tyre change, oldest first. */
export function currentTyreSeries(readings: TreadReading[]): TreadReading[] {
  const sorted = [...readings].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  let start = 0;
  for (let i = 1; i < sorted.length; i++) if (sorted[i].depthMm - sorted[i - 1].depthMm > TYRE_CHANGE_MM) start = i;
  return sorted.slice(start);
}

/**
 * The wear rate and the projected date the tread reaches `legalMinMm`, by a least-squares line through the readings
 * since the last tyre change: depth over odometer when every reading has one (the date then follows the km driven per
 * day over those readings), else depth over time. Fewer than two readings, or readings that do not spread: null.
 */
export function projectWear(readings: TreadReading[], legalMinMm = DEFAULT_LEGAL_MIN_MM): WearProjection | null {
  const series = currentTyreSeries(readings);
  if (series.length < 2) return null;
  const days = series.map((r) => Date.parse(r.at) / DAY_MS);
  const byTime = leastSquares(series.map((r, i) => ({ x: days[i], y: r.depthMm })));
  const withKm = series.every((r) => r.odometerKm != null);
  const byKm = withKm ? leastSquares(series.map((r) => ({ x: r.odometerKm!, y: r.depthMm }))) : null;
  const kmPerDay = withKm ? leastSquares(series.map((r, i) => ({ x: days[i], y: r.odometerKm! }))) : null;
  if (byKm && kmPerDay) {
    const rateMm = round2(-byKm.slope * 10_000);
    const kmAtMin = (legalMinMm - byKm.intercept) / byKm.slope;
    const dayAtMin = (kmAtMin - kmPerDay.intercept) / kmPerDay.slope;
    const wearing = byKm.slope < 0 && kmPerDay.slope > 0;
    return { readings: series, unit: 'per10000km', rateMm, projectedAt: wearing ? isoDate(dayAtMin) : null };
  }
  if (!byTime) return null;
  const dayAtMin = (legalMinMm - byTime.intercept) / byTime.slope;
  return {
    readings: series,
    unit: 'per30days',
    rateMm: round2(-byTime.slope * 30),
    projectedAt: byTime.slope < 0 ? isoDate(dayAtMin) : null,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100 || 0;
const isoDate = (day: number) => new Date(Math.round(day * DAY_MS)).toISOString().slice(0, 10);

/** One tyre side of a scan, as stored (scan_tyres). */
export interface TyreSide {
  row: number;
  direction: 'L' | 'R';
  depths: number[];
}

/** A wheel's key: its row and side ('1L'); both tread sides (inner, outer) of a wheel are one wheel. */
export const wheelKey = (t: Pick<TyreSide, 'row' | 'direction'>) => `${t.row}${t.direction}`;

/** The lowest tread depth of each wheel of one scan. */
export function minDepthByWheel(tyres: TyreSide[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of tyres) {
    if (t.depths.length === 0) continue;
    const min = Math.min(...t.depths);
    const key = wheelKey(t);
    out.set(key, Math.min(out.get(key) ?? Infinity, min));
  }
  return out;
}
