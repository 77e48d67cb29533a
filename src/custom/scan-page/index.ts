import { lazyPage, type PagePrefetch } from '../../components/lazyPage';
import { archDataQuery, scanQuery, sketchScanNumber } from './queries';

/** The scan page: permission `scan`; `agentPath` is the agent viewer (an agent id in the route). */
export const path = '/scans/:scanId';
export const agentPath = '/scans/:scanId/:agentId';
export const permission = 'scan';
export const ScanPage = lazyPage(() => import('./ScanPage'), 'ScanPage');

/** The scan and its car sketch's data, which the page waits for before it shows the chips. */
export const prefetch: PagePrefetch = ({ scanId = '' }, { queryClient, dataProvider }) => {
  const id = scanId.toLowerCase();
  void queryClient.prefetchQuery(scanQuery(dataProvider, id));
  const scanNumber = sketchScanNumber(id);
  if (scanNumber !== undefined) void queryClient.prefetchQuery(archDataQuery(dataProvider, scanNumber));
};
