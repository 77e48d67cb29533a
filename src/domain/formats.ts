/**
 * The scans' time zone and date formats, said once. No dependencies: the browser's
 * dayjs formatting (./format), the report (server/services/scan/report.ts, through ./format) and the
 * exports' text and spreadsheet cells (server/lib/report-file.ts) all read them here.
 */

/** The display time zone of the scans; the server's ts/te filters and day counts read dates in it too. */
export const DISPLAY_TIME_ZONE = 'Australia/Melbourne';

/** dayjs tokens. DD-MM-YYYY hh:mm A; the Japanese interface puts the year first and the meridiem before the time. */
export const DATE_TIME_FORMATS = {
  en: 'DD-MM-YYYY hh:mm A',
  ja: 'YYYY-MM-DD A hh:mm',
} as const;

/**
 * The same formats as spreadsheet number formats (the XLSX exports' date cells). `[$-411]` is Japanese's locale code:
 * a spreadsheet then writes the meridiem as 午前 / 午後, as the Japanese screen does.
 */
export const SHEET_DATE_TIME_FORMATS: Record<keyof typeof DATE_TIME_FORMATS, string> = {
  en: 'dd-mm-yyyy hh:mm AM/PM',
  ja: '[$-411]yyyy-mm-dd AM/PM hh:mm',
};

/**
 * A wall-clock time 'YYYY-MM-DDTHH:mm[:ss]' written in DATE_TIME_FORMATS[lang], as the screen writes it (the CSV
 * exports' date columns). Read from the text, not through dayjs: an export writes hundreds of thousands of them.
 */
export function wallClockText(iso: string, lang: keyof typeof DATE_TIME_FORMATS): string {
  const [y, m, d] = [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)];
  const hour = Number(iso.slice(11, 13));
  const clock = `${String(hour % 12 || 12).padStart(2, '0')}:${iso.slice(14, 16)}`;
  return lang === 'ja' ? `${y}-${m}-${d} ${hour < 12 ? '午前' : '午後'} ${clock}` : `${d}-${m}-${y} ${clock} ${hour < 12 ? 'AM' : 'PM'}`;
}
