import { describe, expect, it } from 'vitest';
import { EMPTY_FILTERS, toListQuery } from './filters';

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

  it('never sends a page below 1', () => {
    expect(toListQuery({ page: 0, perPage: 10, q: '', filters: EMPTY_FILTERS }).page).toBe(1);
  });
});
