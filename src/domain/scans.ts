/** The scan's request schemas (the server validates every body and query with them), built on ./scan-codes.ts. */
import { z } from 'zod';
import { versionField } from './versions';
import { inputSchema, messages } from './fields';
import { AU_STATES } from './locations';
import {
  CAR_PANEL,
  DAMAGE_COUNT_MAX,
  DAMAGE_LEVELS,
  DAMAGE_TYPES,
  EATEN_TIRE,
  EXPORT_FORMATS,
  MAIL_MAX_ATTACHMENTS,
  MAIL_MAX_RECIPIENTS,
  normalisePlate,
  parseValuation,
  PRESSURE_TIRE,
  SCAN_DATE,
  SCAN_TYPE_IDS,
  SCAN_YEARS,
  scanVehicleFields,
  TREAD_DEPTH_MAX,
  TYRE_REPAIR_IDS,
  TYRE_ROWS_MAX,
  type DamageLevel,
} from './scan-codes';
import { safeString, singleLine, fromDecimalText } from './text';
import { parseValuationText, VALUATION_FORMAT_MESSAGE, VALUATION_MAX, VALUATION_MAX_MESSAGE } from './valuation';
import { REPORT_LANGUAGES } from './report-labels';

/**
 * PUT scans/{id}'s valuation: a number, or text as the scan page's input takes it (./valuation.ts: thousands commas,
 * cents rounded to whole dollars); text in any other form is refused, never read as another amount.
 */
const valuationUpdate = z.preprocess(
  (v, ctx) => {
    if (typeof v !== 'string') return v;
    const read = parseValuationText(v);
    if (read.ok) return read.value;
    ctx.addIssue({ code: 'custom', message: read.message, input: v });
    return z.NEVER;
  },
  inputSchema({ valuation: scanVehicleFields.valuation }, 'update').shape.valuation,
);

/**
 * A registration as it is stored (upper-case, spaces and dashes dropped; blank clears it): letters and digits only, as
 * the vehicle it links the scan to holds it.
 */
function storedPlate<T extends z.ZodType>(text: T) {
  return text
    .transform((v) => (typeof v === 'string' ? normalisePlate(v) || null : v))
    .refine((v) => typeof v !== 'string' || /^[A-Z0-9]+$/.test(v), 'Registration may hold only letters and digits');
}

/** PUT scans/{id}: any subset of the vehicle fields; a blank value clears it; valuation may be typed text. */
export const scanUpdateBody = inputSchema(scanVehicleFields, 'update').extend({
  valuation: valuationUpdate,
  licensePlate: storedPlate(inputSchema({ licensePlate: scanVehicleFields.licensePlate }, 'update').shape.licensePlate),
  /** The front end sends it beside client_id; the server resolves the name itself. */
  client_name: z.unknown().optional(),
  /** The front end's "do not show a spinner" flag; ignored. */
  noLoading: z.unknown().optional(),
  version: versionField,
});

// ---- List filters (GET scans) ----

/** A real calendar date and clock time (no 0000-13-45, no 24:61, an offset within ±14:00), within SCAN_YEARS. */
const inRange = (s: string) => {
  const [y, m, d] = s.slice(0, 10).split('-').map(Number);
  if (y < SCAN_YEARS.min || y > SCAN_YEARS.max) return false;
  const dt = new Date(Date.UTC(2000, m - 1, d));
  dt.setUTCFullYear(y);
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return false;
  const time = /[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(s);
  if (time && (Number(time[1]) > 23 || Number(time[2]) > 59 || Number(time[3] ?? 0) > 59)) return false;
  const offset = /([+-])(\d{2}):?(\d{2})$/.exec(s.slice(10));
  return !offset || (Number(offset[2]) <= 14 && Number(offset[3]) <= 59);
};
export const scanDate = (label: string) =>
  safeString(label)
    .trim()
    .regex(SCAN_DATE, `${label} must be a date like 2024-05-31 or 2024-05-31 17:30:00`)
    .refine(inRange, `${label} must be a date like 2024-05-31 or 2024-05-31 17:30:00`);
/** An export's `format`: a CSV file when absent. */
export const exportFormatField = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.enum(EXPORT_FORMATS, { message: 'Format must be csv or xlsx' }).default('csv'),
);
/** An export's `lang`: the language of its headings and words (English when absent). */
export const reportLanguageField = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.enum(REPORT_LANGUAGES, { message: 'Lang must be en or ja' }).default('en'),
);

/**
 * A filter's range must not end on a day before it starts: `.refine(...orderedDays('ts', 'te'))`, the error under the
 * end. Days as written are compared, so a range within one day is left to its times.
 */
