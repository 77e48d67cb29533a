import type { RawBuilder } from 'kysely';
import { supplementLabel } from '../../../src/domain/quote-model';
import { REPORT_LABELS, type ReportLabels, type ReportLanguage } from '../../../src/domain/report-labels';
import type { ExportFormat } from '../../../src/domain/scan-codes';
import type { Database } from '../../db/database';
import { buildReportFile, readInBatches, type ReportCell, type ReportLayout } from '../../lib/report-file';
import { type QuoteExportRow, quoteExportRows, type StoredQuoteExportRow, toQuoteExportRow } from './quotes-repository';

/** Column widths of the sheet, in characters, in the columns' order. */
const XLSX_WIDTHS = [8, 20, 13, 7, 22, 24, 7, 9, 11, 13, 15, 14, 15, 11, 11, 11, 7, 10, 12, 18, 9];

/** A quote's cells in the list's columns, then who and where, worded in `words`. */
function cells(q: QuoteExportRow, words: ReportLabels): ReportCell[] {
  return [
    q.id,
    { iso: q.local_iso },
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

/** The quote report of a selection (server/lib/report-file.ts), newest first, in the screen's language `lang`. */
export function buildQuoteExport(db: Database, where: RawBuilder<boolean>, format: ExportFormat, lang: ReportLanguage) {
  const words = REPORT_LABELS[lang];
  const layout: ReportLayout<StoredQuoteExportRow> = {
    lang,
    sheet: words.quotes.sheet,
    columns: words.quotes.columns,
    widths: XLSX_WIDTHS,
    cells: (row) => cells(toQuoteExportRow(row), words),
  };
  return readInBatches(db, quoteExportRows(where), (batches) => buildReportFile(format, layout, batches));
}
