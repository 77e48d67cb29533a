import { z } from 'zod';
import { inputSchema, pageParams } from '../../../src/domain/fields';
import { AGO, manualScanFields, SCAN_STATUSES, SCAN_TYPES } from '../../../src/domain/scan-codes';
import { orderedDays, scanDate } from '../../../src/domain/scans';
import { safeString, fromDecimalText } from '../../../src/domain/text';
import { ScanDetailRecord, ScanItemRecord } from '../../../src/domain/records';

// The records (list row, whole scan) are shared with the browser: src/domain/records.ts.

export { ScanDetailRecord, ScanItemRecord };

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalId = (label: string) =>
  z.preprocess(
    blankToUndefined,
    fromDecimalText(
      z
        .number({ error: `${label} must be an id` })
        .int(`${label} must be an id`)
        .positive(`${label} must be an id`)
        .max(Number.MAX_SAFE_INTEGER)
        .optional(),
    ),
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

/** GET scans and GET scans/export-scan-report. */
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
  /** true: only scans with damage new since the vehicle's previous scan; false: only those without. */
  new_damage: lowerChoice(['true', 'false'], 'new damage'),
});
export const ScanListQuery = ScanFilterQuery.extend({
  ...pageParams,
}).refine(...orderedDays('ts', 'te'));

export const ScanPageReply = z.object({
  items: z.array(ScanItemRecord),
  total: z.number().int(),
  /** True when `total` is the planner's estimate (more than 10,000 matches): the UI says "about N". */
  total_is_estimate: z.boolean(),
});

/** POST scans: the manual scan's agent, client and start time. */
export const ManualScanBody = inputSchema(manualScanFields).extend({
  startTime: z.preprocess((v) => (v === '' || v === null ? undefined : v), scanDate('Start Time').optional()),
  // The portal sends these too; the server resolves the client's name and forces type tire, status uploaded.
  client_name: z.unknown().optional(),
  type: z.unknown().optional(),
  status: z.unknown().optional(),
});
