import { describe, expect, it } from 'vitest';
import { aScan } from '../../test/builders';
import { EMPTY_FILTERS } from './filters';
import { EMPTY_PAGE, liveRowsReducer, matchesContext, sortRows, type LiveContext, type LivePage, type ScanRow } from './liveRows';

const context = (overrides: Partial<LiveContext> = {}): LiveContext => ({
  page: 1,
  perPage: 3,
  q: '',
  filters: EMPTY_FILTERS,
  agents: null,
  clients: null,
  ...overrides,
});

const loaded = (rows: ScanRow[], total = rows.length): LivePage =>
  liveRowsReducer(EMPTY_PAGE, { type: 'loaded', rows, total, estimate: false });

describe('live rows: created', () => {
  it('prepends a new scan on page 1 and counts it', () => {
    const page = loaded([aScan({ id: 2 }), aScan({ id: 1 })], 40);
    const next = liveRowsReducer(page, { type: 'created', scan: aScan({ id: 3 }), context: context() });
    expect(next.rows.map((r) => r.id)).toEqual([3, 2, 1]);
    expect(next.total).toBe(41);
  });

  it('keeps the page size: the last row drops off', () => {
    const page = loaded([aScan({ id: 3 }), aScan({ id: 2 }), aScan({ id: 1 })], 3);
    const next = liveRowsReducer(page, { type: 'created', scan: aScan({ id: 4 }), context: context({ perPage: 3 }) });
    expect(next.rows.map((r) => r.id)).toEqual([4, 3, 2]);
    expect(next.total).toBe(4);
  });

  it('on a later page only counts it: the rows stay where they are', () => {
    const page = loaded([aScan({ id: 2 })], 12);
    const next = liveRowsReducer(page, { type: 'created', scan: aScan({ id: 30 }), context: context({ page: 2 }) });
    expect(next.rows.map((r) => r.id)).toEqual([2]);
    expect(next.total).toBe(13);
  });

  it('ignores a scan the filters, the search or the header selection exclude', () => {
    const page = loaded([aScan({ id: 2 })], 1);
    const created = (c: Partial<LiveContext>, scan = aScan({ id: 9 })) =>
      liveRowsReducer(page, { type: 'created', scan, context: context(c) });
    expect(created({ filters: { ...EMPTY_FILTERS, status: 'uploaded' } })).toBe(page);
    expect(created({ filters: { ...EMPTY_FILTERS, agent_id: '4' } })).toBe(page);
    expect(created({ q: 'ford' })).toBe(page);
    expect(created({ agents: [7] })).toBe(page);
    expect(created({ clients: [2] }).rows).toHaveLength(2);
  });

  it('replaces instead of duplicating a scan already on the page', () => {
    const page = loaded([aScan({ id: 2, status: 'metadata' })], 5);
    const next = liveRowsReducer(page, { type: 'created', scan: aScan({ id: 2, status: 'ready' }), context: context() });
    expect(next.rows).toHaveLength(1);
    expect(next.rows[0].status).toBe('ready');
    expect(next.total).toBe(5);
  });

  it('keeps an estimated total an estimate', () => {
    const page = liveRowsReducer(EMPTY_PAGE, { type: 'loaded', rows: [], total: 1_000_000, estimate: true });
    const next = liveRowsReducer(page, { type: 'created', scan: aScan({ id: 1 }), context: context() });
    expect(next).toMatchObject({ total: 1_000_001, estimate: true });
  });
});

describe('live rows: updated', () => {
  it('replaces the matching row in place, keeping fields the event leaves out', () => {
    const page = loaded([aScan({ id: 3 }), aScan({ id: 2, status: 'ready', agent_name: 'Agent A' }), aScan({ id: 1 })], 3);
    const next = liveRowsReducer(page, { type: 'updated', scan: { id: 2, status: 'uploaded', model: 'Camry' } });
    expect(next.rows.map((r) => r.id)).toEqual([3, 2, 1]);
    expect(next.rows[1]).toMatchObject({ status: 'uploaded', model: 'Camry', agent_name: 'Agent A' });
    expect(next.total).toBe(3);
  });

  it('ignores a scan that is not on the page', () => {
    const page = loaded([aScan({ id: 1 })], 1);
    expect(liveRowsReducer(page, { type: 'updated', scan: aScan({ id: 99 }) })).toBe(page);
  });
});

