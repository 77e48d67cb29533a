import type { Identifier } from 'react-admin';
import type { ScanComparison, Vehicle, VehicleDetail, VehicleSort } from '../../domain/vehicles';
import type { Request } from '../http';
import { exportCall, type ExportQuery } from './exports';

export interface VehicleQuery {
  q?: string;
  sort?: VehicleSort;
  order?: 'asc' | 'desc';
  page?: number;
  per_page?: number;
}

/** The scan service's vehicle calls: the Vehicles list, the vehicle page, and the scan page's "New since" line. */
export const vehicleCalls = (request: Request) => ({
  vehicles: (query: VehicleQuery = {}) => request<{ items: Vehicle[]; total: number }>('scan', 'vehicles', { query: { ...query } }),
  /** The Vehicles list as a file (the list's search and order; `format` xlsx, else CSV): the file's url. */
  exportVehicles: (query: ExportQuery) => exportCall(request, 'scan', 'vehicles/export-vehicle-report', query),
  vehicle: (id: Identifier) => request<VehicleDetail>('scan', `vehicles/${encodeURIComponent(String(id))}`),
  /** The scan compared with its vehicle's previous scan; null when there is none. */
  scanComparison: (scanId: Identifier) => request<ScanComparison | null>('scan', `scans/${encodeURIComponent(String(scanId))}/comparison`),
});
