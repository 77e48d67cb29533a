/**
 * A scan's codes, limits and plain rules without zod, so that the browser's screens import them cheaply;
 * ./scans.ts builds the server's request schemas on them.
 */
import { AU_STATES } from './locations';
import { DENT_LEVELS } from './pricing';
import type { FieldSpecs } from './fields';
import { parseValuationText, VALUATION_MAX } from './valuation';

/** Scan kinds; 'chasis' is the product's spelling and the stored value. */
export const SCAN_TYPES = [
  { id: 'arch', name: 'Arch' },
  { id: 'chasis', name: 'Chasis' },
  { id: 'tire', name: 'Tire' },
] as const;
export type ScanType = (typeof SCAN_TYPES)[number]['id'];
export const SCAN_TYPE_IDS = SCAN_TYPES.map((t) => t.id) as [ScanType, ...ScanType[]];
export const isScanType = (v: unknown): v is ScanType => SCAN_TYPE_IDS.includes(v as ScanType);

/** Scan statuses in the order a scan moves through them (metadata, ready, uploaded). */
export const SCAN_STATUSES = [
  { id: 'metadata', name: 'Metadata' },
  { id: 'ready', name: 'Ready' },
  { id: 'uploaded', name: 'Uploaded' },
] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number]['id'];
export const statusRank = (s: ScanStatus) => SCAN_STATUSES.findIndex((x) => x.id === s);
export const isScanStatus = (v: unknown): v is ScanStatus => SCAN_STATUSES.some((x) => x.id === v);

/** Damage kinds as the wire spells them ('scratchs'). */
export const DAMAGE_TYPES = ['dents', 'scratchs'] as const;
export type DamageType = (typeof DAMAGE_TYPES)[number];
/** Severity, lowest to highest. */
export const DAMAGE_LEVELS = DENT_LEVELS;
export type DamageLevel = (typeof DAMAGE_LEVELS)[number];

/** Tyre conclusions (the wire's conclusionDescription); NONE means nothing to report. */
export const EATEN_TIRE = ['NONE', 'INNER_EDGE', 'OUTER_EDGE', 'BOTH_EDGES', 'CENTER'] as const;
export const PRESSURE_TIRE = ['NONE', 'UNDER_INFLATED', 'OVER_INFLATED'] as const;
/** Tread depth chart axis (0 to 40). */
export const TREAD_DEPTH_MAX = 40;
export const TYRE_ROWS_MAX = 10;

/**
 * Tire tab: row 1 is FRONT LEFT / FRONT RIGHT, the last row REAR LEFT / REAR RIGHT,
 * other rows '{n} LEFT' / '{n} RIGHT'.
 */
export function tyreLabel(row: number, lastRow: number, direction: 'L' | 'R') {
  const side = direction === 'L' ? 'LEFT' : 'RIGHT';
  if (row === 1) return `FRONT ${side}`;
  if (row === lastRow) return `REAR ${side}`;
  return `${row} ${side}`;
}

/** Registrations are kept upper-case without spaces or dashes, so '1ab-2cd' and '1AB 2CD' are one plate. */
export const normalisePlate = (plate: string) => plate.toUpperCase().replace(/[\s-]+/g, '');

/**
 * A device's valuation as text ('$15,900', '15900.50') is read as a person's typing is (`parseValuationText`): its whole
 * dollars, undefined when blank. Text of any other form stays as it came, so the number check refuses it ('1,2,3' is
 * not 123), and text beyond the largest valuation becomes a number beyond it, so the check names the bound.
 */
export const parseValuation = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const parsed = parseValuationText(v.replace(/^\s*\$/, ''));
  if (parsed.ok) return parsed.value ?? undefined;
  return parsed.error === 'max' ? VALUATION_MAX + 1 : v;
};

/**
 * The vehicle fields a user may edit inline (PUT scans/{id}); the wire keeps the wire names
 * (licensePlate, carColor), the table license_plate, car_color.
 */
export const scanVehicleFields = {
  licensePlate: { type: 'text', label: 'Registration', max: 20, list: true },
  make: { type: 'text', label: 'Make', max: 100 },
  model: { type: 'text', label: 'Model', max: 100 },
  carColor: { type: 'text', label: 'Car Color', max: 50, list: true },
  body_type: { type: 'text', label: 'Body Type', max: 100 },
  valuation: { type: 'number', label: 'Valuation', integer: true, min: 0, max: VALUATION_MAX },
  location_state: { type: 'choice', label: 'Location State', choices: AU_STATES },
  client_id: { type: 'reference', label: 'Client', reference: 'clients', list: true },
} satisfies FieldSpecs;
export type ScanVehicleField = keyof typeof scanVehicleFields;
export const SCAN_VEHICLE_FIELDS = Object.keys(scanVehicleFields) as ScanVehicleField[];

/** POST scans, the manual scan: the server forces type tire and status uploaded. */
export const manualScanFields = {
  agent_id: { type: 'reference', label: 'Agent', reference: 'agents', required: true },
  client_id: { type: 'reference', label: 'Client', reference: 'clients' },
} satisfies FieldSpecs;

/** 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm[:ss]' (Australia/Melbourne time), or an ISO 8601 instant with an offset. */
export const SCAN_DATE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
export const isDateOnly = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);
/** Years a scan date may name: the database's timestamps hold far more, a scanner's dates fall well inside. */
export const SCAN_YEARS = { min: 1900, max: 9999 } as const;

/** The scan export's file formats (`GET scans/export-scan-report?format=`): CSV always, XLSX (Excel) too. */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** `ago=48h` (the customer portal's window): hours, days or minutes. */
export const AGO = /^(\d{1,4})([hdm])$/;

/** A car panel code as the panels table spells them (bonnet, left_front_door, ...). */
export const CAR_PANEL = /^[a-z][a-z0-9_]{0,49}$/;

/** The kinds of image a scan keeps (docs/ingestion.md). */
export const IMAGE_KINDS = ['thumbnail', 'src', 'damage', 'tyre_measurement', 'tyre_image', 'vehicle_photo'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

/** The most a damage count edit may set one level to (numeric inputs). */
export const DAMAGE_COUNT_MAX = 999;

/** The agent viewer's tyre repair choices, one per wheel: stored ids and the product's labels. */
export const TYRE_REPAIR_TYPES = [
  { id: 'repair', name: 'Repair' },
  { id: 'recheck', name: 'Recheck Next Visit' },
  { id: 'replace', name: 'Replace' },
] as const;
export type TyreRepairType = (typeof TYRE_REPAIR_TYPES)[number]['id'];
export const TYRE_REPAIR_IDS = TYRE_REPAIR_TYPES.map((t) => t.id) as [TyreRepairType, ...TyreRepairType[]];

/** The most answers POST license-plates/search gives. */
export const PLATE_SEARCH_LIMIT = 10;

/** The send-mail form's limits (POST emails). */
export const MAIL_MAX_RECIPIENTS = 20;
export const MAIL_MAX_ATTACHMENTS = 10;
export const MAIL_MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;
