import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

/** A range of days as the range calendar holds it: 'YYYY-MM-DD' (Melbourne) or '' for none. */
export interface DayRange {
  ts: string;
  td: string;
}

/** How many days a range holds, both ends counted ('N selected'); 1 with only a start, 0 with none. */
export function selectedDays(ts: string, td: string): number {
  if (!ts) return 0;
  if (!td) return 1;
  const [a, b] = [dayjs.utc(ts), dayjs.utc(td)];
  return Math.abs(b.diff(a, 'day')) + 1;
}

/** A click on a day of the range calendar: the first sets the start, the second the end (either order); a third starts again. */
export function pickDay(range: DayRange, day: string): DayRange {
  if (!range.ts || range.td) return { ts: day, td: '' };
  return day < range.ts ? { ts: day, td: range.ts } : { ts: range.ts, td: day };
}

/** The dates of a range as the heading shows them: DD-MM-YYYY (Japanese YYYY-MM-DD), one date when both are the same. */
export function rangeLabel(ts: string, td: string, locale: string): string {
  const fmt = (d: string) => dayjs.utc(d).format(locale === 'ja' ? 'YYYY-MM-DD' : 'DD-MM-YYYY');
  if (!ts) return '';
  if (!td || ts === td) return fmt(ts);
  return `${fmt(ts)} – ${fmt(td)}`;
}