export const orderedDays = (
  start: string,
  end: string,
): [check: (q: Record<string, unknown>) => boolean, params: { path: string[]; error: string }] => [
  (q) => {
    const [from, to] = [q[start], q[end]];
    return typeof from !== 'string' || typeof to !== 'string' || from.slice(0, 10) <= to.slice(0, 10);
  },
  { path: [end], error: 'End date must not be before the start date' },
];

/**
 * A range bound of counts kept per Melbourne day, month and year (the dashboard's charts and approval figures): a
 * bound's day and the day after it are counted in four-digit years, so the year 9999 itself is refused (with an
 * offset, or a time of day that cuts it, its day reaches the year 10000).
 */
export const countedDate = (label: string) =>
  scanDate(label).refine((s) => Number(s.slice(0, 4)) < SCAN_YEARS.max, `${label} must be before the year ${SCAN_YEARS.max}`);

// ---- Device ingestion (docs/ingestion.md) ----

const deviceId = (label: string) =>
  z
    .string({ error: (i) => (i.input === undefined ? messages.required(label) : `${label} must be a string`) })
    .trim()
    .min(1, messages.required(label))
    .max(100, messages.max(label, 100))
    .regex(/^[A-Za-z0-9._:-]+$/, `${label} may hold only letters, digits and . _ : -`);
/** How far ahead of the server's clock a device's clock may run: a scan time beyond it is a wrong clock, not a scan. */
export const DEVICE_CLOCK_SKEW_HOURS = 24;
/**
 * A device's date-time: ISO 8601 with an offset, from SCAN_YEARS.min on (the lists' date filters start there) and not
 * later than DEVICE_CLOCK_SKEW_HOURS from now (a scan dated 2090 would head every list for decades).
 */
const instant = (label: string) =>
  z.iso
    .datetime({ offset: true, error: `${label} must be an ISO 8601 date-time, e.g. 2024-05-31T07:30:00Z` })
    .refine((v) => Date.parse(v) >= Date.UTC(SCAN_YEARS.min, 0, 1), `${label} must be in ${SCAN_YEARS.min} or later`)
    .refine(
      (v) => Date.parse(v) <= Date.now() + DEVICE_CLOCK_SKEW_HOURS * 3_600_000,
      `${label} must not be more than ${DEVICE_CLOCK_SKEW_HOURS} hours ahead of now: check the device's clock`,
    );
const optionalText = (label: string, max: number) =>
  singleLine(label, { error: `${label} must be a string` })
    .trim()
    .max(max, messages.max(label, max))
    .nullish();
const oneOf = <const T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { error: (i) => (i.input === undefined ? messages.required(label) : messages.choice(label)) });

const carPanel = z
  .string({ error: (i) => (i.input === undefined ? messages.required('Car Panel') : 'Car Panel must be a string') })
  .regex(CAR_PANEL, 'Car Panel must be a panel code like left_front_door');

/** POST ingest/scans: a device announces a scan (status metadata). */
export const ingestScanBody = z.object({
  /** The device's own id for the scan: replaying it returns the same scan. */
  scan_id: deviceId('Scan Id').transform((s) => s.toLowerCase()),
  device_id: z
    .number({ error: (i) => (i.input === undefined ? messages.required('Device') : 'Device must be a device id') })
    .int()
    .positive(),
  type: oneOf(SCAN_TYPE_IDS, 'Type'),
  timestamp: instant('Timestamp').optional(),
  startTime: instant('Start Time').optional(),
  licensePlate: storedPlate(optionalText('Registration', 20)),
  make: optionalText('Make', 100),
  model: optionalText('Model', 100),
  carColor: optionalText('Car Color', 50),
  body_type: optionalText('Body Type', 100),
  valuation: z.preprocess(
    parseValuation,
    z
      .number({ error: (i) => (typeof i.input === 'string' ? VALUATION_FORMAT_MESSAGE : 'Valuation must be a number') })
      .int(messages.integer('Valuation'))
      .min(0, messages.min('Valuation', 0))
      .max(VALUATION_MAX, VALUATION_MAX_MESSAGE)
      .nullish(),
  ),
  location_state: z.enum(AU_STATES.map((s) => s.id) as [string, ...string[]], { error: messages.choice('Location State') }).nullish(),
  /** Defaults to the device's default client. */
  client_id: z.number({ error: 'Client must be a client id' }).int().positive().nullish(),
  /** Links the scan to its vehicle before the registration does; kept upper-case without spaces or dashes. */
  vin: optionalText('VIN', 20).refine(
    (v) => v == null || /^[A-Z0-9]{1,20}$/i.test(v.replace(/[\s-]+/g, '')),
    'VIN must be letters and digits',
  ),
  odometer_km: z.number({ error: 'Odometer must be a number of km' }).int().min(0, messages.min('Odometer', 0)).max(10_000_000).nullish(),
});

