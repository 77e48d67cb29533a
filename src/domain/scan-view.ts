import { DAMAGE_LEVELS, tyreLabel, type DamageLevel, type DamageType } from './scan-codes';
import type { ArchData, PlateLookup, PlateSuggestion, ScanDetail } from './records';

/** Chip colours on the car sketch. */
export const DENT_COLOUR = '#B54054';
export const SCRATCH_COLOUR = '#334A8F';
/** New damage since the vehicle's previous scan: its own colour on the sketch (white text on it passes 4.5:1). */
export const NEW_DAMAGE_COLOUR = '#8A4B00';

/** Severity colours. */
export const SEVERITY_COLOURS: Record<DamageLevel, string> = {
  oversize: '#561329',
  severe: '#81182E',
  heavy: '#C1484E',
  medium: '#CC9188',
  light: '#D8D1C1',
};

/** Highest severity first, as a tooltip lists them. */
export const LEVELS_DOWN: DamageLevel[] = [...DAMAGE_LEVELS].reverse();

export type LevelCounts = Record<DamageLevel, number>;
export const emptyCounts = (): LevelCounts => ({ light: 0, medium: 0, heavy: 0, severe: 0, oversize: 0 });
export const sumCounts = (c: Partial<LevelCounts> | undefined) => DAMAGE_LEVELS.reduce((n, l) => n + (c?.[l] ?? 0), 0);

/** One car panel's counts for the sketch and the damage modal. */
export interface PanelDamage {
  carPanel: string;
  dents: LevelCounts;
  scratchs: LevelCounts;
  dentTotal: number;
  scratchTotal: number;
}

/** Every panel the scan counts damage on (measures), in a stable order; panels with no count are left out. */
export function panelDamages(measures: ScanDetail['measures']): PanelDamage[] {
  const panels = new Set([...Object.keys(measures.dents), ...Object.keys(measures.scratchs)]);
  return [...panels]
    .sort()
    .map((carPanel) => {
      const dents = { ...emptyCounts(), ...measures.dents[carPanel] };
      const scratchs = { ...emptyCounts(), ...measures.scratchs[carPanel] };
      return { carPanel, dents, scratchs, dentTotal: sumCounts(dents), scratchTotal: sumCounts(scratchs) };
    })
    .filter((p) => p.dentTotal + p.scratchTotal > 0);
}

/** The highest level with a count, for the chip's severity mark; null without damage. */
export function worstLevel(counts: LevelCounts): DamageLevel | null {
  return LEVELS_DOWN.find((l) => counts[l] > 0) ?? null;
}

export interface SketchPanel extends PanelDamage {
  label: string;
}
export interface SketchGroup {
  group: { id: number; name: string; image: string | null } | null;
  panels: SketchPanel[];
}

/** 'left_front_door' → 'Left Front Door', for a code no panel names. */
export const panelLabelOf = (carPanel: string) =>
  carPanel
    .split('_')
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');

/**
 * The sketch from `GET archData/search`: each panel group's drawing (position order) with its damaged panels and their
 * counts per level (a panel on several views, like a front guard seen from the front and the side, shows on each);
 * counted panels no group holds (`unplaced`) come last, without a drawing.
 */
export function sketchGroups(arch: ArchData): SketchGroup[] {
  const damaged = new Map(panelDamages(arch.countbymeasure).map((p) => [p.carPanel, p]));
  const out: SketchGroup[] = [...arch.panel_groups]
    .sort((a, b) => a.position - b.position)
    .map((g) => {
      const seen = new Set<string>();
      const panels: SketchPanel[] = [];
      for (const p of [...g.panels].sort((a, b) => a.position - b.position)) {
        const d = damaged.get(p.carPanel);
        if (!d || seen.has(p.carPanel)) continue;
        seen.add(p.carPanel);
        panels.push({ ...d, label: p.label || p.name });
      }
      return { group: { id: g.id, name: g.name, image: g.image }, panels };
    });
  const rest = arch.unplaced
    .map((code) => damaged.get(code))
    .filter((d): d is PanelDamage => !!d)
    .map((d) => ({ ...d, label: panelLabelOf(d.carPanel) }));
  if (rest.length) out.push({ group: null, panels: rest });
  return out;
}

