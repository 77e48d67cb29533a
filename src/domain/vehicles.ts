import { z } from 'zod';
import { pageParams } from './fields';
import { DAMAGE_LEVELS, DAMAGE_TYPES } from './scan-codes';
import type { Wire } from './records';
import { RESOURCES } from './resources';
import { safeString } from './text';

/**
 * Vehicles as the server sends them and the browser reads them (`Wire<>`: dates arrive as ISO strings). A vehicle is
 * every scan of one car; a caller sees it, and its history, only through the scans in their scope.
 */
export const VehicleRecord = z.object({
  id: z.number(),
  registration: z.string().nullable(),
  state: z.string().nullable(),
  vin: z.string().nullable(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  first_seen: z.date(),
  last_seen: z.date(),
});
export type Vehicle = Wire<z.infer<typeof VehicleRecord>>;

const Change = z.enum(['new', 'worsened', 'unchanged', 'gone']);
const Difference = z.object({
  carPanel: z.string(),
  type: z.enum(DAMAGE_TYPES),
  level: z.enum(DAMAGE_LEVELS),
  before: z.number(),
  after: z.number(),
  delta: z.number(),
  change: Change,
});

const PanelDifferences = z.array(
  z.object({ carPanel: z.string(), type: z.enum(DAMAGE_TYPES), change: Change, levels: z.array(Difference) }),
);

/** A scan compared with its vehicle's previous scan of the same kind (src/domain/vehicle-history.ts). */
export const ScanComparisonRecord = z.object({
  previous_scan_id: z.number(),
  previous_scanned_at: z.date(),
  differences: PanelDifferences,
  summary: z.string(),
  has_new_damage: z.boolean(),
});
export type ScanComparison = Wire<z.infer<typeof ScanComparisonRecord>>;

const Reading = z.object({ at: z.string(), depthMm: z.number(), odometerKm: z.number().nullish() });

export const VehicleDetailRecord = VehicleRecord.extend({
  scans: z.array(
    z.object({
      id: z.number(),
      scan_id: z.string(),
      type: z.string(),
      status: z.string(),
      license_plate: z.string().nullable(),
      scanned_at: z.date(),
      odometer_km: z.number().nullable(),
      dent_count: z.number(),
      scratch_count: z.number(),
      /** The gains in English; `differences` lets the browser say them in the reader's language. */
      summary: z.string().nullable(),
      differences: PanelDifferences.nullish(),
      has_new_damage: z.boolean().nullable(),
      previous_scan_id: z.number().nullable(),
      quotes: z.array(
        z.object({
          id: z.number(),
          grant_total: z.number(),
          /** The quote's currency symbol (its client's when saved); null prints '$'. */
          currency: z.string().nullable(),
          manual_check: z.boolean(),
          created_at: z.date(),
          /** Draft, sent, or the customer's answer (src/domain/quote-approval.ts). */
          status: z.string().optional(),
        }),
      ),
    }),
  ),
  damage: z.array(
    z.object({
      scan_id: z.number(),
      scanned_at: z.date(),
      measures: z.object({
        dents: z.record(z.string(), z.record(z.string(), z.number())),
        scratchs: z.record(z.string(), z.record(z.string(), z.number())),
      }),
    }),
  ),
  tyres: z.array(
    z.object({
      wheel: z.string(),
      readings: z.array(Reading),
      projection: z
        .object({
          readings: z.array(Reading),
          unit: z.enum(['per10000km', 'per30days']),
          rateMm: z.number(),
          projectedAt: z.string().nullable(),
        })
        .nullable(),
    }),
  ),
  legal_min_mm: z.number(),
});
export type VehicleDetail = Wire<z.infer<typeof VehicleDetailRecord>>;

export const VEHICLE_SORTS = RESOURCES.vehicles.sortable;
/** The vehicles list's columns, in order: its table and its export. */
export const VEHICLE_COLUMNS = ['registration', 'state', 'make', 'model', 'vin', 'first_seen', 'last_seen'] as const;
export type VehicleSort = (typeof VEHICLE_SORTS)[number];

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** GET vehicles: `q` is a registration or VIN prefix (spaces and dashes ignored, any case). */
export const VehicleListQuery = z.object({
  q: z.preprocess(
    blankToUndefined,
    safeString('Search')
      .trim()
      .max(40)
      .transform((s) => s.toUpperCase().replace(/[\s-]+/g, ''))
      .optional(),
  ),
  sort: z.preprocess(blankToUndefined, z.enum(VEHICLE_SORTS, { error: 'The selected sort is invalid' }).default('last_seen')),
  order: z.preprocess(
    (v) => (typeof v === 'string' ? v.toLowerCase() : blankToUndefined(v)),
    z.enum(['asc', 'desc'], { error: 'The selected order is invalid' }).default('desc'),
  ),
  ...pageParams,
});

/** GET scans/{id}/tyre-wear: the legal minimum and each wheel's readings and projection, as the vehicle page's `tyres`. */
export const TyreWearRecord = z.object({ legal_min_mm: z.number(), wheels: VehicleDetailRecord.shape.tyres });
export type TyreWear = Wire<z.infer<typeof TyreWearRecord>>;
