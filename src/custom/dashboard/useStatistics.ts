import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { useScanEvents } from '../../realtime';
import type { Selection } from '../../session';
import { countsOnScreen, type ScanEventFields } from './filters';

/** Live events arriving close together (a device, the simulator) reload the charts once. */
export const LIVE_RELOAD_MS = 1000;

/**
 * Both statistics for the query (the header selection travels as X_SNG_* headers and is part of the key, so a new
 * selection, or react-admin's refresh after it, loads them again). A failed load is logged only.
 */
export function useStatistics(query: Record<string, string>, agent: Selection, client: Selection) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const agents = useQuery({
    queryKey: ['scans', 'agent-statistics', query, agent, client],
    queryFn: () => dataProvider.statisticsByAgent(query),
    retry: false,
  });
  const locations = useQuery({
    queryKey: ['scans', 'location-statistics', query, agent, client],
    queryFn: () => dataProvider.statisticsByLocation(query),
    retry: false,
  });
  useEffect(() => {
    for (const e of [agents.error, locations.error]) if (e) console.error('Failed to load the dashboard statistics', e);
  }, [agents.error, locations.error]);
  return { agents, locations };
}

const idsOf = (s: Selection) => (s === null ? null : Array.isArray(s) ? s : [s]);

/**
 * Listens on the scan channel (mounted only for holders of `scan`, who may subscribe) and calls `reload` once per
 * burst when a created or changed scan falls inside what the charts show.
 */
export function useLiveStatistics(query: Record<string, string>, agent: Selection, client: Selection, reload: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ query, agent, client, reload });
  useEffect(() => {
    latest.current = { query, agent, client, reload };
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const onScan = (scan: ScanEventFields) => {
    const { query: q, agent: a, client: c } = latest.current;
    if (!countsOnScreen(scan, q, { agents: idsOf(a), clients: idsOf(c) })) return;
    timer.current ??= setTimeout(() => {
      timer.current = null;
      latest.current.reload();
    }, LIVE_RELOAD_MS);
  };
  useScanEvents(onScan, onScan, () => latest.current.reload());
}
