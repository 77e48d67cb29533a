import { lazyPage } from '../../components/lazyPage';

/** The scan page (spec 2 §2): permission `scan`; `agentPath` is the agent viewer (spec 2 §1, §6: an agent id in the route). */
export const path = '/scans/:scanId';
export const agentPath = '/scans/:scanId/:agentId';
export const permission = 'scan';
export const ScanPage = lazyPage(() => import('./ScanPage'), 'ScanPage');
