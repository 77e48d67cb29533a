import { memo, startTransition, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Box, Paper, Skeleton, Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useLocaleState, useTranslate } from 'react-admin';
import { lazyComponent } from '../../components/lazyComponent';
import { PageLoading } from '../../components/PageLoading';
import { useMountedInTransition } from '../../components/useMountedInTransition';
import { useSeen } from '../../components/useSeen';
import { STATISTICS_SERIES, type TypeCounts } from '../../domain/dashboard';
import { can } from '../../domain/permissions';
import { useCurrentUser, useSelectedAgent, useSelectedClient, type Selection } from '../../session';
import { CHART_BOX_HEIGHT, chartScrolls } from './chartSize';
import { DashboardFilter } from './DashboardFilter';
import { rangeLabel } from '../../components/dayRange';
import { EMPTY_DASHBOARD_FILTERS, melbourneToday, statisticsQuery, type DashboardFilterValues } from './filters';
import { TermsDialog } from './TermsDialog';
import { useLiveStatistics, useStatistics } from './useStatistics';
import { ApprovalFigures } from './ApprovalFigures';

/** Recharts comes with this chunk only (the dashboard's, after sign-in); its download starts with the page's code. */
const loadChart = () => import('./StatisticsChart');
void loadChart();
const StatisticsChart = lazyComponent(loadChart, 'StatisticsChart');

/** The charts appear 1000 ms after the page. */
export const CHART_DELAY_MS = 1000;

interface Row extends TypeCounts {
  name: string;
}

const NO_ROWS: Row[] = [];

interface ChartCardProps {
  id: string;
  title: string;
  rows: Row[] | undefined;
  ready: boolean;
}

/**
 * One chart in its reserved box, with its figures as a table for screen readers (and tests). Drawn once its box has
 * been on screen: on a phone the second chart is below the first screen, and each draw is a long task.
 */
const ChartCard = memo(function ChartCard({ id, title, rows, ready }: ChartCardProps) {
  const translate = useTranslate();
  const [box, seen] = useSeen<HTMLDivElement>();
  const labels = {
    arch: translate('app.dashboard.series.arch'),
    chasis: translate('app.dashboard.series.chasis'),
    tire: translate('app.dashboard.series.tire'),
  };
  const showing = ready && seen && rows !== undefined;
  // A long list scrolls inside the box: then the box is a named, focusable region, so a keyboard can scroll it.
  const scrolls = showing && chartScrolls(rows.length);
  return (
    <Paper component="section" variant="outlined" aria-labelledby={`${id}-title`} sx={{ p: 2, minWidth: 0 }}>
      <Typography id={`${id}-title`} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <Box
        ref={box}
        data-testid={`${id}-chart`}
        aria-busy={!showing}
        {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': title } : {})}
        sx={{ height: CHART_BOX_HEIGHT, overflowY: scrolls ? 'auto' : 'hidden', overflowX: 'hidden', position: 'relative' }}
      >
        {/* Once the figures are here, a box not yet seen stays empty and still (no pulsing skeleton) until scrolled to. */}
        {!ready || rows === undefined ? (
          <Skeleton variant="rectangular" height={CHART_BOX_HEIGHT} sx={{ borderRadius: 1 }} />
        ) : !seen ? null : rows.length === 0 ? (
          <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            <Typography color="text.secondary">{translate('app.dashboard.no_data')}</Typography>
          </Box>
        ) : (
          <>
            <StatisticsChart rows={rows} labels={labels} />
            <Box component="table" sx={visuallyHidden} data-testid={`${id}-table`}>
              <caption>{title}</caption>
              <thead>
                <tr>
                  <th scope="col">{translate('app.dashboard.name')}</th>
                  {STATISTICS_SERIES.map((s) => (
                    <th key={s} scope="col">
                      {labels[s]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={`${r.name}-${i}`}>
                    <th scope="row">{r.name}</th>
                    {STATISTICS_SERIES.map((s) => (
                      <td key={s}>{r[s]}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </Box>
          </>
        )}
      </Box>
    </Paper>
  );
});

/** Live updates, for holders of `scan` (who may follow the scan channel). */
const LiveStatistics = (props: { query: Record<string, string>; agent: Selection; client: Selection; reload: () => void }) => {
  useLiveStatistics(props.query, props.agent, props.client, props.reload);
  return null;
};

/**
 * The dashboard at /: the analytics title, the advance filter for holders of dashboard_statistics,
 * '{date or Today's} Scans' and the Agent's and Location's charts of the user's scope (header selection narrowing),
 * updated live; the approval figures for the same filters (holders of `scan`); the terms dialog while consent is 0.
 */
export const DashboardPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const user = useCurrentUser();
  const agent = useSelectedAgent();
  const client = useSelectedClient();
  const [applied, setApplied] = useState<DashboardFilterValues>(EMPTY_DASHBOARD_FILTERS);
  // How many charts are drawn: the first after CHART_DELAY_MS, the second in the task after (each chart's first draw
  // is one long task of recharts' own store updates; two in a row would be one twice as long, adding blocking time).
  const [drawn, setDrawn] = useState(0);
  useEffect(() => {
    void loadChart();
    const timer = setTimeout(() => startTransition(() => setDrawn(1)), CHART_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (drawn !== 1) return;
    const timer = setTimeout(() => startTransition(() => setDrawn(2)), 0);
    return () => clearTimeout(timer);
  }, [drawn]);

  const today = melbourneToday();
  const query = useMemo(() => statisticsQuery(applied, today), [applied, today]);
  const { agents, locations } = useStatistics(query, agent, client);
  const agentRows = useMemo(() => agents.data?.map((r) => ({ ...r, name: r.agent_name })), [agents.data]);
  const locationRows = useMemo(
    () => locations.data?.map((r) => ({ ...r, name: r.location_name ?? translate('app.dashboard.no_location') })),
    [locations.data, translate],
  );
  // A failed load shows the empty state (logged only).
  const rowsOf = <T,>(q: { data?: T[]; isError: boolean }, rows: Row[] | undefined) => (q.isError ? NO_ROWS : rows);
  // A reply renders synchronously (react-query's store); the charts take its rows in a transition React can pause.
  const agentCardRows = useDeferredValue(rowsOf(agents, agentRows));
  const locationCardRows = useDeferredValue(rowsOf(locations, locationRows));
  const ranged = !!(applied.ts && applied.td);
  // The page mounts within react-admin's synchronous route render; its sections are built in a transition after it.
  const mounted = useMountedInTransition();

  return (
    <>
      {mounted ? (
        <Box>
          <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
            {translate('app.dashboard.title')}
          </Typography>
          {can(user, 'dashboard_statistics') && <DashboardFilter applied={applied} onApply={setApplied} />}
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            {ranged
              ? translate('app.dashboard.scans_on', { date: rangeLabel(applied.ts, applied.td, locale) })
              : translate('app.dashboard.todays_scans')}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
            <ChartCard id="dashboard-agents" title={translate('app.dashboard.agents_chart')} rows={agentCardRows} ready={drawn >= 1} />
            <ChartCard
              id="dashboard-locations"
              title={translate('app.dashboard.locations_chart')}
              rows={locationCardRows}
              ready={drawn >= 2}
            />
          </Box>
          {can(user, 'scan') && <ApprovalFigures query={query} agent={agent} client={client} />}
          {can(user, 'scan') && (
            <LiveStatistics
              query={query}
              agent={agent}
              client={client}
              reload={() => {
                void agents.refetch();
                void locations.refetch();
              }}
            />
          )}
        </Box>
      ) : (
        <PageLoading />
      )}
      <TermsDialog />
    </>
  );
};
