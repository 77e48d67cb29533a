import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { archDataQuery } from './queries';

/** The car sketch's data (`archDataQuery`), once `enabled`. */
export function useArchData(scanId: number, enabled = true) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({ ...archDataQuery(dataProvider, scanId), enabled });
}
