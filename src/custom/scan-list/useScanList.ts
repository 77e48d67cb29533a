import { useRef, useState } from 'react';
import { toListPage } from '../../components/list/listPage';
import { useListQuery } from '../../components/list/useListParams';
import { useScanEvents } from '../../realtime';
import { useSelectedAgent, useSelectedClient, type Selection } from '../../session';
import { toListQuery, type ScanListParams } from './filters';
import { EMPTY_PAGE, liveRowsReducer, type LiveAction, type LiveContext, type LivePage, type ScanRow } from './liveRows';

const idsOf = (s: Selection) => (s === null ? null : Array.isArray(s) ? s : [s]);

/**
 * One server page of scans (GET scans with the list's paging, search and filters; the header selection
 * travels as X_SNG_* headers) with live `created` / `updated` events applied on top (liveRows.ts).
 */
export function useScanList(params: ScanListParams) {
  const agent = useSelectedAgent();
  const client = useSelectedClient();
  const result = useListQuery('scans', 'scan', 'scans', toListQuery(params));

  // The server's page, with the events since it arrived; a new reply (or failure) starts again from it.
  const source = result.isError ? result.error : result.data;
  const [live, setLive] = useState<{ source: unknown; page: LivePage }>({ source: undefined, page: EMPTY_PAGE });
  let current = live;
  if (source !== undefined && source !== live.source) {
    const page = result.isError ? liveRowsReducer(live.page, { type: 'failed' }) : toListPage<ScanRow>(source);
    current = { source, page };
    setLive(current);
  }
  const context = useRef<LiveContext>(null);
  context.current = {
    page: params.page,
    perPage: params.perPage,
    q: params.q,
    filters: params.filters,
    agents: idsOf(agent),
    clients: idsOf(client),
  };
  const apply = (action: LiveAction) => setLive((s) => ({ ...s, page: liveRowsReducer(s.page, action) }));
  useScanEvents(
    // The event carries the server's list row (server/realtime/broadcaster.ts ScanEvent), the domain's ScanItem.
    (scan) => context.current && apply({ type: 'created', scan: scan as ScanRow, context: context.current }),
    (scan) => apply({ type: 'updated', scan }),
    // Back after a drop: the page is fetched again, so scans created or changed meanwhile are not missed.
    () => void result.refetch(),
  );

  return { page: current.page, loading: result.isPending, refetch: result.refetch };
}
