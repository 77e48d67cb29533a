import { describe, expect, it } from 'vitest';
import { defaultQuoteFilters, EMPTY_QUOTE_FILTERS, toQuoteListQuery } from './filters';

describe('quote list query', () => {
  it('defaults to today through two days later, in Melbourne days', () => {
    // 23:30 UTC on 30 Jan is 10:30 on 31 Jan in Melbourne (AEDT).
    expect(defaultQuoteFilters(new Date('2026-01-30T23:30:00Z'))).toEqual({ ...EMPTY_QUOTE_FILTERS, ts: '2026-01-31', te: '2026-02-02' });
  });

  it('maps the filters to their query names, trims the search and leaves blanks out', () => {
    const filters = { ts: '2026-05-01', te: '2026-05-03', type: 'arch', agent_id: '3', client_id: '', location_state: 'VIC' };
    expect(toQuoteListQuery({ page: 2, perPage: 25, q: '  1ab ', filters })).toEqual({
      page: 2,
      per_page: 25,
      q: '1ab',
      ts: '2026-05-01',
      te: '2026-05-03',
      type: 'arch',
      agent_id: '3',
      location_state: 'VIC',
    });
  });
});
