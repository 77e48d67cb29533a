import type { DamageLevel, DamageType, ScanType } from '../../src/domain/scan-codes';
import type { IngestDamage, IngestTyre } from '../../src/domain/scans';
import type { Rng } from './random';
import { vehicle, type Vehicle } from './vehicles';

export { createRng, type Rng } from './random';
export { colourHex, registryEntry, registryVehicles, type RegistryEntry } from './vehicles';

/**
 * Plausible scans as a drive-through scanner would report them:
 * the vehicle, arch or chasis detections per panel with severity and size, tyre tread profiles with conclusions.
 * Pure data; images are drawn by ./images.ts and the video is ./assets/sample-scan.webm. The simulator sends
 * these through the ingestion API, the demo seed inserts them directly.
 */

/** Car panel codes as the demo catalogue's panels spell them; used when the database has none. */
export const CAR_PANELS = [
  'bonnet',
  'roof',
  'boot_lid',
  'tailgate',
  'front_bumper',
  'rear_bumper',
  'front_valance',
  'rear_valance',
  'rear_spoiler',
  'left_front_guard',
  'right_front_guard',
  'left_front_door',
  'right_front_door',
  'left_rear_door',
  'right_rear_door',
  'left_rear_quarter',
  'right_rear_quarter',
  'left_a_pillar',
  'right_a_pillar',
  'left_b_pillar',
  'right_b_pillar',
  'left_c_pillar',
  'right_c_pillar',
  'left_sill',
  'right_sill',
  'left_mirror',
  'right_mirror',
  'left_roof_rail',
  'right_roof_rail',
  'fuel_flap',
];
/** Hail lands on the top surfaces; car-park dings on the sides. */
const HAIL_PANELS = ['bonnet', 'roof', 'boot_lid', 'tailgate', 'left_roof_rail', 'right_roof_rail', 'rear_spoiler'];

/** Size ranges in mm per severity: dents are roughly round, scratches long and thin. */
const DENT_MM: Record<DamageLevel, [number, number]> = {
  light: [4, 12],
  medium: [12, 25],
  heavy: [25, 45],
  severe: [45, 75],
  oversize: [75, 140],
};
const SCRATCH_MM: Record<DamageLevel, [number, number]> = {
  light: [15, 60],
  medium: [60, 140],
  heavy: [140, 260],
  severe: [260, 420],
  oversize: [420, 700],
};

export type TyreWear = 'even' | 'edges' | 'center' | 'inner' | 'outer' | 'worn';

