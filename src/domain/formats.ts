/**
 * The scans' time zone and date formats, said once. No dependencies: the browser's
 * dayjs formatting (./format), the report (server/services/scan/report.ts, through ./format) and the
 * export's PostgreSQL `to_char` and spreadsheet cells (server/services/scan/) all read them here.
 */

/** The display time zone of the scans; the server's ts/te filters and day counts read dates in it too. */
export const DISPLAY_TIME_ZONE = 'Australia/Melbourne';

/** dayjs tokens. DD-MM-YYYY hh:mm A; the Japanese interface puts the year first and the meridiem before the time. */
export const DATE_TIME_FORMATS: Record<string, string> = {
  en: 'DD-MM-YYYY hh:mm A',
  ja: 'YYYY-MM-DD A hh:mm',
};

/** The English format in PostgreSQL's `to_char` tokens (the CSV export's date column). */
export const SQL_DATE_TIME_FORMAT = 'DD-MM-YYYY HH12:MI AM';

/** The English format as a spreadsheet number format (the XLSX export's date cells). */
export const SHEET_DATE_TIME_FORMAT = 'dd-mm-yyyy hh:mm AM/PM';
