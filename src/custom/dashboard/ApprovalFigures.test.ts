import { describe, expect, it } from 'vitest';
import { durationParts } from './ApprovalFigures';

describe('durationParts', () => {
  it('reads minutes under an hour, hours under two days, else days, to one decimal', () => {
    expect(durationParts(0)).toEqual({ unit: 'minutes', n: 0 });
    expect(durationParts(45 * 60)).toEqual({ unit: 'minutes', n: 45 });
    expect(durationParts(3600)).toEqual({ unit: 'hours', n: 1 });
    expect(durationParts(8.8 * 3600)).toEqual({ unit: 'hours', n: 8.8 });
    expect(durationParts(47.96 * 3600)).toEqual({ unit: 'hours', n: 48 });
    expect(durationParts(48 * 3600)).toEqual({ unit: 'days', n: 2 });
    expect(durationParts(3.25 * 86400)).toEqual({ unit: 'days', n: 3.3 });
  });
});
