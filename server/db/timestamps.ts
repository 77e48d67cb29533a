import pg from 'pg';

/** pg's default (postgres-date), taken before server/db/database.ts installs ours. */
export const defaultTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (s: string) => Date;
const fallback = defaultTimestamptz;

const digit = (s: string, i: number) => s.charCodeAt(i) - 48;
const two = (s: string, i: number) => digit(s, i) * 10 + digit(s, i + 1);

/**
 * `timestamptz` as PostgreSQL prints it (`2026-11-24 18:31:59.986123+00`, `…+05:30`) to a Date, without the
 * regular expressions of pg's default parser (postgres-date): a page of 25 rows has 50 of them and the parse was a
 * measurable share of a list request. Anything else (BC dates, infinity, a 5-digit year)
 * goes to the default parser.
 */
export function parseTimestamptz(s: string): Date {
  const n = s.length;
  // yyyy-mm-dd hh:mm:ss = 19 characters, then an optional fraction, then the offset ±hh[:mm[:ss]].
  if (n < 22 || s.charCodeAt(4) !== 45 || s.charCodeAt(10) !== 32 || s.charCodeAt(13) !== 58) return fallback(s);
  let i = 19;
  let ms = 0;
  if (s.charCodeAt(i) === 46) {
    // Fraction: up to 6 digits; a Date holds the first 3 (milliseconds), the rest is dropped.
    i++;
    for (let scale = 100; i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57; i++, scale /= 10) {
      if (scale >= 1) ms += digit(s, i) * scale;
    }
  }
  const sign = s.charCodeAt(i);
  if (sign !== 43 && sign !== 45) return fallback(s);
  const rest = n - i - 1;
  if (rest !== 2 && rest !== 5 && rest !== 8) return fallback(s);
  for (let k = 1; k <= rest; k++) {
    const c = s.charCodeAt(i + k);
    if (k % 3 === 0 ? c !== 58 : c < 48 || c > 57) return fallback(s); // ±hh:mm:ss, nothing after ('… BC')
  }
  let offset = two(s, i + 1) * 3600 + (rest >= 5 ? two(s, i + 4) * 60 : 0) + (rest === 8 ? two(s, i + 7) : 0);
  if (sign === 45) offset = -offset;
  const year = digit(s, 0) * 1000 + digit(s, 1) * 100 + two(s, 2);
  const time = Date.UTC(year, two(s, 5) - 1, two(s, 8), two(s, 11), two(s, 14), two(s, 17), ms) - offset * 1000;
  // Years 0–99 are taken by Date.UTC as 1900–1999: those and anything odd go the default way.
  if (year < 100 || Number.isNaN(time)) return fallback(s);
  return new Date(time);
}
