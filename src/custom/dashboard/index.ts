import { lazyPage } from '../../components/lazyPage';

/** The dashboard at / (spec 1 §2): any signed-in user. Charts come with the statistics issue. */
export const path = '/';
export const DashboardPage = lazyPage(() => import('./DashboardPage'), 'DashboardPage');
