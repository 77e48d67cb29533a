import { lazyPage } from '../../components/lazyPage';

/** The Vehicles list: permission `scan`, read-only (a vehicle is seen through the scans in scope). */
export const path = '/vehicles';
export const permission = 'scan';
export const VehicleListPage = lazyPage(() => import('./VehicleListPage'), 'VehicleListPage');
