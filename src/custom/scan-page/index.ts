import { lazyPage } from '../../components/lazyPage';

/** The scan page: permission `scan`; `agentPath` is the agent viewer (an agent id in the route). */
export const path = '/scans/:scanId';
export const agentPath = '/scans/:scanId/:agentId';
export const permission = 'scan';
export const ScanPage = lazyPage(() => import('./ScanPage'), 'ScanPage');
