import { lazyPage } from '../../components/lazyPage';

/** The scan page (spec 2 §2): permission `scan`. Until its own issue it shows the scan's details read-only. */
export const path = '/scans/:scanId';
export const permission = 'scan';
export const ScanPage = lazyPage(() => import('./ScanPage'), 'ScanPage');
