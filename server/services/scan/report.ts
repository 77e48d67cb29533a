import { formatDateTime } from '../../../src/domain/format';
import { DAMAGE_LEVELS, SCAN_STATUSES, SCAN_TYPES } from '../../../src/domain/scan-codes';
import { autoTable, type UserOptions } from 'jspdf-autotable';
import type { ReportLabels } from '../../../src/domain/report-labels';
import { A4, createPdf, pdfBytes } from '../../lib/pdf/document';
import type { ReportCell } from '../../lib/report-file';
import type { ScanDetail, ScanItem } from './scan-repository';

/** DD-MM-YYYY hh:mm AM in Melbourne time: the screens' own formatting (src/domain/format.ts). */
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

const MARGIN = 56;
const PRIMARY: [number, number, number] = [12, 24, 57]; // #0C1839

/**
 * The scan's report PDFs (the scan page's Reports): the scan report for the agent's and the client's staff, and the
 * customer portal's, for the vehicle's owner, which leaves out whom the scan is for and the device's scan id.
 */
export const SCAN_REPORTS = [
  { kind: 'scan_report', label: 'View Scan Report', audience: 'staff' },
  { kind: 'portal_report', label: 'Customer Portal PDF', audience: 'customer' },
] as const;
export type ReportAudience = (typeof SCAN_REPORTS)[number]['audience'];

/**
 * A scan report: an A4 PDF (server/lib/pdf) of the vehicle, the damage counts per panel and the tyres. Helvetica, or
 * IPAex Gothic embedded when a name needs it (a Japanese client or agent).
 */
export function scanReportPdf(scan: ReportInput, audience: ReportAudience = 'staff'): Buffer {
  const levels = DAMAGE_LEVELS.map((l) => l.charAt(0).toUpperCase() + l.slice(1));
  const panels = Object.keys(scan.measures.damage_count).sort();
  const panelRows = panels.map((panel) => {
    const row = (type: 'dents' | 'scratchs') => DAMAGE_LEVELS.map((l) => scan.measures[type][panel]?.[l] ?? 0).join(' / ');
    return [panelName(panel), row('dents'), row('scratchs')];
  });
  const tyreRows = scan.data.map((t) => {
    const min = Math.min(...t.depths);
    const findings = [t.conclusionDescription.eatenTire, t.conclusionDescription.pressureTire]
      .filter((c) => c !== 'NONE')
      .map((c) => c.toLowerCase().replace(/_/g, ' '));
    // 1.5 mm is the legal minimum tread depth in Australia.
    if (min <= 1.5) findings.push('at or below the 1.5 mm legal minimum');
    return [`${t.label} ${t.position === 'I' ? 'inner' : 'outer'}`, min.toFixed(1), findings.join(', ') || 'no findings'];
  });
  const vehicle = [
    ['Registration', `${dash(scan.licensePlate)}${scan.location_state ? ` (${scan.location_state})` : ''}`],
    ['Make / Model', `${dash(scan.make)} ${scan.model ?? ''}`.trimEnd()],
    ['Colour', dash(scan.carColor)],
    ['Body type', dash(scan.body_type)],
  ];
  const staff = audience === 'staff';
  const scanRows = [
    ['Date', `${melbourneTime(scan.timestamp)} (Melbourne time)`],
    ['Type', label(SCAN_TYPES, scan.type)],
    ...(staff
      ? [
          ['Status', label(SCAN_STATUSES, scan.status)],
          ['Scan id', scan.scan_id],
          ['Client', dash(scan.client_name)],
        ]
      : []),
    ['Damage', `Dents: ${scan.dentCount}    Scratches: ${scan.scratchCount}    Total: ${scan.damageCount}`],
  ];
  const agent = `${scan.agent_name}${scan.location_name ? ` - ${scan.location_name}` : ''}`;
  const footer = `Generated ${melbourneTime(new Date())}. Scan results are estimates and must be confirmed by an assessor.`;
  const title = staff ? `Scan report ${scan.licensePlate ?? scan.scan_id}` : `Vehicle scan ${scan.licensePlate ?? ''}`.trimEnd();
  const { doc, font } = createPdf({
    title,
    texts: [agent, footer, ...vehicle.flat(), ...scanRows.flat(), ...panelRows.flat(), ...tyreRows.flat()],
  });

  doc
    .setFont(font.family, font.bold)
    .setFontSize(20)
    .setTextColor(...PRIMARY);
  doc.text(staff ? 'Vehicle Scan Report' : 'Your Vehicle Scan', MARGIN, MARGIN + 14);
  doc.setFont(font.family, 'normal').setFontSize(11).setTextColor(60);
  doc.text(agent, MARGIN, MARGIN + 34);
  let y = MARGIN + 44;
  const section = (heading: string, opts: Omit<UserOptions, 'startY'>) => {
    autoTable(doc, {
      startY: y + 10,
      margin: { left: MARGIN, right: MARGIN, bottom: MARGIN },
      styles: { font: font.family, fontStyle: 'normal', fontSize: 10, cellPadding: 3, textColor: 20 },
      headStyles: { fillColor: PRIMARY, textColor: 255, fontStyle: font.bold },
      head: [[{ content: heading, colSpan: 3, styles: { fontSize: 12 } }]],
      ...opts,
    });
    y = (doc as unknown as { lastAutoTable: { finalY: number } }).lastAutoTable.finalY;
  };
  const pairs = { theme: 'plain' as const, columnStyles: { 0: { cellWidth: 110, textColor: 90 } } };
  section('Vehicle', { ...pairs, head: [[{ content: 'Vehicle', colSpan: 2, styles: { fontSize: 12 } }]], body: vehicle });
  section('Scan', { ...pairs, head: [[{ content: 'Scan', colSpan: 2, styles: { fontSize: 12 } }]], body: scanRows });
  section('Damage', {
    theme: 'striped',
    head: [
      [{ content: 'Damage per panel', colSpan: 3, styles: { fontSize: 12 } }],
      [{ content: `Counts by level: ${levels.join(' / ')}`, colSpan: 3, styles: { fontStyle: 'normal', fontSize: 9 } }],
      ['Panel', 'Dents', 'Scratches'],
    ],
    body: panelRows.length ? panelRows : [[{ content: 'No damage detected.', colSpan: 3 }]],
  });
  if (tyreRows.length)
    section('Tyres', {
      theme: 'striped',
      head: [[{ content: 'Tyres', colSpan: 3, styles: { fontSize: 12 } }], ['Tyre', 'Minimum tread (mm)', 'Findings']],
      body: tyreRows,
    });
  doc.setFont(font.family, 'normal').setFontSize(8).setTextColor(90);
  if (y + 40 > A4.height - MARGIN) {
    doc.addPage();
    y = MARGIN;
  }
  doc.text(doc.splitTextToSize(footer, A4.width - 2 * MARGIN) as string[], MARGIN, y + 24);
  return pdfBytes(doc);
}

/** The export's cells of one scan, typed, in the columns' order (the date/time in Melbourne wall-clock time), worded in `words`. */
export function exportCells(scan: ScanItem & { local_iso: string }, words: ReportLabels): ReportCell[] {
  return [
    scan.id,
    scan.scan_id,
    { iso: scan.local_iso },
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
    words.scan_types[scan.type as keyof ReportLabels['scan_types']] ?? scan.type,
    words.scan_statuses[scan.status as keyof ReportLabels['scan_statuses']] ?? scan.status,
    scan.dentCount,
    scan.scratchCount,
    // Damage found since the scan it is compared with (the list's New Damage column; 0 with nothing to compare).
    scan.new_damage,
  ];
}
