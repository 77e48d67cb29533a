import { describe, expect, it } from 'vitest';
import { canSearch, countsOnScreen, EMPTY_DASHBOARD_FILTERS, melbourneToday, statisticsQuery } from './filters';

const f = (over: Partial<typeof EMPTY_DASHBOARD_FILTERS>) => ({ ...EMPTY_DASHBOARD_FILTERS, ...over });

describe('dashboard filters', () => {
  it('enables Search only with something set, and a date filter only with both dates', () => {
    expect(canSearch(EMPTY_DASHBOARD_FILTERS)).toBe(false);
    expect(canSearch(f({ agent_id: '3' }))).toBe(true);
    expect(canSearch(f({ location_id: '1' }))).toBe(true);
    expect(canSearch(f({ ts: '2026-11-01' }))).toBe(false);
    expect(canSearch(f({ agent_id: '3', ts: '2026-11-01' }))).toBe(false);
    expect(canSearch(f({ ts: '2026-11-01', td: '2026-11-05' }))).toBe(true);
  });

  it("asks for today's Melbourne date when no range is applied", () => {
    expect(statisticsQuery(EMPTY_DASHBOARD_FILTERS, '2026-11-25')).toEqual({ ts: '2026-11-25', td: '2026-11-25' });
    expect(statisticsQuery(f({ client_id: '2', ts: '2026-10-01', td: '2026-10-31' }), '2026-11-25')).toEqual({
      client_id: '2',
      ts: '2026-10-01',
      td: '2026-10-31',
    });
    // 2026-11-24 14:00 UTC is already the 25th in Melbourne (UTC+11).
    expect(melbourneToday(new Date('2026-11-24T14:00:00Z'))).toBe('2026-11-25');
  });

  it('reloads only for a scan inside the selection, the filters and the days shown', () => {
    const query = { agent_id: '2', ts: '2026-11-25', td: '2026-11-25' };
    const all = { agents: null, clients: null };
    const scan = { agent_id: 2, client_id: 5, location_id: 7, timestamp: '2026-11-24T22:00:00Z' };
    expect(countsOnScreen(scan, query, all)).toBe(true);
    expect(countsOnScreen({ ...scan, agent_id: 3 }, query, all)).toBe(false);
    // 2026-11-24 12:00 UTC is the 24th in Melbourne.
    expect(countsOnScreen({ ...scan, timestamp: '2026-11-24T12:00:00Z' }, query, all)).toBe(false);
    expect(countsOnScreen(scan, { ...query, location_id: '8' }, all)).toBe(false);
    expect(countsOnScreen(scan, query, { agents: [2], clients: [6] })).toBe(false);
    expect(countsOnScreen(scan, query, { agents: [1, 2], clients: null })).toBe(true);
  });
});