/** The dent and scratch detections of one panel, optionally one kind only (the modal's All / Dent / Scratch). */
export function panelDetections(damages: ScanDetail['damages'], carPanel: string, kind: 'all' | DamageType) {
  const onPanel = damages.filter((d) => d.carPanel === carPanel);
  return {
    dents: kind === 'scratchs' ? [] : onPanel.filter((d) => d.type === 'dents'),
    scratchs: kind === 'dents' ? [] : onPanel.filter((d) => d.type === 'scratchs'),
  };
}

/** A damage-count input's text → a count 0–999, or null while it is not one. */
export function parseCount(text: string): number | null {
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  return Number(text.trim());
}

// ---- Valuation ----

/** '$25,750' for 25750 (whole dollars, thousands separators); '' without a value. */
export function formatValuation(v: unknown, locale = 'en'): string {
  const digits = typeof v === 'number' ? String(Math.round(v)) : typeof v === 'string' ? v.replace(/[^\d]/g, '') : '';
  if (digits === '') return '';
  return `$${Number(digits).toLocaleString(locale === 'ja' ? 'ja-JP' : 'en-AU')}`;
}

// ---- Tyres (Tire tab) ----

type Tyre = ScanDetail['data'][number];
export interface TyreWheel {
  label: string;
  inner: Tyre | null;
  outer: Tyre | null;
}
export interface TyreRow {
  row: number;
  left: TyreWheel;
  right: TyreWheel;
}

/** One row per axle, left and right wheel, each with its inner and outer profile; rows in order. */
export function tyreRows(tyres: ScanDetail['data']): TyreRow[] {
  const rows = [...new Set(tyres.map((t) => t.row))].sort((a, b) => a - b);
  const last = rows[rows.length - 1];
  const wheel = (row: number, direction: 'L' | 'R'): TyreWheel => {
    const on = tyres.filter((t) => t.row === row && t.direction === direction);
    return {
      label: on[0]?.label ?? tyreLabel(row, last, direction),
      inner: on.find((t) => t.position === 'I') ?? null,
      outer: on.find((t) => t.position === 'O') ?? null,
    };
  };
  return rows.map((row) => ({ row, left: wheel(row, 'L'), right: wheel(row, 'R') }));
}

/** Each wheel's label by its key (`1L`, `2R`), as the tyre cards name them. */
export const wheelLabelsOf = (rows: readonly TyreRow[]): ReadonlyMap<string, string> =>
  new Map(rows.flatMap((r) => [[`${r.row}L`, r.left.label] as const, [`${r.row}R`, r.right.label] as const]));

/** The tread-depth limits (application settings TYRE_LEGAL_MIN_MM and TYRE_RECOMMENDED_MIN_MM), in mm. */
export interface TreadLimits {
  legal: number;
  recommended: number;
}
export const DEFAULT_TREAD_LIMITS: TreadLimits = { legal: 1.5, recommended: 3 };

/** Below the legal minimum, below the recommended one, or fine. */
export type TreadStatus = 'illegal' | 'replace_soon' | 'ok';

/**
 * A wheel's minimum tread depth over both of its profiles (the shallowest point the scanner measured), and its status
 * against the limits; null when neither profile has a depth. A depth exactly at a limit meets it.
 */
export function treadOf(wheel: TyreWheel, limits: TreadLimits): { min: number; status: TreadStatus } | null {
  const depths = [...(wheel.inner?.depths ?? []), ...(wheel.outer?.depths ?? [])].filter((d) => Number.isFinite(d));
  if (depths.length === 0) return null;
  const min = Math.min(...depths);
  const status: TreadStatus = min < limits.legal ? 'illegal' : min < limits.recommended ? 'replace_soon' : 'ok';
  return { min, status };
}

/** The limits from the settings' values (text), each falling back to its default when missing or unreadable. */
export function treadLimitsOf(values: Partial<Record<'TYRE_LEGAL_MIN_MM' | 'TYRE_RECOMMENDED_MIN_MM', string>>): TreadLimits {
  const read = (v: string | undefined, fallback: number) => {
    const n = v === undefined || v.trim() === '' ? NaN : Number(v);
    return Number.isFinite(n) && n >= 0 ? n : fallback;
  };
  return {
    legal: read(values.TYRE_LEGAL_MIN_MM, DEFAULT_TREAD_LIMITS.legal),
    recommended: read(values.TYRE_RECOMMENDED_MIN_MM, DEFAULT_TREAD_LIMITS.recommended),
  };
}

