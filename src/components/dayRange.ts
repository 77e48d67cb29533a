/**
 * Ranges of whole days written 'YYYY-MM-DD'. Plain text and UTC arithmetic, no date library: the range field that
 * uses them comes with every signed-in screen's layout.
 */

/** A range of days as the range calendar holds it: 'YYYY-MM-DD' (Melbourne) or '' for none. */
export interface DayRange {
  ts: string;
  td: string;
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS;

/** How many days a range holds, both ends counted ('N selected'); 1 with only a start, 0 with none. */
export function selectedDays(ts: string, td: string): number {
  if (!ts) return 0;
  if (!td) return 1;
  return Math.abs(dayNumber(td) - dayNumber(ts)) + 1;
}

/** A click on a day of the range calendar: the first sets the start, the second the end (either order); a third starts again. */
export function pickDay(range: DayRange, day: string): DayRange {
  if (!range.ts || range.td) return { ts: day, td: '' };
  return day < range.ts ? { ts: day, td: range.ts } : { ts: range.ts, td: day };
}

/** The dates of a range as the heading shows them: DD-MM-YYYY (Japanese YYYY-MM-DD), one date when both are the same. */
export function rangeLabel(ts: string, td: string, locale: string): string {
  const fmt = (d: string) => (locale === 'ja' ? d.slice(0, 10) : `${d.slice(8, 10)}-${d.slice(5, 7)}-${d.slice(0, 4)}`);
  if (!ts) return '';
  if (!td || ts === td) return fmt(ts);
  return `${fmt(ts)} – ${fmt(td)}`;
}
