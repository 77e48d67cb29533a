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

/** A scan's date and time in Melbourne for the given locale ('en' when unknown); '' for no or a bad date. */
export function formatDateTime(value: DateInput, locale = 'en', timeZone = DISPLAY_TIME_ZONE): string {
  const d = parse(value);
  if (!d) return '';
  const lang = locale in DATE_TIME_FORMATS ? locale : 'en';
  return d.tz(timeZone).locale(lang).format(DATE_TIME_FORMATS[lang]);
}

/** The calendar day ('YYYY-MM-DD') an instant falls on in Melbourne, as the list's ts/te date filters read it. */
export function localDate(value: DateInput, timeZone = DISPLAY_TIME_ZONE): string | null {
  const d = parse(value);
  return d ? d.tz(timeZone).format('YYYY-MM-DD') : null;
}
