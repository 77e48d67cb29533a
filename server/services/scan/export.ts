import writeExcelFile, { type Row } from 'write-excel-file/node';
import type { ExportFormat } from '../../../src/domain/scan-codes';
import type { Database, Executor } from '../../db/database';
import { sweepExpiredExports } from '../../lib/export-sweep';
import type { FileStorage } from '../../lib/storage';
import { exportBatch, type ExportRow, type ScanSelection } from './list-repository';
import { csvRow, exportCells } from './report';
import type { ReportLabels } from '../../../src/domain/report-labels';
import { SHEET_DATE_TIME_FORMAT } from '../../../src/domain/formats';

/** Export files are kept this long after they were made, then removed from the file store. */
export const EXPORT_TTL_HOURS = 24;
const BATCH = 5_000;

const CONTENT_TYPE: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Every row of the selection, newest first, in keyset batches (never an offset). */
async function* exportRows(db: Executor, selection: Pick<ScanSelection, 'where' | 'basis' | 'source'>): AsyncGenerator<ExportRow[]> {
  let after: { ts: string; id: number } | null = null;
  for (;;) {
    const rows = await exportBatch(db, selection, after, BATCH);
    if (rows.length) yield rows;
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1];
    after = { ts: last.cursor_ts, id: last.id };
  }
}

/** Characters an XML 1.0 document cannot hold (a sheet is XML): dropped from text cells. */
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
/** Column widths of the sheet, in characters, in the columns' order. */
const XLSX_WIDTHS = [8, 24, 20, 13, 14, 16, 11, 12, 11, 22, 8, 26, 24, 9, 10, 7, 9, 12];

/** The export file of a selection, worded in `words`: its bytes, content type and how many scans it holds. */
export async function buildExport(
  db: Executor,
  selection: Pick<ScanSelection, 'where' | 'basis' | 'source'>,
  format: ExportFormat,
  words: ReportLabels,
) {
  let count = 0;
  if (format === 'csv') {
    // A BOM, so spreadsheet programs read the UTF-8 names (¥, €, Japanese) right.
    const chunks: string[] = [`\uFEFF${words.scans.columns.join(',')}\r\n`];
    for await (const rows of exportRows(db, selection)) {
      chunks.push(`${rows.map((row) => csvRow(row, words)).join('\r\n')}\r\n`);
      count += rows.length;
    }
    return { data: Buffer.from(chunks.join(''), 'utf8'), contentType: CONTENT_TYPE.csv, count };
  }
  const sheet: Row[] = [words.scans.columns.map((title) => ({ value: title, fontWeight: 'bold' as const }))];
  for await (const rows of exportRows(db, selection)) {
    for (const row of rows) {
      // The date/time (third column) as a real date cell holding the Melbourne wall-clock time (a sheet's dates have no zone).
      sheet.push(
        exportCells(row, words).map((v, i) =>
          i === 2
            ? { value: new Date(`${row.local_iso}Z`), type: Date, format: SHEET_DATE_TIME_FORMAT }
            : typeof v === 'string'
              ? v.replace(XML_INVALID, '')
              : v,
        ),
      );
    }
    count += rows.length;
  }
  const data = await writeExcelFile(sheet, {
    sheet: words.scans.sheet,
    columns: XLSX_WIDTHS.map((width) => ({ width })),
    stickyRowsCount: 1,
  }).toBuffer();
  return { data, contentType: CONTENT_TYPE.xlsx, count };
}

/** The scan exports' hourly sweep (server/lib/export-sweep.ts): files older than EXPORT_TTL_HOURS, then their rows. */
export const removeExpiredExports = (
  db: Database,
  storage: FileStorage,
  log?: Parameters<typeof sweepExpiredExports>[2]['log'],
  now = new Date(),
  signal?: AbortSignal,
) => sweepExpiredExports('scan_exports', EXPORT_TTL_HOURS, { db, storage, log, now, signal });
