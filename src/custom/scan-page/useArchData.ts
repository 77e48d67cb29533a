import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';

export const archDataKey = (scanId: number) => ['scans', 'archData', scanId];

/** The car sketch's data: `GET archData/search?scan_id=` (the counts by measure and the panel groups with their panels). */
export function useArchData(scanId: number, enabled = true) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: archDataKey(scanId),
    queryFn: () => dataProvider.archData(scanId),
    enabled,
    // The page's sections share one read (a section mounting later does not ask again); the live updates and the
    // page's own saves invalidate it.
    staleTime: 60_000,
  });
}
