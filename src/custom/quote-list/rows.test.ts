import { describe, expect, it } from 'vitest';
import { sortQuoteRows, type QuoteRow } from './rows';

const row = (over: Partial<QuoteRow> & Pick<QuoteRow, 'id'>): QuoteRow => ({
  scan_id: 1,
  client_id: 2,
  client_name: 'Southern Cross Insurance',
  agent_id: 3,
  agent_name: 'Melbourne Auto Scan',
  type: 'arch',
  status: 'draft',
  revision: 0,
  location_state: 'VIC',
  sub_total: 0,
  tax: 0,
  updated_at: '2026-05-01T00:00:00.000Z',
  created_at: '2026-05-01T00:00:00.000Z',
  licensePlate: 'ABC',
  pdr: 0,
  conventional: 0,
  replacement: 0,
  p2p: 0,
  paint: 0,
  tyre: 0,
  product: 0,
  tax_percent: 10,
  grant_total: 0,
  currency: '$',
  pdf: null,
  ...over,
});

describe('quote rows', () => {
  const rows = [
    row({ id: 1, grant_total: 9.5, licensePlate: 'b10', created_at: '2026-05-02T00:00:00Z' }),
    row({ id: 2, grant_total: 100, licensePlate: 'B9', created_at: '2026-05-01T00:00:00Z' }),
    row({ id: 3, grant_total: 20, licensePlate: null, created_at: '2026-05-03T00:00:00Z' }),
  ];

  it('sorts amounts as numbers, dates by time, registrations naturally with blanks last', () => {
    expect(sortQuoteRows(rows, { field: 'grant_total', order: 'asc' }).map((r) => r.id)).toEqual([1, 3, 2]);
    expect(sortQuoteRows(rows, { field: 'grant_total', order: 'desc' }).map((r) => r.id)).toEqual([2, 3, 1]);
    expect(sortQuoteRows(rows, { field: 'created_at', order: 'asc' }).map((r) => r.id)).toEqual([2, 1, 3]);
    expect(sortQuoteRows(rows, { field: 'licensePlate', order: 'asc' }).map((r) => r.id)).toEqual([2, 1, 3]);
    expect(sortQuoteRows(rows, { field: 'licensePlate', order: 'desc' }).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(sortQuoteRows(rows, null)).toEqual(rows);
  });
});
