import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider, SelectOption } from '../dataProvider';

/**
 * The `{text, value}` items of a resource's `<path>/lists` (the select lists), already
 * scoped to the user and cached for the session's screens.
 */
export function useSelectOptions(resource: string, enabled = true) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery<SelectOption[]>({
    queryKey: [resource, 'getSelectOptions'],
    queryFn: () => dataProvider.getSelectOptions(resource),
    staleTime: 5 * 60_000,
    enabled,
  });
}