/** The depth chart's axis and the value its edges are filled with. */
export const TYRE_AXIS_MAX = 40;
export const TYRE_EDGE_FILL = 30;

/**
 * The depth-profile chart's points: index across the tread, the inner and the outer depth, with one point at each edge
 * filled with TYRE_EDGE_FILL (the tyre's shoulders). Empty when neither profile has data.
 */
export function tyreChartPoints(inner: number[] | undefined, outer: number[] | undefined) {
  const n = Math.max(inner?.length ?? 0, outer?.length ?? 0);
  if (n === 0) return [];
  const at = (xs: number[] | undefined, i: number) => (xs && i < xs.length ? xs[i] : null);
  const points = [{ x: 0, inner: inner?.length ? TYRE_EDGE_FILL : null, outer: outer?.length ? TYRE_EDGE_FILL : null }];
  for (let i = 0; i < n; i++) points.push({ x: i + 1, inner: at(inner, i), outer: at(outer, i) });
  points.push({ x: n + 1, inner: inner?.length ? TYRE_EDGE_FILL : null, outer: outer?.length ? TYRE_EDGE_FILL : null });
  return points;
}

// ---- Images ----

/** A crop's canvas at most 1,048,576 pixels; the crop's size scaled down to fit, keeping its shape. */
export const CROP_MAX_AREA = 1_048_576;
export function cropCanvasSize(width: number, height: number, maxArea = CROP_MAX_AREA) {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  if (w * h <= maxArea) return { width: w, height: h, scale: 1 };
  const scale = Math.sqrt(maxArea / (w * h));
  return { width: Math.max(1, Math.floor(w * scale)), height: Math.max(1, Math.floor(h * scale)), scale };
}

/** Video frame captures and thumbnails as JPEG of quality 0.25. */
export const CAPTURE_QUALITY = 0.25;

// ---- Mail ----

const EMAIL = /^[^\s@<>(),;:"[\]]+@[^\s@<>(),;:"[\]]+\.[^\s@<>(),;:"[\]]+$/;
export const isEmailAddress = (s: string) => EMAIL.test(s) && s.length <= 254;

/** The recipients field: addresses split on commas, semicolons or spaces, lower-cased, duplicates once. */
export function parseRecipients(text: string): { valid: string[]; invalid: string[] } {
  const all = [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  return { valid: all.filter(isEmailAddress), invalid: all.filter((s) => !isEmailAddress(s)) };
}

// ---- Live updates ----

/**
 * A live update merged into the scan: every field the event carries, except the vehicle fields the user is editing
 * right now (their typing is not overwritten).
 */
export function mergeLiveUpdate<T extends Record<string, unknown>>(
  scan: T,
  event: Record<string, unknown>,
  editing: Pick<ReadonlySet<string>, 'has'>,
): T {
  const next: Record<string, unknown> = { ...scan };
  for (const [k, v] of Object.entries(event)) {
    if (!(k in scan)) continue;
    if (editing.has(k) || (k === 'client_name' && editing.has('client_id'))) continue;
    next[k] = v;
  }
  return next as T;
}

// ---- Plate lookup (the wire's License lookup result) ----

/** The registrations `POST license-plates/search` offers, once each, at most 10. */
export const plateOptions = (reply: PlateSuggestion[]) => [...new Set(reply.map((p) => p.number))].slice(0, 10);

/** The vehicle fields a plate lookup fills: make, model, colour, body type and valuation (whole dollars); what it lacks stays. */
export function lookupVehicle(reply: PlateLookup) {
  const out: { make?: string; model?: string; carColor?: string; body_type?: string; valuation?: number } = {};
  const { ag_response: ag, valuation_response: v } = reply;
  if (ag.make?.trim()) out.make = ag.make.trim();
  if (ag.model?.trim()) out.model = ag.model.trim();
  if (ag.colour?.trim()) out.carColor = ag.colour.trim();
  if (ag.vehicle.body_type?.trim()) out.body_type = ag.vehicle.body_type.trim();
  if (v.price !== null && Number.isFinite(v.price) && v.price >= 0) out.valuation = Math.round(v.price);
  return out;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text as HTML shows it: markup in it is shown, never made. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
