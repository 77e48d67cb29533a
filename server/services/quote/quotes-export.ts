import type { RawBuilder } from 'kysely';
import writeExcelFile, { type Row } from 'write-excel-file/node';
import { SHEET_DATE_TIME_FORMAT } from '../../../src/domain/formats';
import { supplementLabel } from '../../../src/domain/quote-model';
import type { ReportLabels } from '../../../src/domain/report-labels';
import type { Database, Executor } from '../../db/database';
import { csvCell } from '../../../src/domain/csv';
import { sweepExpiredExports } from '../../lib/export-sweep';
import type { FileStorage } from '../../lib/storage';
import { quoteExportBatch, type QuoteExportRow } from './quotes-repository';

/**
 * The quote report (GET quotes/export-quote-report), made as the scan export is (server/services/scan/export.ts):
 * keyset batches, CSV (UTF-8 with BOM, Melbourne times, formula-looking cells neutralised) or XLSX (write-excel-file,
 * bold frozen header, a real date cell), recorded in quote_exports and removed a day later by the hourly sweep.
 */

export const QUOTE_EXPORT_TTL_HOURS = 24;
export const QUOTE_EXPORT_MAX_ROWS = 200_000;
export const QUOTE_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type QuoteExportFormat = (typeof QUOTE_EXPORT_FORMATS)[number];
const BATCH = 5_000;

const CONTENT_TYPE: Record<QuoteExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const XLSX_WIDTHS = [8, 20, 13, 7, 22, 24, 7, 9, 11, 13, 15, 14, 15, 11, 11, 11, 7, 10, 12, 18, 9];

/** A quote's cells in the list's columns, then who and where, worded in `words`. */
function cells(q: QuoteExportRow, words: ReportLabels): (string | number | null)[] {
  return [
    q.id,
    q.local_time,
    q.licensePlate,
    // As the list and the scans export write it: 'Arch', not the stored 'arch'.
    words.scan_types[q.type as keyof ReportLabels['scan_types']] ?? q.type,
    q.agent_name,
    q.client_name,
    q.location_state,
    q.currency,
    q.pdr,
    q.conventional,
    q.replacement,
    q.p2p,
    q.paint,
    q.tyre,
    q.product,
    q.sub_total,
    q.tax_percent,
    q.tax,
    q.grant_total,
    q.status ? words.quote_statuses[q.status] : '',
    supplementLabel(q.revision ?? 0) ?? '',
  ];
}

async function* rows(db: Executor, where: RawBuilder<boolean>): AsyncGenerator<QuoteExportRow[]> {
  let after: { ts: string; id: number } | null = null;
  for (;;) {
    const batch = await quoteExportBatch(db, where, after, BATCH);
    if (batch.length) yield batch;
    if (batch.length < BATCH) return;
    const last = batch[batch.length - 1];
    after = { ts: last.cursor_ts, id: last.id };
  }
}

// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** The export file of a selection, worded in `words`: its bytes, content type and how many quotes it holds. */
export async function buildQuoteExport(db: Executor, where: RawBuilder<boolean>, format: QuoteExportFormat, words: ReportLabels) {
  let count = 0;
  if (format === 'csv') {
    const chunks: string[] = [`\uFEFF${words.quotes.columns.join(',')}\r\n`];
    for await (const batch of rows(db, where)) {
      chunks.push(`${batch.map((q) => cells(q, words).map(csvCell).join(',')).join('\r\n')}\r\n`);
      count += batch.length;
    }
    return { data: Buffer.from(chunks.join(''), 'utf8'), contentType: CONTENT_TYPE.csv, count };
  }
  const sheet: Row[] = [words.quotes.columns.map((title) => ({ value: title, fontWeight: 'bold' as const }))];
  for await (const batch of rows(db, where)) {
    for (const q of batch)
      sheet.push(
        cells(q, words).map((v, i) =>
          i === 1
            ? { value: new Date(`${q.local_iso}Z`), type: Date, format: SHEET_DATE_TIME_FORMAT }
            : typeof v === 'string'
              ? v.replace(XML_INVALID, '')
              : v,
        ),
      );
    count += batch.length;
  }
  const data = await writeExcelFile(sheet, {
    sheet: words.quotes.sheet,
    columns: XLSX_WIDTHS.map((width) => ({ width })),
    stickyRowsCount: 1,
  }).toBuffer();
  return { data, contentType: CONTENT_TYPE.xlsx, count };
}

/** The quote exports' hourly sweep (server/lib/export-sweep.ts): files older than QUOTE_EXPORT_TTL_HOURS, then their rows. */
export const removeExpiredQuoteExports = (
  db: Database,
  storage: FileStorage,
  log?: Parameters<typeof sweepExpiredExports>[2]['log'],
  now = new Date(),
  signal?: AbortSignal,
) => sweepExpiredExports('quote_exports', QUOTE_EXPORT_TTL_HOURS, { db, storage, log, now, signal });