describe('live rows: loads', () => {
  it('a failed load empties the table with total 0', () => {
    expect(liveRowsReducer(loaded([aScan()], 1), { type: 'failed' })).toEqual(EMPTY_PAGE);
  });
});

describe('matching a row against the list', () => {
  const base = { q: '', filters: EMPTY_FILTERS, agents: null, clients: null };

  it('searches as the server does: plate, make or model prefix; client or agent name anywhere', () => {
    const scan = aScan();
    expect(matchesContext(scan, { ...base, q: '1ab 2' })).toBe(true);
    expect(matchesContext(scan, { ...base, q: 'toy' })).toBe(true);
    expect(matchesContext(scan, { ...base, q: 'COROLLA' })).toBe(true);
    expect(matchesContext(scan, { ...base, q: 'cross' })).toBe(true);
    expect(matchesContext(scan, { ...base, q: 'auto scan' })).toBe(true);
    expect(matchesContext(scan, { ...base, q: 'olla' })).toBe(false);
  });

  it('reads the date range as Melbourne days, the end day included', () => {
    // 31 May 2024 17:30 in Melbourne.
    const scan = aScan({ timestamp: '2024-05-31T07:30:00Z' });
    const range = (ts: string, te: string) => matchesContext(scan, { ...base, filters: { ...EMPTY_FILTERS, ts, te } });
    expect(range('2024-05-31', '2024-05-31')).toBe(true);
    expect(range('2024-05-01', '')).toBe(true);
    expect(range('', '2024-05-30')).toBe(false);
    expect(range('2024-06-01', '')).toBe(false);
    // 23:30 on 31 May UTC is already 1 June in Melbourne.
    expect(matchesContext(aScan({ timestamp: '2024-05-31T23:30:00Z' }), { ...base, filters: { ...EMPTY_FILTERS, te: '2024-05-31' } })).toBe(
      false,
    );
  });

  it('compares status and type without regard to case, ids as text', () => {
    const scan = aScan({ status: 'ready', type: 'tire', location_id: 7 });
    expect(matchesContext(scan, { ...base, filters: { ...EMPTY_FILTERS, status: 'Ready', type: 'TIRE', location_id: '7' } })).toBe(true);
    expect(matchesContext(aScan({ client_id: null }), { ...base, filters: { ...EMPTY_FILTERS, client_id: '2' } })).toBe(false);
  });
});

describe('sorting the page', () => {
  const rows = [
    aScan({ id: 1, licensePlate: 'B2', status: 'uploaded', location_name: null }),
    aScan({ id: 2, licensePlate: 'a10', status: 'metadata', location_name: 'Yard' }),
    aScan({ id: 3, licensePlate: 'A9', status: 'ready', location_name: 'Depot' }),
  ];

  it('keeps the server order without a sort', () => {
    expect(sortRows(rows, null)).toBe(rows);
  });

  it('sorts text naturally and case-blind, both ways', () => {
    expect(sortRows(rows, { field: 'licensePlate', order: 'asc' }).map((r) => r.id)).toEqual([3, 2, 1]);
    expect(sortRows(rows, { field: 'licensePlate', order: 'desc' }).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('sorts status by its life cycle', () => {
    expect(sortRows(rows, { field: 'status', order: 'asc' }).map((r) => r.status)).toEqual(['metadata', 'ready', 'uploaded']);
  });

  it('puts blanks last in either direction', () => {
    expect(sortRows(rows, { field: 'location_name', order: 'asc' }).map((r) => r.id)).toEqual([3, 2, 1]);
    expect(sortRows(rows, { field: 'location_name', order: 'desc' }).map((r) => r.id)).toEqual([2, 3, 1]);
  });
});