const mm = (label: string) =>
  z
    .number({ error: (i) => (i.input === undefined ? messages.required(label) : `${label} must be a number`) })
    .positive(messages.min(label, 1))
    .max(5000, messages.max(label, 5000));

export const ingestDamage = z.object({
  /** The device's id for this detection: uploading it again updates it. */
  id: deviceId('Damage Id'),
  carPanel,
  type: oneOf(DAMAGE_TYPES, 'Damage Type'),
  level: oneOf(DAMAGE_LEVELS, 'Level'),
  width_mm: mm('Width'),
  height_mm: mm('Height'),
});
export type IngestDamage = z.input<typeof ingestDamage>;

/** A tyre's axle, counted from the front. */
const tyreRow = z
  .number({ error: (i) => (i.input === undefined ? messages.required('Row') : 'Row must be a number') })
  .int(messages.integer('Row'))
  .min(1, messages.min('Row', 1))
  .max(TYRE_ROWS_MAX, messages.max('Row', TYRE_ROWS_MAX + 1));

export const ingestTyre = z.object({
  row: tyreRow,
  direction: oneOf(['L', 'R'], 'Direction'),
  position: oneOf(['I', 'O'], 'Position'),
  /** The tread depth profile across the tyre, in mm. */
  depths: z
    .array(
      z
        .number({ error: 'Depths must be numbers' })
        .min(0, messages.min('Depth', 0))
        .max(TREAD_DEPTH_MAX, messages.max('Depth', TREAD_DEPTH_MAX)),
      { error: 'Depths must be a list of numbers' },
    )
    .min(1, messages.required('Depths'))
    .max(500, messages.max('Depths', 500)),
  eatenTire: oneOf(EATEN_TIRE, 'Eaten Tire').default('NONE'),
  pressureTire: oneOf(PRESSURE_TIRE, 'Pressure Tire').default('NONE'),
  coordinates: z.object({ x: z.number(), y: z.number() }, { error: 'Coordinates must be {x, y}' }).nullish(),
});
export type IngestTyre = z.input<typeof ingestTyre>;

/** A part's summary (arch, chasis, tire, rims): a flat object of facts the device reports. */
const partResult = z
  .record(z.string().max(50), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]), { error: 'Must be an object of values' })
  .refine((o) => Object.keys(o).length <= 50, 'At most 50 values')
  .nullish();
const levelCounts = z.object(
  Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, z.number().int().min(0).max(10_000).optional()])) as Record<
    DamageLevel,
    z.ZodOptional<z.ZodNumber>
  >,
);
const panelCounts = z.record(carPanel, levelCounts);

/** PUT ingest/scans/{id}/results: detections, counts and tyres; repeated ids update, nothing duplicates. */
export const ingestResultsBody = z.object({
  arch: partResult,
  chasis: partResult,
  tire: partResult,
  rims: partResult,
  damages: z.array(ingestDamage).max(2000, messages.max('Damages', 2000)).optional(),
  /** Counts per panel and level; derived from all the scan's damages when absent. */
  measures: z.object({ dents: panelCounts.optional(), scratchs: panelCounts.optional() }).optional(),
  tyres: z
    .array(ingestTyre)
    .max(TYRE_ROWS_MAX * 4)
    .optional(),
});

/** POST ingest/scans/{id}/status. */
export const ingestStatusBody = z.object({ status: oneOf(['ready', 'uploaded'], 'Status') });

// ---- The scan page ----

const idNumber = (label: string) =>
  fromDecimalText(
    z
      .number({ error: (i) => (i.input === undefined ? messages.required(label) : messages.type(label, 'an id')) })
      .int(messages.type(label, 'an id'))
      .positive(messages.type(label, 'an id'))
      .max(Number.MAX_SAFE_INTEGER, messages.type(label, 'an id')),
  );

const levelCount = (level: string) => {
  const label = `${level[0].toUpperCase()}${level.slice(1)}`;
  return z
    .number({ error: messages.type(label, 'a number') })
    .int(messages.integer(label))
    .min(0, messages.min(label, 0))
    .max(DAMAGE_COUNT_MAX, messages.max(label, DAMAGE_COUNT_MAX + 1));
};
/** One damage type's counts keyed by lower-case level; a level left out keeps its count. */
const editLevels = z.strictObject(
  Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, levelCount(l).optional()])) as Record<DamageLevel, z.ZodOptional<z.ZodNumber>>,
  { error: `Levels must be lower-case (${DAMAGE_LEVELS.join(', ')}), each a whole number from 0 to ${DAMAGE_COUNT_MAX}` },
);

/**
 * POST scans/arch/edit-damage-count (the wire's "Damage count edit payload"): `scan_id` is the scan's `id`; dents and
 * scratchs are keyed by lower-case level; a level left out keeps its count. The scan's totals follow.
 */
