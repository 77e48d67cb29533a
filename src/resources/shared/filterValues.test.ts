import { describe, expect, it } from 'vitest';
import { emptyFilters, filterQuery, hasAnyValue, normaliseFilterValues } from './filterValues';

const KEYS = ['ts', 'te', 'status', 'type', 'client_id'] as const;
const EMPTY = emptyFilters(KEYS);

describe('list filter values', () => {
  it('enables Search only when a value is set', () => {
    expect(hasAnyValue(KEYS, EMPTY)).toBe(false);
    expect(hasAnyValue(KEYS, { ...EMPTY, type: 'tire' })).toBe(true);
    expect(hasAnyValue(KEYS, { ...EMPTY, te: '2024-05-01' })).toBe(true);
  });

  it('keeps only known, well-formed values from storage and swaps a backwards range', () => {
    expect(normaliseFilterValues(KEYS, { client_id: 4, status: ' ready ', ts: 'yesterday' })).toEqual({
      ...EMPTY,
      client_id: '4',
      status: 'ready',
    });
    expect(normaliseFilterValues(KEYS, { ts: '2026-05-09', te: '2026-05-01' })).toEqual({ ...EMPTY, ts: '2026-05-01', te: '2026-05-09' });
    expect(normaliseFilterValues(KEYS, null)).toEqual(EMPTY);
  });

  it('sends the trimmed search and the values set, without paging', () => {
    expect(filterQuery(KEYS, ' corolla ', { ...EMPTY, client_id: '2', status: 'uploaded' })).toEqual({
      q: 'corolla',
      client_id: '2',
      status: 'uploaded',
    });
    expect(filterQuery(KEYS, ' ', EMPTY)).toEqual({});
  });

  it('allows an open-ended date range and swaps one typed backwards', () => {
    expect(filterQuery(KEYS, '', { ...EMPTY, ts: '2024-05-10' })).toEqual({ ts: '2024-05-10' });
    expect(filterQuery(KEYS, '', { ...EMPTY, ts: '2024-05-31', te: '2024-05-01' })).toEqual({ ts: '2024-05-01', te: '2024-05-31' });
  });
});
