import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useStore } from 'react-admin';
import { PER_PAGE_OPTIONS } from '../../config';
import type { AppDataProvider, Service } from '../../dataProvider';
import { useSelectedAgent, useSelectedClient } from '../../session';
import { useNotifyError } from '../useNotifyError';
import { normaliseFilterValues, type FilterValues, type ListParams, type ListQuery } from './filterValues';

/**
 * A filtered list's state, kept in react-admin's store under `storeKey` (cleared at logout) and checked on the way out:
 * a stored value may come from another version. `defaultFilters` is read once, when the page mounts.
 */
export function useListParams<K extends string>(storeKey: string, keys: readonly K[], defaultFilters: () => FilterValues<K>) {
  const [initial] = useState<ListParams<K>>(() => ({ page: 1, perPage: PER_PAGE_OPTIONS[0], q: '', filters: defaultFilters() }));
  const [stored, setStored] = useStore<ListParams<K>>(storeKey, initial);
  const params = useMemo<ListParams<K>>(() => {
    const s = (typeof stored === 'object' && stored !== null ? stored : initial) as Partial<ListParams<K>>;
    const perPage = PER_PAGE_OPTIONS.includes(Number(s.perPage)) ? Number(s.perPage) : initial.perPage;
    const page = Number.isSafeInteger(s.page) && Number(s.page) > 0 ? Number(s.page) : 1;
    return { page, perPage, q: typeof s.q === 'string' ? s.q : '', filters: normaliseFilterValues(keys, s.filters) };
  }, [stored, initial, keys]);
  return [params, setStored] as const;
}

/**
 * One server page of a list route (`{service}/{path}` with the list's query; the header selection travels as X_SNG_*
 * headers and is part of the cache key). A failure is told once and left in the result.
 */
export function useListQuery(resource: string, service: Service, path: string, query: ListQuery) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifyError = useNotifyError();
  const agent = useSelectedAgent();
  const client = useSelectedClient();
  const result = useQuery({
    queryKey: [resource, 'getList', query, agent, client],
    queryFn: () => dataProvider.send<unknown>(service, path, { query }),
    retry: false,
  });
  useEffect(() => {
    if (result.error) notifyError(result.error);
  }, [result.error, notifyError]);
  return result;
}
