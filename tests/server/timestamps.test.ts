import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { defaultTimestamptz as postgresDate, parseTimestamptz } from '../../server/db/timestamps';
import { createTestContext, type TestContext } from './helper';

describe('timestamptz parser (the fast path beside pg’s default)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.app.close());

  it('reads what PostgreSQL prints, in every session time zone, to the same instant as pg’s default parser', async () => {
    const zones = ['UTC', 'Australia/Melbourne', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham', 'Europe/Amsterdam'];
    const instants = [
      '2026-11-24T18:31:59.986123Z',
      '2026-04-05T02:30:00Z',
      '1999-12-31T23:59:59.999999Z',
      '2000-02-29T12:00:00.5Z',
      '1937-07-01T00:00:00.000001Z', // Amsterdam's +00:19:32 offset then: printed with seconds
      '2026-01-01T00:00:00Z',
    ];
    await t.db.connection().execute(async (db) => {
      for (const zone of zones) {
        await sql`select set_config('TimeZone', ${zone}, false)`.execute(db);
        for (const at of instants) {
          const r = await sql<{ text: string; ms: number }>`select ${at}::timestamptz::text as text,
            floor(extract(epoch from ${at}::timestamptz) * 1000)::float8 as ms`.execute(db);
          const { text, ms } = r.rows[0];
          expect(parseTimestamptz(text).getTime(), `${zone} ${text}`).toBe(ms);
          expect(parseTimestamptz(text).getTime(), `${zone} ${text}`).toBe(postgresDate(text).getTime());
        }
      }
    });
  });

  it('agrees with the exact instant for generated dates, offsets and fractions', () => {
    const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 999 }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        fc.constantFrom(0, 1, 2, 3, 4, 5, 6),
        (date, micros, offsetMinutes, digits) => {
          const local = new Date(date.getTime() + offsetMinutes * 60_000);
          const fraction = `${pad(local.getUTCMilliseconds(), 3)}${pad(micros, 3)}`.slice(0, digits);
          const offset = `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.trunc(offsetMinutes / 60))}${offsetMinutes % 60 ? `:${pad(offsetMinutes % 60)}` : ''}`;
          const text = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${digits ? `.${fraction}` : ''}${offset}`;
          const keptMs = digits ? Number(fraction.padEnd(3, '0').slice(0, 3)) : 0;
          expect(parseTimestamptz(text).getTime()).toBe(date.getTime() - local.getUTCMilliseconds() + keptMs);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('leaves what it does not read to pg’s default parser', () => {
    expect(parseTimestamptz('infinity')).toBe(postgresDate('infinity'));
    expect(parseTimestamptz('0099-01-01 00:00:00+00').getTime()).toBe(postgresDate('0099-01-01 00:00:00+00').getTime());
    expect(parseTimestamptz('2026-01-01 00:00:00+00 BC').getTime()).toBe(postgresDate('2026-01-01 00:00:00+00 BC').getTime());
  });

  it('is the parser the app’s database uses', () => {
    expect(postgresDate).not.toBe(parseTimestamptz);
    expect(pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ)).toBe(parseTimestamptz);
  });
});
