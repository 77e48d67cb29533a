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
  });
}
