import { type ReactNode, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Box, Breadcrumbs, Button, CircularProgress, Link, Paper, Skeleton, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LinkBase, useDataProvider, useNotify, useParams, useTranslate } from 'react-admin';
import { lazyComponent } from '../../components/lazyComponent';
import { useMountedInTransition } from '../../components/useMountedInTransition';
import { useNotifyError } from '../../components/useNotifyError';
import { useLoadError } from '../../components/useLoadError';
import type { AppDataProvider } from '../../dataProvider';
import { canChange } from '../../domain/access';
import { isAgentUser } from '../../domain/permissions';
import { mergeLiveUpdate } from '../../domain/scan-view';
import { PresenceNotice } from '../../components/PresenceNotice';
import { usePresence, useScanEvents } from '../../realtime';
import { useCurrentUser } from '../../session';
import { CarDetailsCard } from './CarDetailsCard';
import { firstPart, PartTabs, showsSketch } from './PartTabs';
import { comparisonKey } from './NewSince';
import { archDataKey, scanQuery, sketchScanNumber } from './queries';
import { useArchData } from './useArchData';
import { useScanConflict } from './useScanConflict';
import { ScanPageContext, type MailSelection, type Scan, type ScanPageState, type SelectionKind } from './context';

/**
 * The sections below the ones a reader looks at first (the damage sketch with its chips, the car): their code is
 * fetched apart, so the page's first download is what the chips need, and they render once the page has mounted,
 * through a transition React slices, so the data's arrival paints the chips without waiting for the images, the mail
 * form and the history, which appear below them.
 */
const AfterFirstPaint = ({ children }: { children: ReactNode }) => (useMountedInTransition() ? children : null);
const loadLater = () => import('./LaterSections');
const MainColumnLater = lazyComponent(loadLater, 'MainColumnLater');
const SideColumnLater = lazyComponent(loadLater, 'SideColumnLater');

const noSelection = (): MailSelection => ({ damages: new Set(), annotates: new Set(), reports: new Set() });

/**
 * /scans/{scanId} (and /scans/{scanId}/{agentId}, the agent viewer): the scan form. The frame holds the scan (one
 * query), the live updates and the mail selection; each section is its own component.
 */
