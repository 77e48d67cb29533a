import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider, SelectOption } from '../dataProvider';
import { useCurrentUser } from '../session';

/**
 * The `{text, value}` items of a resource's `<path>/lists` (the select lists), already
 * scoped to the user and cached for the session's screens. Asked only while someone is signed in: signing out
 * clears the cache while the screen is still mounted, which would otherwise ask again without a token (a 401).
 * `filters` narrow it by the list's filters (the sites of one agent); an empty value is no filter.
 */
export function useSelectOptions(resource: string, enabled = true, filters: Record<string, string> = {}) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const signedIn = useCurrentUser() !== null;
  const narrow = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ''));
  return useQuery<SelectOption[]>({
    queryKey: [resource, 'getSelectOptions', narrow],
    queryFn: () => dataProvider.getSelectOptions(resource, Object.keys(narrow).length ? narrow : undefined),
    staleTime: 5 * 60_000,
    enabled: enabled && signedIn,
  });
}
