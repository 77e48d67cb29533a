import dayjs from 'dayjs';
import 'dayjs/locale/ja';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

import { DATE_TIME_FORMATS, DISPLAY_TIME_ZONE } from './formats';

export { DATE_TIME_FORMATS, DISPLAY_TIME_ZONE };

export type DateInput = string | number | Date | null | undefined;

const parse = (value: DateInput) => {
  if (value === null || value === undefined || value === '') return null;
  const d = dayjs(value);
  return d.isValid() ? d : null;
};

/** One formatter per time zone: building an Intl.DateTimeFormat is the costly part (dayjs' `tz()` builds one per call). */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();
const zoneFormat = (timeZone: string) => {
  let f = zoneFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormats.set(timeZone, f);
  }
  return f;
};

/** The wall-clock time of an instant in a time zone, as a UTC-mode dayjs (its fields are the zone's, for formatting). */
function wallClock(d: dayjs.Dayjs, timeZone: string) {
  const p: Record<string, number> = {};
  for (const part of zoneFormat(timeZone).formatToParts(d.toDate())) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const at = new Date(Date.UTC(2000, p.month - 1, p.day, p.hour, p.minute, p.second, d.millisecond()));
  at.setUTCFullYear(p.year); // Date.UTC reads years 0-99 as 1900-1999
  return dayjs.utc(at);
}

/** A scan's date and time in Melbourne for the given locale ('en' when unknown); '' for no or a bad date. */
export function formatDateTime(value: DateInput, locale = 'en', timeZone = DISPLAY_TIME_ZONE): string {
  const d = parse(value);
  if (!d) return '';
  const lang = locale === 'ja' ? 'ja' : 'en';
  return wallClock(d, timeZone).locale(lang).format(DATE_TIME_FORMATS[lang]);
}

/** The clock time of an instant in Melbourne, as the screens write it: '05:30 PM', in Japanese '午後 05:30'. */
export function formatClock(value: DateInput, locale = 'en', timeZone = DISPLAY_TIME_ZONE): string {
  const d = parse(value);
  if (!d) return '';
  const ja = locale === 'ja';
  return wallClock(d, timeZone)
    .locale(ja ? 'ja' : 'en')
    .format(ja ? 'A hh:mm' : 'hh:mm A');
}

/** The calendar day ('YYYY-MM-DD') an instant falls on in Melbourne, as the list's ts/te date filters read it. */
export function localDate(value: DateInput, timeZone = DISPLAY_TIME_ZONE): string | null {
  const d = parse(value);
  return d ? wallClock(d, timeZone).format('YYYY-MM-DD') : null;
}

/** An instant as a file name carries it, in Melbourne: 'YYYYMMDD-HHmm' (20261130-0939). */
export function fileTimeStamp(value: DateInput, timeZone = DISPLAY_TIME_ZONE): string {
  const d = parse(value);
  return d ? wallClock(d, timeZone).format('YYYYMMDD-HHmm') : '';
}

/** A day as the interface writes it: DD-MM-YYYY, year first (YYYY-MM-DD) in Japanese; '' for no or a bad date. */
export function formatDay(value: DateInput, locale = 'en', timeZone = DISPLAY_TIME_ZONE): string {
  const day = localDate(value, timeZone) ?? '';
  return locale === 'ja' ? day : day.split('-').reverse().join('-');
}
