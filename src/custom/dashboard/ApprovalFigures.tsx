import { memo } from 'react';
import { Box, Paper, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import type { DurationFigures } from '../../domain/dashboard';
import { useQuoteEvents } from '../../realtime';
import type { Selection } from '../../session';

/** A duration as people read it: minutes under an hour, hours under two days, else days (one decimal at most). */
export function durationParts(seconds: number): { unit: 'minutes' | 'hours' | 'days'; n: number } {
  const round = (x: number) => Math.round(x * 10) / 10;
  if (seconds < 3600) return { unit: 'minutes', n: Math.max(0, Math.round(seconds / 60)) };
  if (seconds < 48 * 3600) return { unit: 'hours', n: round(seconds / 3600) };
  return { unit: 'days', n: round(seconds / 86400) };
}

/**
 * The dashboard's approval figures for the same filters and header selection as the charts (users holding `scan`):
 * links sent, their answers, and the median and 90th percentile from the scan and from the sending to an approval.
 */
export const ApprovalFigures = memo(function ApprovalFigures({
  query,
  agent,
  client,
}: {
  query: Record<string, string>;
  agent: Selection;
  client: Selection;
}) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data, isError, refetch } = useQuery({
    queryKey: ['quotes', 'approval-statistics', query, agent, client],
    queryFn: () => dataProvider.approvalStatistics(query),
    retry: false,
  });
  // A link sent, answered, revoked or expired elsewhere counts here without a reload.
  useQuoteEvents(() => void refetch());
  const t = (key: string, args?: Record<string, unknown>) => translate(`app.dashboard.approvals.${key}`, args);
  const duration = (seconds: number) => {
    const { unit, n } = durationParts(seconds);
    return t(unit, { n });
  };
  const times = (f: DurationFigures) =>
    f.median_seconds === null || f.p90_seconds === null
      ? t('no_times')
      : t('times', { median: duration(f.median_seconds), p90: duration(f.p90_seconds) });
  // A failed load shows nothing (the charts above say the data is not available).
  if (isError) return null;
  const counts = data
    ? ([
        ['sent', data.sent],
        ['approved', data.approved],
        ['partially_approved', data.partially_approved],
        ['declined', data.declined],
        ['expired', data.expired],
      ] as const)
    : [];
  return (
    <Paper component="section" variant="outlined" aria-labelledby="dashboard-approvals-title" sx={{ p: 2, mt: 2, minWidth: 0 }}>
      <Typography id="dashboard-approvals-title" component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {t('title')}
      </Typography>
      {!data ? (
        <Skeleton variant="rectangular" height={96} sx={{ borderRadius: 1 }} />
      ) : (
        <>
          <Box
            component="dl"
            sx={{
              m: 0,
              display: 'grid',
              gap: 1,
              gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(5, minmax(0, 1fr))' },
            }}
          >
            {counts.map(([key, n]) => (
              <Box key={key} sx={{ minWidth: 0 }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {t(key)}
                </Typography>
                <Typography component="dd" variant="h6" sx={{ m: 0 }}>
                  {n}
                </Typography>
              </Box>
            ))}
          </Box>
          <Box component="dl" sx={{ m: 0, mt: 1.5, display: 'grid', gap: 0.5 }}>
            {(['scan_to_approval', 'send_to_approval'] as const).map((key) => (
              <Box key={key} sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1 }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {t(key)}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                  {times(data[key])}
                </Typography>
              </Box>
            ))}
          </Box>
        </>
      )}
    </Paper>
  );
});