export const ScanPage = () => {
  const translate = useTranslate();
  const { scanId = '', agentId } = useParams<{ scanId: string; agentId?: string }>();
  // The scan id is lower-cased.
  const id = scanId.toLowerCase();
  const user = useCurrentUser();
  // An agent id in the route makes the agent viewer; an Agent user always works as one (decision).
  const agentViewer = Boolean(agentId) || (user ? isAgentUser(user) : false);
  // Viewing and changing (docs/ARCHITECTURE.md, "Access model"): without `scan_edit` the page only shows the scan; without `quote_edit`, its quote.
  const canEditScan = canChange(user, 'scans');
  const canEditQuote = canChange(user, 'quotes');
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const [refreshing, setRefreshing] = useState(false);
  // The fields being edited, each with the scan's version when its edit began (what its save is made from): kept for
  // the page's life, read by the live-update handler and the saves (not by rendering).
  const [editing] = useState(() => new Map<string, number | undefined>());
  const [selection, setSelection] = useState<MailSelection>(noSelection);
  const query = useMemo(() => scanQuery(dataProvider, id), [dataProvider, id]);
  const key = query.queryKey;
  const { data: scan, error, refetch } = useQuery(query);

  // The car sketch's data is awaited with the scan, so the page appears whole instead of growing under the reader. It is
  // asked for beside the scan (the address holds the scan's id), not after it: the chips come a round trip sooner.
  const scanNumber = sketchScanNumber(id);
  const sketch = useArchData(scanNumber ?? 0, scanNumber !== undefined);
  const sketchFirst = scan !== undefined && showsSketch(firstPart(scan));
  const ready = scan !== undefined && !(sketchFirst && sketch.isPending);

  // 'Scan Not Found', then back to the list.
  useLoadError(error, 'app.scans.page.scan', '/scans');

  // The cached scan's version now (what a save made at this moment starts from).
  const currentVersion = useCallback(() => queryClient.getQueryData<Scan>(key)?.version, [key, queryClient]);
  const setEditing = useCallback(
    (field: string, on: boolean) => {
      if (on) editing.set(field, currentVersion());
      else editing.delete(field);
    },
    [currentVersion, editing],
  );
  // A save of these fields is made from the oldest version any of them was opened at (else the scan's version now).
  const versionFor = useCallback(
    (fields: string[]) => {
      const opened = fields.map((f) => editing.get(f)).filter((v): v is number => v !== undefined);
      return opened.length ? Math.min(...opened) : currentVersion();
    },
    [currentVersion, editing],
  );
  const setScan = useCallback(
    (update: (s: Scan) => Scan) => queryClient.setQueryData<Scan>(key, (s) => (s ? update(s) : s)),
    [key, queryClient],
  );

  // The scan and its car sketch's counts, from the server again.
  const reload = useCallback(async () => {
    const fresh = await refetch();
    if (fresh.data) await queryClient.invalidateQueries({ queryKey: archDataKey(fresh.data.id) });
    return fresh;
  }, [queryClient, refetch]);

  // The scan's current version, after a write whose reply does not carry it or a change made elsewhere, with the
  // damage counts and detections of that version (no inline edit holds them; the damage modal opens on them, and
  // would otherwise offer older counts to save at the newer version).
  const refreshVersion = useCallback(async () => {
    const current = await dataProvider.scan(id);
    setScan((s) => ({ ...s, version: current.version, measures: current.measures, damages: current.damages }));
  }, [dataProvider, id, setScan]);
  const conflicts = useScanConflict(reload);
  // Who else has this scan open for editing (only an editor says it is here).
  const editors = usePresence('scan', scan?.id ?? null, canEditScan);

  // A live update of this scan refreshes what it carries, except the fields being edited (a damage-count
  // edit elsewhere changes its totals: the sketch's counts are asked for again). The list row it carries has no
  // version: the next edit is made from the current one, while an edit already open keeps the version it began at.
  useScanEvents(
    undefined,
    (event) => {
      if (!scan || event.id !== scan.id) return;
      setScan((s) => mergeLiveUpdate(s, event, editing));
      void refreshVersion().catch(() => undefined);
      void queryClient.invalidateQueries({ queryKey: archDataKey(scan.id) });
      // The server stored the comparison with the previous scan before it published the update.
      void queryClient.invalidateQueries({ queryKey: comparisonKey(scan.id) });
    },
    () => void reload(),
  );

  const refresh = async () => {
    setRefreshing(true);
    try {
      // Ask the server to refresh the scan, then load it again.
      await dataProvider.refreshScan(id);
      await reload();
      notify('app.scans.page.refreshed', { type: 'success' });
    } catch (e) {
      notifyError(e);
    } finally {
      setRefreshing(false);
    }
  };

  const state = useMemo<ScanPageState | null>(
    () =>
      scan && ready
        ? {
            scan,
            id,
            agentViewer,
            agentId: agentId ?? (agentViewer ? String(scan.agent_id) : null),
            canEditScan,
            canEditQuote,
            setScan,
            reload,
            setEditing,
            versionFor,
            refreshVersion,
            caughtConflict: conflicts.caught,
            selection,
            toggleSelected: (kind: SelectionKind, item: number | string) =>
              setSelection((s) => {
                const next = new Set<number | string>(s[kind]);
                if (next.has(item)) next.delete(item);
                else next.add(item);
                return { ...s, [kind]: next };
              }),
            clearSelection: () => setSelection(noSelection()),
          }
        : null,
    [
      agentId,
      agentViewer,
      canEditQuote,
      canEditScan,
      conflicts.caught,
      id,
      ready,
      refreshVersion,
      reload,
      scan,
      selection,
      setScan,
      setEditing,
      versionFor,
    ],
  );

  // A reply renders synchronously (react-query's store): the sections first appear in a transition React can pause,
  // so the scan's arrival is not one long task. Once shown, they follow the state at once (a ticked box stays ticked).
  const shown = useDeferredValue(state) ? state : null;

  return (
    <Box sx={{ minWidth: 0, maxWidth: '100%' }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 2 }}>
        <Breadcrumbs aria-label={translate('app.crud.breadcrumb')} separator=">">
          <Link component={LinkBase} to="/scans" underline="hover" color="inherit">
            {translate('app.scans.title')}
          </Link>
          <Typography color="text.primary" component="h1" variant="h6">
            {translate('app.scans.page.breadcrumb')}
          </Typography>
        </Breadcrumbs>
        {id && canEditScan && (
          <Button
            variant="outlined"
            onClick={() => void refresh()}
            disabled={refreshing || !scan}
            startIcon={refreshing ? <CircularProgress size={16} color="inherit" /> : <RefreshIcon />}
          >
            {translate('app.scans.page.refresh')}
          </Button>
        )}
      </Box>
      {!error && !shown && <LoadingFrame />}
      <Box sx={{ '&:not(:empty)': { mb: 2 } }}>
        <PresenceNotice names={editors} record="scan" />
      </Box>
      {conflicts.dialog}
      {shown && (
        <ScanPageContext.Provider value={shown}>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 2fr) minmax(300px, 1fr)' },
              alignItems: 'start',
            }}
          >
            <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
              <PartTabs />
              <AfterFirstPaint>
                <MainColumnLater />
              </AfterFirstPaint>
            </Box>
            <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
              <CarDetailsCard />
              <AfterFirstPaint>
                <SideColumnLater />
              </AfterFirstPaint>
            </Box>
          </Box>
        </ScanPageContext.Provider>
      )}
    </Box>
  );
};

// A screen high, so the layout's footer is below the first screen before the page arrives, as it is after.
const LoadingFrame = () => (
  <Box
    sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: '2fr 1fr' }, alignItems: 'start', minHeight: '100vh' }}
  >
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Skeleton variant="rectangular" height={320} />
    </Paper>
    <Paper variant="outlined" sx={{ p: 2 }}>
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} variant="text" sx={{ my: 0.75 }} />
      ))}
    </Paper>
  </Box>
);