export interface GeneratedScan {
  scan_id: string;
  type: ScanType;
  timestamp: Date;
  startTime: Date;
  vehicle: Vehicle;
  /** The part's summary the device reports (arch, chasis or tire). */
  summary: Record<string, number | string>;
  damages: IngestDamage[];
  tyres: (IngestTyre & { depths: number[]; wear: TyreWear })[];
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const between = (rng: Rng, [lo, hi]: [number, number]) => round1(lo + rng() * (hi - lo));

function detection(rng: Rng, n: number, carPanel: string, type: DamageType, level: DamageLevel): IngestDamage {
  const [w, h] =
    type === 'dents'
      ? (() => {
          const d = between(rng, DENT_MM[level]);
          return [d, round1(d * (0.7 + rng() * 0.3))];
        })()
      : [between(rng, SCRATCH_MM[level]), round1(1 + rng() * (level === 'light' ? 1.5 : 4))];
  return { id: `d-${String(n).padStart(3, '0')}`, carPanel, type, level, width_mm: w, height_mm: h };
}

/** Detections for an arch scan: mostly a few car-park dings, sometimes a hail storm across the top panels. */
export function archDamages(rng: Rng, panels: string[] = CAR_PANELS, scale = 1): IngestDamage[] {
  const out: IngestDamage[] = [];
  const hail = rng.chance(0.18 * scale);
  const clean = !hail && rng.chance(0.2);
  if (clean) return out;
  const usable = panels.length ? panels : CAR_PANELS;
  const targets = hail ? usable.filter((p) => HAIL_PANELS.includes(p)) : [];
  const count = hail ? rng.int(3, 5) : rng.int(1, 4);
  const chosen = new Set<string>(targets.slice(0, count));
  while (chosen.size < Math.min(count, usable.length)) chosen.add(rng.pick(usable));
  for (const panel of chosen) {
    const dents = hail ? rng.int(2, 7) : rng.int(0, 3);
    for (let i = 0; i < dents; i++) {
      const level = rng.weighted<DamageLevel>([
        ['light', 40],
        ['medium', 30],
        ['heavy', 16],
        ['severe', 9],
        ['oversize', hail ? 5 : 2],
      ]);
      out.push(detection(rng, out.length + 1, panel, 'dents', level));
    }
    const scratches = rng.chance(0.45) ? rng.int(1, 2) : 0;
    for (let i = 0; i < scratches; i++) {
      const level = rng.weighted<DamageLevel>([
        ['light', 50],
        ['medium', 30],
        ['heavy', 14],
        ['severe', 5],
        ['oversize', 1],
      ]);
      out.push(detection(rng, out.length + 1, panel, 'scratchs', level));
    }
  }
  return out;
}

/** A tread depth profile across the tyre (30 points, mm) with the wear pattern it shows. */
export function treadProfile(rng: Rng, wear: TyreWear): number[] {
  const base = wear === 'worn' ? 1.4 + rng() * 1.2 : 4.5 + rng() * 3.5;
  return Array.from({ length: 30 }, (_, i) => {
    const x = i / 29; // 0 inner edge .. 1 outer edge
    const edge = Math.min(x, 1 - x) * 2; // 0 at the edges, 1 in the middle
    let d = base;
    if (wear === 'edges') d -= (1 - edge) * 2.2;
    if (wear === 'center') d -= edge * 2.0;
    if (wear === 'inner') d -= (1 - x) * 2.6;
    if (wear === 'outer') d -= x * 2.6;
    // The grooves: the profile dips where the scanner crosses one.
    const groove = [0.2, 0.4, 0.6, 0.8].some((g) => Math.abs(x - g) < 0.02) ? -0.6 : 0;
    return Math.max(0.5, round1(d + groove + (rng() - 0.5) * 0.3));
  });
}

const CONCLUSIONS: Record<TyreWear, [IngestTyre['eatenTire'], IngestTyre['pressureTire']]> = {
  even: ['NONE', 'NONE'],
  worn: ['NONE', 'NONE'],
  edges: ['BOTH_EDGES', 'UNDER_INFLATED'],
  center: ['CENTER', 'OVER_INFLATED'],
  inner: ['INNER_EDGE', 'NONE'],
  outer: ['OUTER_EDGE', 'NONE'],
};

/** Two rows of wheels (front, rear), each wheel measured on its inner and outer half. */
export function tyres(rng: Rng, rows = 2): GeneratedScan['tyres'] {
  const out: GeneratedScan['tyres'] = [];
  for (let row = 1; row <= rows; row++) {
    for (const direction of ['L', 'R'] as const) {
      const wear = rng.weighted<TyreWear>([
        ['even', 55],
        ['edges', 12],
        ['center', 8],
        ['inner', 10],
        ['outer', 7],
        ['worn', 8],
      ]);
      const profile = treadProfile(rng, wear);
      const [eatenTire, pressureTire] = CONCLUSIONS[wear];
      // The inner half is the first half of the profile, seen from the inside of the car.
      const halves = { I: profile.slice(0, 15), O: profile.slice(15) };
      for (const position of ['I', 'O'] as const) {
        out.push({
          row,
          direction,
          position,
          depths: halves[position],
          eatenTire,
          pressureTire,
          wear,
          coordinates: { x: direction === 'L' ? 0.2 : 0.8, y: row === 1 ? 0.25 : 0.75 },
        });
      }
    }
  }
  return out;
}

export interface GenerateOptions {
  type: ScanType;
  /** The state of the scanning site (the registration follows it). */
  state: string;
  at?: Date;
  panels?: string[];
  /** A device-side id prefix, e.g. the device serial. */
  prefix?: string;
}

export function generateScan(rng: Rng, opts: GenerateOptions): GeneratedScan {
  const timestamp = opts.at ?? new Date();
  const startTime = new Date(timestamp.getTime() - rng.int(25, 70) * 1000);
  const damages =
    opts.type === 'arch' ? archDamages(rng, opts.panels) : opts.type === 'chasis' ? archDamages(rng, opts.panels, 0.3).slice(0, 4) : [];
  const wheels = opts.type === 'tire' ? tyres(rng) : [];
  const summary: Record<string, number | string> =
    opts.type === 'tire'
      ? { wheels: wheels.length / 2, duration_s: Math.round((timestamp.getTime() - startTime.getTime()) / 1000) }
      : {
          panels_scanned: (opts.panels ?? CAR_PANELS).length,
          detections: damages.length,
          duration_s: Math.round((timestamp.getTime() - startTime.getTime()) / 1000),
        };
  return {
    scan_id: `${opts.prefix ? `${opts.prefix}-` : ''}${randomUUIDFrom(rng)}`,
    type: opts.type,
    timestamp,
    startTime,
    vehicle: vehicle(rng, opts.state),
    summary,
    damages,
    tyres: wheels,
  };
}

/** A UUID-shaped id drawn from the seeded source, so seeded demo data repeats. */
function randomUUIDFrom(rng: Rng) {
  const hex = Array.from({ length: 32 }, () => Math.floor(rng() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
