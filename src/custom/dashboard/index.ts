import { lazyPage } from '../../components/lazyPage';

/** The dashboard at /: any signed-in user. Charts come with the statistics issue. */
export const path = '/';
export const DashboardPage = lazyPage(() => import('./DashboardPage'), 'DashboardPage');
