import { describe, expect, it } from 'vitest';
import { EMPTY_FILTERS, hasFilterValue, normaliseFilters, toExportQuery, toListQuery } from './filters';

describe('scan list query', () => {
  it('sends page and per_page alone when nothing is searched or filtered', () => {
    expect(toListQuery({ page: 1, perPage: 10, q: '', filters: EMPTY_FILTERS })).toEqual({ page: 1, per_page: 10 });
  });

  it('trims the search and drops it when blank', () => {
    expect(toListQuery({ page: 2, perPage: 25, q: '  1ab2cd ', filters: EMPTY_FILTERS })).toEqual({ page: 2, per_page: 25, q: '1ab2cd' });
    expect(toListQuery({ page: 1, perPage: 25, q: '   ', filters: EMPTY_FILTERS })).toEqual({ page: 1, per_page: 25 });
  });

  it('maps every filter to its query name and leaves blanks out', () => {
    const filters = { ts: '2024-05-01', te: '2024-05-31', status: 'ready', type: 'arch', agent_id: '3', client_id: '', location_id: '7' };
    expect(toListQuery({ page: 1, perPage: 10, q: 'toyota', filters })).toEqual({
      page: 1,
      per_page: 10,
      q: 'toyota',
      ts: '2024-05-01',
      te: '2024-05-31',
      status: 'ready',
      type: 'arch',
      agent_id: '3',
      location_id: '7',
    });
  });

  it('exports with the same filters and search, without paging', () => {
    expect(toExportQuery({ q: ' corolla ', filters: { ...EMPTY_FILTERS, client_id: '2', status: 'uploaded' } })).toEqual({
      q: 'corolla',
      client_id: '2',
      status: 'uploaded',
    });
  });

  it('allows an open-ended date range and swaps one typed backwards', () => {
    expect(toExportQuery({ q: '', filters: { ...EMPTY_FILTERS, ts: '2024-05-10' } })).toEqual({ ts: '2024-05-10' });
    expect(toExportQuery({ q: '', filters: { ...EMPTY_FILTERS, ts: '2024-05-31', te: '2024-05-01' } })).toEqual({
      ts: '2024-05-01',
      te: '2024-05-31',
    });
  });

  it('never sends a page below 1', () => {
    expect(toListQuery({ page: 0, perPage: 10, q: '', filters: EMPTY_FILTERS }).page).toBe(1);
  });
});

describe('filter values', () => {
  it('enables Search only when a value is set', () => {
    expect(hasFilterValue(EMPTY_FILTERS)).toBe(false);
    expect(hasFilterValue({ ...EMPTY_FILTERS, type: 'tire' })).toBe(true);
    expect(hasFilterValue({ ...EMPTY_FILTERS, te: '2024-05-01' })).toBe(true);
  });

  it('keeps only known, well-formed values from storage', () => {
    expect(normaliseFilters({ agent_id: 4, status: ' ready ', ts: 'yesterday' })).toEqual({
      ...EMPTY_FILTERS,
      agent_id: '4',
      status: 'ready',
    });
    expect(normaliseFilters(null)).toEqual(EMPTY_FILTERS);
  });
});
