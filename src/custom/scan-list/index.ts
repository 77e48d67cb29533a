import { lazyPage } from '../../components/lazyPage';

/** The scan list: permission `scan`; live rows, advance filter and export make it a page of its own. */
export const path = '/scans';
export const permission = 'scan';
export const ScanListPage = lazyPage(() => import('./ScanListPage'), 'ScanListPage');
