import { describe, expect, it } from 'vitest';
import { exportFileName } from '../components/downloadFile';
import { fileTimeStamp, formatClock, formatDateTime, formatDay, localDate } from './format';
import { wallClockText } from './formats';

describe('formatDateTime', () => {
  it('shows DD-MM-YYYY hh:mm A in Melbourne time (AEST in winter, UTC+10)', () => {
    expect(formatDateTime('2024-05-31T07:30:00.000Z')).toBe('31-05-2024 05:30 PM');
    expect(formatDateTime('2024-05-30T22:05:00Z', 'en')).toBe('31-05-2024 08:05 AM');
  });

  it('follows daylight saving (AEDT in summer, UTC+11)', () => {
    expect(formatDateTime('2024-01-15T01:00:00Z')).toBe('15-01-2024 12:00 PM');
    // 2 a.m. UTC on 6 Oct 2024 is just after the clocks went forward in Melbourne.
    expect(formatDateTime('2024-10-05T16:30:00Z')).toBe('06-10-2024 03:30 AM');
  });

  it('crosses the day boundary the way Melbourne does, not UTC', () => {
    expect(formatDateTime('2024-12-31T13:30:00Z')).toBe('01-01-2025 12:30 AM');
  });

  it('puts the year first and 午前/午後 before the time in Japanese', () => {
    expect(formatDateTime('2024-05-31T07:30:00.000Z', 'ja')).toBe('2024-05-31 午後 05:30');
    expect(formatDateTime('2024-05-30T22:05:00Z', 'ja')).toBe('2024-05-31 午前 08:05');
  });

  it("writes an export's wall-clock text as the screen writes the same moment, in both languages, at every hour", () => {
    // 2024-05-31 in Melbourne is UTC+10: the wall-clock hour h is UTC hour h - 10.
    for (let hour = 0; hour < 24; hour++)
      for (const minute of [0, 7, 59]) {
        const wall = `2024-05-31T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00`;
        const instant = new Date(Date.UTC(2024, 4, 31, hour - 10, minute));
        for (const lang of ['en', 'ja'] as const) expect(wallClockText(wall, lang)).toBe(formatDateTime(instant, lang));
      }
    expect(wallClockText('2026-12-01T10:36:00', 'ja')).toBe('2026-12-01 午前 10:36');
    expect(wallClockText('2026-12-01T00:05:00', 'en')).toBe('01-12-2026 12:05 AM');
  });

  it('accepts Date objects and epoch milliseconds', () => {
    expect(formatDateTime(new Date('2024-05-31T07:30:00Z'))).toBe('31-05-2024 05:30 PM');
    expect(formatDateTime(Date.UTC(2024, 4, 31, 7, 30))).toBe('31-05-2024 05:30 PM');
  });

  it('falls back to English for an unknown locale and shows nothing for no or a bad date', () => {
    expect(formatDateTime('2024-05-31T07:30:00Z', 'fr')).toBe('31-05-2024 05:30 PM');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('')).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('does not leak the Japanese locale into later English calls', () => {
    formatDateTime('2024-05-31T07:30:00Z', 'ja');
    expect(formatDateTime('2024-05-31T07:30:00Z', 'en')).toBe('31-05-2024 05:30 PM');
  });
});

describe('formatClock', () => {
  it('gives the Melbourne clock time whatever the machine’s zone, in both languages', () => {
    // 08:51 UTC on 29 November is 19:51 in Melbourne (daylight saving, UTC+11).
    expect(formatClock('2026-11-29T08:51:00Z')).toBe('07:51 PM');
    expect(formatClock('2026-11-29T08:51:00Z', 'ja')).toBe('午後 07:51');
    expect(formatClock(null)).toBe('');
  });
});

describe('localDate', () => {
  it('is the Melbourne calendar day of an instant', () => {
    expect(localDate('2024-05-31T15:00:00Z')).toBe('2024-06-01');
    expect(localDate('2024-05-31T13:59:59Z')).toBe('2024-05-31');
    expect(localDate(null)).toBeNull();
  });
});

describe('fileTimeStamp', () => {
  it("stamps an export's file name with the Melbourne time, not the browser's", () => {
    // A browser in London: its own clock must not show through.
    const zone = process.env.TZ;
    process.env.TZ = 'Europe/London';
    try {
      // 22:39 UTC on 29 November is 09:39 on 30 November in Melbourne (daylight time, UTC+11).
      expect(fileTimeStamp('2026-11-29T22:39:00Z')).toBe('20261130-0939');
      expect(exportFileName('scans', 'csv', new Date('2026-11-29T22:39:00Z'))).toBe('scans-20261130-0939.csv');
      // Winter: UTC+10.
      expect(fileTimeStamp('2026-06-30T14:05:00Z')).toBe('20260701-0005');
      expect(fileTimeStamp(null)).toBe('');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe('formatDay', () => {
  it('writes the Melbourne day DD-MM-YYYY, year first in Japanese', () => {
    expect(formatDay('2024-05-31T15:00:00Z')).toBe('01-06-2024');
    expect(formatDay('2024-05-31T15:00:00Z', 'ja')).toBe('2024-06-01');
    expect(formatDay(null)).toBe('');
  });
});

describe('one date format for screens, report and export', () => {
  // What the report wrote with Intl before it used formatDateTime: same text for every hour, midnight and noon included.
  const intl = (d: Date) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-AU', {
        timeZone: 'Australia/Melbourne',
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hour12: true,
      })
        .formatToParts(d)
        .map((x) => [x.type, x.value]),
    );
    return `${p.day}-${p.month}-${p.year} ${p.hour}:${p.minute} ${String(p.dayPeriod).toUpperCase()}`;
  };
  it('formats like the report did with Intl, in Melbourne time', () => {
    for (let h = 0; h < 48; h += 1) {
      const d = new Date(Date.UTC(2024, 3, 6, h, 7)); // across the end of daylight saving (7 April 2024)
      expect(formatDateTime(d, 'en')).toBe(intl(d));
    }
  });
});

describe('the cached zone formatter agrees with dayjs’ tz() (tz() builds an Intl formatter per call)', () => {
  it('for any instant, in several zones, both locales', async () => {
    const { default: fc } = await import('fast-check');
    const { default: dayjs } = await import('dayjs');
    const zones = ['Australia/Melbourne', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham', 'UTC'];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.constantFrom(...zones),
        fc.constantFrom('en', 'ja'),
        (at, zone, lang) => {
          const fmt = lang === 'ja' ? 'YYYY-MM-DD A hh:mm' : 'DD-MM-YYYY hh:mm A';
          expect(formatDateTime(at, lang, zone)).toBe(dayjs(at).tz(zone).locale(lang).format(fmt));
          expect(localDate(at, zone)).toBe(dayjs(at).tz(zone).format('YYYY-MM-DD'));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps years below 100 as they are', () => {
    expect(localDate('0050-06-01T12:00:00Z', 'UTC')).toBe('0050-06-01');
  });
});
