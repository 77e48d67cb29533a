import { describe, expect, it } from 'vitest';
import { wheelName } from './invoice-labels';
import { normalisePlate, statusRank, tyreLabel } from './scan-codes';
import { ingestResultsBody, scanDate, scanUpdateBody } from './scans';

describe('scan rules', () => {
  it('labels tyres: FRONT on row 1, REAR on the last row, the row number between', () => {
    expect(tyreLabel(1, 2, 'L')).toBe('FRONT LEFT');
    expect(tyreLabel(2, 2, 'R')).toBe('REAR RIGHT');
    expect(tyreLabel(2, 3, 'L')).toBe('2 LEFT');
    expect(tyreLabel(3, 3, 'L')).toBe('REAR LEFT');
  });

  it("names a wheel's label in the reader's language, as the screens and documents print it", () => {
    expect(wheelName('FRONT LEFT', 'en')).toBe('FRONT LEFT');
    expect(wheelName('FRONT LEFT', 'ja')).toBe('左前輪');
    expect(wheelName('rear right', 'ja-JP')).toBe('右後輪');
    expect(wheelName(' 3 RIGHT ', 'ja')).toBe('第3軸 右');
    expect(wheelName('03 left', 'en')).toBe('3 LEFT');
    expect(wheelName('Spare', 'ja')).toBe('Spare');
  });

  it('keeps registrations upper-case without spaces or dashes, and reads typed valuations', () => {
    expect(normalisePlate(' 1ab-2cd ')).toBe('1AB2CD');
    expect(scanUpdateBody.parse({ licensePlate: 'ab 12 cd', valuation: '31,500' })).toEqual({ licensePlate: 'AB12CD', valuation: 31500 });
    // A currency sign is refused, never stripped: what is typed is what is read.
    expect(scanUpdateBody.safeParse({ valuation: '$31,500' }).success).toBe(false);
    expect(scanUpdateBody.parse({ make: '' })).toEqual({ make: undefined });
  });

  it('takes list dates as a day or a Melbourne wall-clock time', () => {
    const ts = scanDate('Start date');
    for (const ok of ['2024-05-31', '2024-05-31 17:30', '2024-05-31 17:30:00', '2024-05-31T07:30:00Z'])
      expect(ts.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['2024-02-30', '31-05-2024', 'today']) expect(ts.safeParse(bad).success, bad).toBe(false);
  });

  it('refuses list dates out of range: year, month, day, time and offset', () => {
    const ts = scanDate('Start date');
    for (const ok of ['1900-01-01', '9999-12-31 23:59:59', '2024-02-29', '2024-05-31T07:30:00+14:00'])
      expect(ts.safeParse(ok).success, ok).toBe(true);
    for (const bad of [
      '99999-01-01',
      '0000-13-45',
      '0000-01-01',
      '0099-01-01',
      '1899-12-31',
      '2023-02-29',
      '2024-05-31 24:00',
      '2024-05-31 23:60',
      '2024-05-31 23:59:60',
      '2024-05-31T07:30:00+15:00',
      '2024-05-31T07:30:00+10:75',
      '2024-05-31\u0000',
    ])
      expect(ts.safeParse(bad).success, bad).toBe(false);
  });

  it('orders statuses metadata, ready, uploaded', () => {
    expect(statusRank('metadata')).toBeLessThan(statusRank('ready'));
    expect(statusRank('ready')).toBeLessThan(statusRank('uploaded'));
  });

  it('names a bad detection by its path', () => {
    const r = ingestResultsBody.safeParse({
      damages: [{ id: 'd1', carPanel: 'roof', type: 'dents', level: 'huge', width_mm: 3, height_mm: 3 }],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['damages.0.level', 'The selected level is invalid']]);
  });
});
