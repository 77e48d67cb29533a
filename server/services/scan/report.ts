import { formatDateTime } from '../../../src/domain/format';
import { DAMAGE_LEVELS, SCAN_STATUSES, SCAN_TYPES } from '../../../src/domain/scans';
import { type PdfLine, textPdf } from '../../lib/pdf';
import type { ScanDetail, ScanItem } from './repository';

/** DD-MM-YYYY hh:mm AM in Melbourne time (spec 2 §9): the screens' own formatting (src/domain/format.ts). */
export const melbourneTime = (d: Date) => formatDateTime(d, 'en');

const label = (list: readonly { id: string; name: string }[], id: string) => list.find((x) => x.id === id)?.name ?? id;
const panelName = (code: string) =>
  code
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
const dash = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '-' : String(v));

/** What the report shows: the scan page's vehicle, counts and tyres (the demo seed builds it without reading back). */
export type ReportInput = Pick<
  ScanDetail,
  | 'agent_name'
  | 'location_name'
  | 'licensePlate'
  | 'location_state'
  | 'make'
  | 'model'
  | 'carColor'
  | 'body_type'
  | 'timestamp'
  | 'type'
  | 'status'
  | 'scan_id'
  | 'client_name'
  | 'dentCount'
  | 'scratchCount'
  | 'damageCount'
  | 'measures'
> & { data: Pick<ScanDetail['data'][number], 'label' | 'position' | 'depths' | 'conclusionDescription'>[] };

/** The scan report (spec 2 Reports, 'View Scan Report'): a text-only PDF of the vehicle, the damage counts and the tyres. */
export function scanReportPdf(scan: ReportInput): Buffer {
  const lines: PdfLine[] = [
    { text: 'Vehicle Scan Report', size: 20, bold: true },
    { text: `${scan.agent_name}${scan.location_name ? ` - ${scan.location_name}` : ''}`, size: 11, gap: 4 },
    { text: 'Vehicle', size: 13, bold: true, gap: 14 },
    { text: `Registration: ${dash(scan.licensePlate)}${scan.location_state ? ` (${scan.location_state})` : ''}` },
    { text: `Make / Model: ${dash(scan.make)} ${scan.model ?? ''}`.trimEnd() },
    { text: `Colour: ${dash(scan.carColor)}    Body type: ${dash(scan.body_type)}` },
    { text: 'Scan', size: 13, bold: true, gap: 14 },
    { text: `Date: ${melbourneTime(scan.timestamp)} (Melbourne time)` },
    { text: `Type: ${label(SCAN_TYPES, scan.type)}    Status: ${label(SCAN_STATUSES, scan.status)}    Scan id: ${scan.scan_id}` },
    { text: `Client: ${dash(scan.client_name)}` },
    { text: 'Damage', size: 13, bold: true, gap: 14 },
    { text: `Dents: ${scan.dentCount}    Scratches: ${scan.scratchCount}    Total: ${scan.damageCount}` },
  ];
  const panels = Object.keys(scan.measures.damage_count).sort();
  if (panels.length) {
    lines.push({
      text: `Panel                          ${DAMAGE_LEVELS.map((l) => l.charAt(0).toUpperCase() + l.slice(1)).join(' / ')}`,
      bold: true,
      gap: 6,
      size: 10,
    });
    for (const panel of panels) {
      const row = (type: 'dents' | 'scratchs') => DAMAGE_LEVELS.map((l) => scan.measures[type][panel]?.[l] ?? 0).join(' / ');
      lines.push({ text: `${panelName(panel)}: dents ${row('dents')}; scratches ${row('scratchs')}`, size: 10, indent: 8 });
    }
  } else {
    lines.push({ text: 'No damage detected.', size: 10 });
  }
  if (scan.data.length) {
    lines.push({ text: 'Tyres (tread depth, mm)', size: 13, bold: true, gap: 14 });
    for (const t of scan.data) {
      const min = Math.min(...t.depths);
      const findings = [t.conclusionDescription.eatenTire, t.conclusionDescription.pressureTire]
        .filter((c) => c !== 'NONE')
        .map((c) => c.toLowerCase().replace(/_/g, ' '));
      // 1.5 mm is the legal minimum tread depth in Australia.
      if (min <= 1.5) findings.push('at or below the 1.5 mm legal minimum');
      const notes = findings.join(', ') || 'no findings';
      lines.push({
        text: `${t.label} ${t.position === 'I' ? 'inner' : 'outer'}: minimum ${min.toFixed(1)} - ${notes}`,
        size: 10,
        indent: 8,
      });
    }
  }
  lines.push({
    text: `Generated ${melbourneTime(new Date())}. Scan results are estimates and must be confirmed by an assessor.`,
    size: 8,
    gap: 20,
  });
  return textPdf(lines, { title: `Scan report ${scan.licensePlate ?? scan.scan_id}` });
}

/** The export's columns, in the list's order and words. */
export const EXPORT_COLUMNS = [
  'ID',
  'Scan ID',
  'Date/Time',
  'Registration',
  'Make',
  'Model',
  'Car Color',
  'Body Type',
  'Valuation',
  'Location',
  'Location State',
  'Client',
  'Agent',
  'Type',
  'Status',
  'Dents',
  'Scratches',
] as const;

/** One CSV cell: quoted when needed, and a leading = + - @ neutralised so a spreadsheet never runs it as a formula. */
export function csvCell(v: string | number | null | undefined) {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The export's cells of one scan, typed, in EXPORT_COLUMNS order (the date/time as Melbourne wall-clock text). */
export function exportCells(scan: ScanItem & { local_time: string }): (string | number | null)[] {
  return [
    scan.id,
    scan.scan_id,
    scan.local_time,
    scan.licensePlate,
    scan.make,
    scan.model,
    scan.carColor,
    scan.body_type,
    scan.valuation,
    scan.location_name,
    scan.location_state,
    scan.client_name,
    scan.agent_name,
    label(SCAN_TYPES, scan.type),
    label(SCAN_STATUSES, scan.status),
    scan.dentCount,
    scan.scratchCount,
  ];
}

export function csvRow(scan: ScanItem & { local_time: string }) {
  return exportCells(scan).map(csvCell).join(',');
}
