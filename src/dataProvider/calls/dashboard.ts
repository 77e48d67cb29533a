import type { AgentStatisticsRow, LocationStatisticsRow } from '../../domain/dashboard';
import type { Request } from '../http';

type StatisticsQuery = Record<string, string>;

/** The dashboard's statistics on the scan service, for the dashboard's filter query. */
export const dashboardCalls = (request: Request) => ({
  statisticsByAgent: (query: StatisticsQuery) => request<AgentStatisticsRow[]>('scan', 'scans/agent-statistics', { query }),
  statisticsByLocation: (query: StatisticsQuery) => request<LocationStatisticsRow[]>('scan', 'scans/location-statistics', { query }),
});
