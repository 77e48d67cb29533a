import { describe, expect, it } from 'vitest';
import { defaultQuoteFilters, EMPTY_QUOTE_FILTERS } from './filters';

describe('quote list filters', () => {
  it('defaults to today through two days later, in Melbourne days', () => {
    // 23:30 UTC on 30 Jan is 10:30 on 31 Jan in Melbourne (AEDT).
    expect(defaultQuoteFilters(new Date('2026-01-30T23:30:00Z'))).toEqual({ ...EMPTY_QUOTE_FILTERS, ts: '2026-01-31', te: '2026-02-02' });
  });
});
