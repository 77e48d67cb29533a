import { z } from 'zod';
import { inputSchema } from '../../../src/domain/fields';
import { AGO, manualScanFields, SCAN_STATUSES, SCAN_TYPES, scanDate } from '../../../src/domain/scans';
import { safeString } from '../../../src/domain/text';

const when = '2024-05-31T07:30:00.000Z';

/** A list row (spec 2 §3 Scan, the list's columns and the live events' fields). */
export const ScanItemRecord = z
  .object({
    id: z.number(),
    scan_id: z.string(),
    licensePlate: z.string().nullable(),
    make: z.string().nullable(),
    model: z.string().nullable(),
    carColor: z.string().nullable(),
    body_type: z.string().nullable(),
    valuation: z.number().nullable(),
    location_id: z.number().nullable(),
    location_name: z.string().nullable(),
    location_state: z.string().nullable(),
    client_id: z.number().nullable(),
    client_name: z.string().nullable(),
    agent_id: z.number(),
    agent_name: z.string(),
    device_id: z.number().nullable(),
    type: z.string(),
    status: z.string(),
    timestamp: z.date(),
    startTime: z.date().nullable(),
    damageCount: z.number(),
    dentCount: z.number(),
    scratchCount: z.number(),
    created_at: z.date(),
    updated_at: z.date(),
  })
  .meta({
    example: {
      id: 1042,
      scan_id: '7f3c2a9e-arch-0001',
      licensePlate: '1AB2CD',
      make: 'Toyota',
      model: 'Corolla',
      carColor: 'Silver',
      body_type: 'Hatchback',
      valuation: 18500,
      location_id: 1,
      location_name: 'Collingwood Depot',
      location_state: 'VIC',
      client_id: 1,
      client_name: 'Southern Cross Insurance',
      agent_id: 1,
      agent_name: 'Melbourne Auto Scan',
      device_id: 1,
      type: 'arch',
      status: 'uploaded',
      timestamp: when,
      startTime: when,
      damageCount: 7,
      dentCount: 5,
      scratchCount: 2,
      created_at: when,
      updated_at: when,
    },
  });

const levelCounts = z.object({ light: z.number(), medium: z.number(), heavy: z.number(), severe: z.number(), oversize: z.number() });
const partResult = z.record(z.string(), z.unknown()).nullable();

/** The whole scan for the scan page: the row plus meta, results, detections, counts, tyres, videos, images and reports. */
export const ScanDetailRecord = ScanItemRecord.extend({
  meta: z
    .object({ id: z.number(), scan_id: z.string(), thumbnailImagePathUrl: z.string().nullable(), srcImagePathUrl: z.string().nullable() })
    .nullable(),
  arch: partResult,
  chasis: partResult,
  tire: partResult,
  rims: partResult,
  damages: z.array(
    z.object({
      id: z.number(),
      damage_id: z.string(),
      src: z.string().nullable(),
      type: z.string(),
      carPanel: z.string(),
      level: z.string(),
      width_mm: z.number(),
      height_mm: z.number(),
      data: z.array(z.object({ measure: z.string(), width_mm: z.number(), height_mm: z.number() })),
    }),
  ),
  measures: z.object({
    dents: z.record(z.string(), levelCounts),
    scratchs: z.record(z.string(), levelCounts),
    damage_count: z.record(z.string(), z.number()),
  }),
  data: z.array(
    z.object({
      id: z.number(),
      row: z.number(),
      direction: z.string(),
      position: z.string(),
      label: z.string(),
      depths: z.array(z.number()),
      measurementImageUrl: z.string().nullable(),
      imageFileUrl: z.string().nullable(),
      coordinates: z.object({ x: z.number(), y: z.number() }).nullable(),
      conclusionDescription: z.object({ eatenTire: z.string(), pressureTire: z.string() }),
    }),
  ),
  videos: z.array(z.object({ id: z.number(), video_id: z.string(), src: z.string(), thumbnail: z.string().nullable() })),
  annotates: z.array(z.object({ id: z.number(), src: z.string(), path: z.string(), vehicle_photo: z.boolean() })),
  report_pdfs: z.array(z.object({ label: z.string(), url: z.string(), path: z.string() })),
  pdf: z.string().nullable(),
  pdf_url: z.string().nullable(),
  pdf_path: z.string().nullable(),
});

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalId = (label: string) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: `${label} must be an id` })
      .int(`${label} must be an id`)
      .positive(`${label} must be an id`)
      .max(Number.MAX_SAFE_INTEGER)
      .optional(),
  );
const lowerChoice = (ids: readonly string[], label: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .toLowerCase()
      .pipe(z.enum(ids as [string, ...string[]], { error: `The selected ${label} is invalid` }))
      .optional(),
  );

/** GET scans and GET scans/export-scan-report (spec 2 §7). */
export const ScanFilterQuery = z.object({
  q: z.preprocess(blankToUndefined, safeString('Search').trim().max(200).optional()),
  ts: z.preprocess(blankToUndefined, scanDate('Start date').optional()),
  te: z.preprocess(blankToUndefined, scanDate('End date').optional()),
  ago: z.preprocess(blankToUndefined, z.string().regex(AGO, 'Ago must look like 48h, 7d or 30m').optional()),
  status: lowerChoice(
    SCAN_STATUSES.map((s) => s.id),
    'status',
  ),
  type: lowerChoice(
    SCAN_TYPES.map((s) => s.id),
    'type',
  ),
  agent_id: optionalId('Agent'),
  client_id: optionalId('Client'),
  location_id: optionalId('Location'),
});
export const ScanListQuery = ScanFilterQuery.extend({
  page: z.coerce.number().int().min(1).max(10_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
});

export const ScanPageReply = z.object({
  items: z.array(ScanItemRecord),
  total: z.number().int(),
  /** True when `total` is the planner's estimate (more than 10,000 matches): the UI says "about N". */
  total_is_estimate: z.boolean(),
});

/** POST scans: the manual scan's agent, client and start time. */
export const ManualScanBody = inputSchema(manualScanFields).extend({
  startTime: z.preprocess((v) => (v === '' || v === null ? undefined : v), scanDate('Start Time').optional()),
  // The portal sends these too; the server resolves the client's name and forces type tire, status uploaded (spec 2 §9).
  client_name: z.unknown().optional(),
  type: z.unknown().optional(),
  status: z.unknown().optional(),
});
