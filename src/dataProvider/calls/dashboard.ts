import type { AgentStatisticsRow, ApprovalStatistics, LocationStatisticsRow } from '../../domain/dashboard';
import type { Request } from '../http';

type StatisticsQuery = Record<string, string>;

/** The dashboard's statistics on the scan service, and its approval figures on the quote service, for the dashboard's filter query. */
export const dashboardCalls = (request: Request) => ({
  statisticsByAgent: (query: StatisticsQuery) => request<AgentStatisticsRow[]>('scan', 'scans/agent-statistics', { query }),
  statisticsByLocation: (query: StatisticsQuery) => request<LocationStatisticsRow[]>('scan', 'scans/location-statistics', { query }),
  approvalStatistics: (query: StatisticsQuery) => request<ApprovalStatistics>('quote', 'quotes/approval-statistics', { query }),
});
