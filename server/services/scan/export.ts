import type { ExportFormat } from '../../../src/domain/scan-codes';
import { REPORT_LABELS, type ReportLanguage } from '../../../src/domain/report-labels';
import type { Database } from '../../db/database';
import { buildReportFile, readInBatches, type ReportLayout } from '../../lib/report-file';
import { type ExportRow, exportRows, type ScanSelection } from './list-repository';
import { exportCells } from './report';

/** Column widths of the sheet, in characters, in the columns' order. */
const XLSX_WIDTHS = [8, 24, 20, 13, 14, 16, 11, 12, 11, 22, 8, 26, 24, 9, 10, 7, 9, 12];

/** The scan report of a selection (server/lib/report-file.ts), newest first, in the screen's language `lang`. */
export function buildExport(
  db: Database,
  selection: Pick<ScanSelection, 'where' | 'basis' | 'source'>,
  format: ExportFormat,
  lang: ReportLanguage,
) {
  const words = REPORT_LABELS[lang];
  const layout: ReportLayout<ExportRow> = {
    lang,
    sheet: words.scans.sheet,
    columns: words.scans.columns,
    widths: XLSX_WIDTHS,
    cells: (row) => exportCells(row, words),
  };
  return readInBatches(db, exportRows(selection), (batches) => buildReportFile(format, layout, batches));
}
