import { useRef, useState } from 'react';
import { useListContext } from 'react-admin';
import type { ListMeta } from '../../dataProvider';
import { useScanEvents } from '../../realtime';
import { useSelectedAgent, useSelectedClient, type Selection } from '../../session';
import { normaliseFilterValues } from '../../resources/shared/filterValues';
import { FILTER_KEYS } from './filters';
import { EMPTY_PAGE, liveRowsReducer, type LiveAction, type LiveContext, type LivePage, type ScanRow } from './liveRows';

const idsOf = (s: Selection) => (s === null ? null : Array.isArray(s) ? s : [s]);

/**
 * The list's server page of scans (GET scans with its paging, search and filters; the header selection travels as
 * X_SNG_* headers) with live `created` / `updated` events applied on top (liveRows.ts).
 */
export function useLiveScanRows() {
  const list = useListContext<ScanRow>();
  const { data, total, error, isPending, page, perPage, refetch } = list;
  const agent = useSelectedAgent();
  const client = useSelectedClient();

  // The server's page, with the events since it arrived; a new reply (or failure) starts again from it.
  const source: unknown = error ?? data;
  const [live, setLive] = useState<{ source: unknown; page: LivePage }>({ source: undefined, page: EMPTY_PAGE });
  let current = live;
  if (source !== undefined && source !== live.source) {
    const estimate = (list.meta as ListMeta | undefined)?.totalIsEstimate === true;
    const rows = data ?? [];
    const next: LivePage = error
      ? liveRowsReducer(live.page, { type: 'failed' })
      : liveRowsReducer(live.page, { type: 'loaded', rows, total: total ?? rows.length, estimate });
    current = { source, page: next };
    setLive(current);
  }
  const context = useRef<LiveContext>(null);
  const filters = list.filterValues as Record<string, unknown>;
  context.current = {
    page,
    perPage,
    q: typeof filters.q === 'string' ? filters.q : '',
    filters: normaliseFilterValues(FILTER_KEYS, filters),
    agents: idsOf(agent),
    clients: idsOf(client),
  };
  const apply = (action: LiveAction) => setLive((s) => ({ ...s, page: liveRowsReducer(s.page, action) }));
  useScanEvents(
    // The event carries the server's list row (server/realtime/broadcaster.ts ScanEvent), the domain's ScanItem.
    (scan) => context.current && apply({ type: 'created', scan: scan as ScanRow, context: context.current }),
    (scan) => apply({ type: 'updated', scan }),
    // Back after a drop: the page is fetched again, so scans created or changed meanwhile are not missed.
    () => void refetch(),
  );

  return { page: current.page, isPending };
}
