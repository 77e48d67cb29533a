import { lazyPage } from '../../components/lazyPage';

/** A vehicle's history: permission `scan`; the server shows it through the user's scans only. */
export const path = '/vehicles/:vehicleId';
export const permission = 'scan';
export const VehiclePage = lazyPage(() => import('./VehiclePage'), 'VehiclePage');
