import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import type { CataloguePanel, PanelGroupView } from '../../domain/scan-view';

/**
 * The car views for the sketch: the panel groups' drawings (`GET panelGroups/positions`) and which car panel each
 * catalogue panel sits on (`POST panels/lists`, type D, with carPanel and panel_group_id). Both need only a sign-in.
 */
export function usePanelViews() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const groups = useQuery({
    queryKey: ['panelgroups', 'positions'],
    queryFn: () => dataProvider.send<PanelGroupView[]>('quote', 'panelGroups/positions'),
    staleTime: 5 * 60_000,
  });
  const panels = useQuery({
    queryKey: ['panels', 'sketch'],
    queryFn: () => dataProvider.send<CataloguePanel[]>('quote', 'panels/lists', { method: 'POST', body: { type: 'D' } }),
    staleTime: 5 * 60_000,
  });
  return { groups: groups.data ?? [], panels: panels.data ?? [], isPending: groups.isPending || panels.isPending };
}