export const editDamageCountBody = z
  .object({
    scan_id: idNumber('Scan'),
    car_panel: carPanel,
    dents: editLevels.optional(),
    scratchs: editLevels.optional(),
    version: versionField,
  })
  .refine((b) => b.dents !== undefined || b.scratchs !== undefined, { path: ['dents'], error: messages.required('Dents') });

/** PUT scans/{id}/tyre-repairs: the wheel (row, side) and its choice; null clears it. */
export const tyreRepairBody = z.object({
  row: tyreRow,
  direction: oneOf(['L', 'R'], 'Direction'),
  repair_type: z.enum(TYRE_REPAIR_IDS, { error: messages.choice('Repair Type') }).nullable(),
  version: versionField,
});

/** Multipart text values of a flag: 1/0, true/false (any case); absent is false. */
const flag = (label: string) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? false : typeof v === 'string' ? v.toLowerCase() : v),
    z.union([z.boolean(), z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true')], {
      error: messages.type(label, 'true or false'),
    }),
  );

/**
 * POST scans/{id}/annotates (multipart): `file` the image (a crop or an annotation, JPEG from the browser; any image the
 * uploads accept); `edit` 1 with `image_id` (a saved image's id) replaces that image; `scan_id` may come and is ignored
 * (the path names the scan).
 */
export const annotateBody = z
  .object({
    file: z.unknown().optional(),
    edit: flag('Edit'),
    image_id: z.preprocess((v) => (v === '' ? undefined : v), idNumber('Image').optional()),
    scan_id: z.unknown().optional(),
  })
  .refine((b) => !b.edit || b.image_id !== undefined, { path: ['image_id'], error: messages.required('Image') });

/** POST license-plates/search: a registration prefix (spaces and dashes ignored); at most PLATE_SEARCH_LIMIT answers. */
const plateText = (label: string) =>
  safeString(label, { error: (i) => (i.input === undefined ? messages.required(label) : `${label} must be text`) })
    .max(40, messages.max(label, 40))
    .transform(normalisePlate)
    .pipe(
      z
        .string()
        .min(1, messages.required(label))
        .max(20, messages.max(label, 20))
        .regex(/^[A-Z0-9]+$/, `${label} may hold only letters and digits`),
    );
export const plateSearchBody = z.object({ number: plateText('Number') });
export const plateFetchParams = z.object({ number: plateText('Number') });
export const plateFetchQuery = z.object({
  state: z.preprocess(
    (v) => (v === '' ? undefined : typeof v === 'string' ? v.toUpperCase() : v),
    z.enum(AU_STATES.map((s) => s.id) as [string, ...string[]], { error: messages.choice('State') }).optional(),
  ),
});

/** POST emails (email service): the scan page's send-mail form (the scan page's Communication section). */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
/** A list of addresses, or one text of them separated by commas, semicolons or spaces; each lower-cased and checked. */
const recipients = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(/[,;\s]+/)
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z
    .array(
      safeString('Recipients', { error: 'Recipients must be email addresses' })
        .trim()
        .toLowerCase()
        .max(254, messages.max('Recipient', 254))
        .regex(EMAIL, messages.email()),
      { error: (i) => (i.input === undefined ? messages.required('Recipients') : 'Recipients must be email addresses') },
    )
    .min(1, messages.required('Recipients'))
    .max(MAIL_MAX_RECIPIENTS, `At most ${MAIL_MAX_RECIPIENTS} recipients`),
);
/** A stored file of the scan, by its name (the `path` the scan record gives each image and PDF), never a URL. */
const attachmentKey = z
  .string({ error: 'Attachments must be file names of this scan' })
  .regex(/^[0-9a-f]{32}\.[a-z0-9]{2,5}$/, 'Attachments must be file names of this scan');
export const sendMailBody = z.object({
  scan_id: idNumber('Scan'),
  recipients,
  subject: singleLine('Subject', { error: (i) => (i.input === undefined ? messages.required('Subject') : 'Subject must be text') })
    .trim()
    .min(1, messages.required('Subject'))
    .max(200, messages.max('Subject', 200)),
  message: safeString('Message', { error: (i) => (i.input === undefined ? messages.required('Message') : 'Message must be text') })
    .min(1, messages.required('Message'))
    .max(200_000, messages.max('Message', 200_000)),
  template_id: z.preprocess((v) => (v === '' || v === null ? undefined : v), idNumber('Template').optional()),
  attachments: z
    .array(attachmentKey, { error: 'Attachments must be a list of file names' })
    .max(MAIL_MAX_ATTACHMENTS, `At most ${MAIL_MAX_ATTACHMENTS} attachments`)
    .default([]),
});
