import { queryOptions } from '@tanstack/react-query';
import type { AppDataProvider } from '../../dataProvider';

export const archDataKey = (scanId: number) => ['scans', 'archData', scanId];

/** The scan's number in its address, the sketch's data's key: none when the address holds no scan number. */
export const sketchScanNumber = (id: string) => {
  const scanNumber = Number(id);
  return Number.isSafeInteger(scanNumber) && scanNumber > 0 ? scanNumber : undefined;
};

/**
 * The scan the page shows (`GET scans/{id}`), by its lower-cased id. Not asked again for 10 s after it arrives: the
 * page mounting just after the app's start asked for it (src/main.tsx) reads that reply; live updates and the page's
 * own saves keep it current, and Refresh asks again.
 */
export const scanQuery = (dataProvider: AppDataProvider, id: string) =>
  queryOptions({ queryKey: ['scans', 'getOne', id], queryFn: () => dataProvider.scan(id), retry: false, staleTime: 10_000 });

/**
 * The car sketch's data: `GET archData/search?scan_id=` (the counts by measure and the panel groups with their panels).
 * The page's sections share one read (a section mounting later does not ask again); the live updates and the page's
 * own saves invalidate it.
 */
export const archDataQuery = (dataProvider: AppDataProvider, scanId: number) =>
  queryOptions({ queryKey: archDataKey(scanId), queryFn: () => dataProvider.archData(scanId), staleTime: 60_000 });
