import { CompiledQuery, type RawBuilder, sql } from 'kysely';
import writeExcelFile, { type Row } from 'write-excel-file/node';
import { csvCell } from '../../src/domain/csv';
import { SHEET_DATE_TIME_FORMATS, wallClockText } from '../../src/domain/formats';
import type { ReportLanguage } from '../../src/domain/report-labels';
import type { ExportFormat } from '../../src/domain/scan-codes';
import type { Database, Executor } from '../db/database';
import { sweepExpiredExports, type ExportTable } from './export-sweep';
import type { Signer } from './signing';
import { type FileStorage, signedFileUrl } from './storage';

/**
 * The lists' report files (the scans, quotes and vehicles exports): CSV (UTF-8 with a BOM, CRLF rows, formula-looking
 * cells neutralised) or XLSX (a bold frozen header, real date cells), with dates written as the screen of the report's
 * language writes them. The rows are read through one cursor in batches; the file is stored in the file store,
 * recorded in the list's exports table and removed by the hourly sweep `REPORT_TTL_HOURS` later.
 */

/** A report holds at most this many rows; more must be narrowed by the list's filters. */
export const REPORT_MAX_ROWS = 200_000;
/** Report files are kept this long after they were made, then removed from the file store. */
export const REPORT_TTL_HOURS = 24;
/** Rows fetched from the report's cursor at a time. */
export const REPORT_BATCH = 5_000;

const CONTENT_TYPE: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** A Melbourne wall-clock time ('YYYY-MM-DDTHH:mm:ss'): text in the CSV, a date cell in the sheet. */
export interface ReportTime {
  iso: string;
}
export type ReportCell = string | number | null | ReportTime;

/**
 * What a list's report holds: its language (the screen's, for its dates), its sheet's name, the headings, the column
 * widths in characters and one row's cells.
 */
export interface ReportLayout<R> {
  lang: ReportLanguage;
  sheet: string;
  columns: readonly string[];
  widths: readonly number[];
  cells: (row: R) => ReportCell[];
}

/** Characters an XML 1.0 document cannot hold (a sheet is XML): dropped from text cells. */
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const isTime = (v: ReportCell): v is ReportTime => typeof v === 'object' && v !== null;

/**
 * Reads a report's rows in batches of `size` through one cursor in a read-only transaction, and hands them to `use`
 * while the cursor is open: the selection (its scope, search and order) is worked out once, and every batch comes from
 * the snapshot the cursor opened on.
 */
export function readInBatches<R, T>(
  db: Database,
  query: RawBuilder<R>,
  use: (batches: AsyncIterable<R[]>) => Promise<T>,
  size = REPORT_BATCH,
): Promise<T> {
  return db
    .transaction()
    .setAccessMode('read only')
    .execute(async (trx) => {
      const rows = query.compile(trx);
      await trx.executeQuery(CompiledQuery.raw(`declare report_rows no scroll cursor for ${rows.sql}`, [...rows.parameters]));
      async function* batches() {
        for (;;) {
          const r = await sql<R>`fetch forward ${sql.lit(size)} from report_rows`.execute(trx);
          if (r.rows.length) yield r.rows;
          if (r.rows.length < size) return;
        }
      }
      return use(batches());
    });
}

/** The report file of the rows `batches` yields: its bytes, content type and how many rows it holds. */
export async function buildReportFile<R>(format: ExportFormat, layout: ReportLayout<R>, batches: AsyncIterable<R[]>) {
  let count = 0;
  if (format === 'csv') {
    const chunks: string[] = [`\uFEFF${layout.columns.map(csvCell).join(',')}\r\n`];
    for await (const rows of batches) {
      const lines = rows.map((row) =>
        layout
          .cells(row)
          .map((v) => csvCell(isTime(v) ? wallClockText(v.iso, layout.lang) : v))
          .join(','),
      );
      chunks.push(`${lines.join('\r\n')}\r\n`);
      count += rows.length;
    }
    return { data: Buffer.from(chunks.join(''), 'utf8'), contentType: CONTENT_TYPE.csv, count };
  }
  const sheet: Row[] = [layout.columns.map((title) => ({ value: title, fontWeight: 'bold' as const }))];
  for await (const rows of batches) {
    for (const row of rows)
      sheet.push(
        layout.cells(row).map((v) =>
          // A sheet's dates have no zone: the cell holds the Melbourne wall-clock time.
          isTime(v)
            ? { value: new Date(`${v.iso}Z`), type: Date, format: SHEET_DATE_TIME_FORMATS[layout.lang] }
            : typeof v === 'string'
              ? v.replace(XML_INVALID, '')
              : v,
        ),
      );
    count += rows.length;
  }
  const data = await writeExcelFile(sheet, {
    sheet: layout.sheet,
    columns: layout.widths.map((width) => ({ width })),
    stickyRowsCount: 1,
  }).toBuffer();
  return { data, contentType: CONTENT_TYPE.xlsx, count };
}

/** Stores a report file, records it in `table` for the sweep and answers a download link signed for its maker. */
export async function storeReportFile(
  deps: { db: Executor; storage: FileStorage; signer: Signer },
  table: ExportTable,
  userId: number,
  format: ExportFormat,
  file: Awaited<ReturnType<typeof buildReportFile>>,
) {
  const key = await deps.storage.put(file.data, file.contentType);
  await sql`insert into ${sql.table(table)} (key, user_id, format, rows) values (${key}, ${userId}, ${format}, ${file.count})`.execute(
    deps.db,
  );
  // The browser downloads through a plain link (no bearer token): a short-lived link signed for this user.
  return { url: signedFileUrl(deps.signer, key, userId) };
}

/** The hourly sweep of one list's reports (server/lib/export-sweep.ts): files older than REPORT_TTL_HOURS, then their rows. */
export const removeExpiredReports = (
  table: ExportTable,
  db: Database,
  storage: FileStorage,
  log?: Parameters<typeof sweepExpiredExports>[2]['log'],
  now = new Date(),
  signal?: AbortSignal,
) => sweepExpiredExports(table, REPORT_TTL_HOURS, { db, storage, log, now, signal });
