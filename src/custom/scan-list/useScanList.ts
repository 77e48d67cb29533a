import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import { useScanEvents } from '../../realtime';
import { useSelectedAgent, useSelectedClient, type Selection } from '../../session';
import { toListQuery, type ScanListParams } from './filters';
import { EMPTY_PAGE, liveRowsReducer, type LiveAction, type LiveContext, type LivePage, type ScanRow } from './liveRows';

const idsOf = (s: Selection) => (s === null ? null : Array.isArray(s) ? s : [s]);

/** `{items, total, total_is_estimate}` of GET scans as a page; anything else is an empty one. */
function toLivePage(reply: unknown): LivePage {
  const r = (typeof reply === 'object' && reply !== null ? reply : {}) as { items?: unknown; total?: unknown; total_is_estimate?: unknown };
  const rows = Array.isArray(r.items)
    ? (r.items as unknown[]).filter((row): row is ScanRow => typeof row === 'object' && row !== null && 'id' in row)
    : [];
  const total = Number(r.total);
  return { rows, total: Number.isFinite(total) ? total : rows.length, estimate: r.total_is_estimate === true };
}

/**
 * One server page of scans (GET scans with the list's paging, search and filters; the header selection
 * travels as X_SNG_* headers) with live `created` / `updated` events applied on top (liveRows.ts).
 */
export function useScanList(params: ScanListParams) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifyError = useNotifyError();
  const agent = useSelectedAgent();
  const client = useSelectedClient();
  const query = toListQuery(params);
  const result = useQuery({
    queryKey: ['scans', 'getList', query, agent, client],
    queryFn: () => dataProvider.send<unknown>('scan', 'scans', { query }),
    retry: false,
  });

  // The server's page, with the events since it arrived; a new reply (or failure) starts again from it.
  const source = result.isError ? result.error : result.data;
  const [live, setLive] = useState<{ source: unknown; page: LivePage }>({ source: undefined, page: EMPTY_PAGE });
  let current = live;
  if (source !== undefined && source !== live.source) {
    const page = result.isError ? liveRowsReducer(live.page, { type: 'failed' }) : toLivePage(source);
    current = { source, page };
    setLive(current);
  }
  useEffect(() => {
    if (result.error) notifyError(result.error);
  }, [result.error, notifyError]);

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
