import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider, SelectOption } from '../dataProvider';
import { useCurrentUser } from '../session';

/**
 * The `{text, value}` items of a resource's `<path>/lists` (the select lists), already
 * scoped to the user and cached for the session's screens. Asked only while someone is signed in: signing out
 * clears the cache while the screen is still mounted, which would otherwise ask again without a token (a 401).
 */
export function useSelectOptions(resource: string, enabled = true) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const signedIn = useCurrentUser() !== null;
  return useQuery<SelectOption[]>({
    queryKey: [resource, 'getSelectOptions'],
    queryFn: () => dataProvider.getSelectOptions(resource),
    staleTime: 5 * 60_000,
    enabled: enabled && signedIn,
  });
}
