import { Box, Button, Card, CardActions, CardContent, Skeleton, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTime } from '../../domain/format';
import type { ButtonSx } from './portalButtons';
import { completedScans, newScans } from './liveCards';
import type { PortalScan } from '../../domain/portal';

/** Five skeleton cards while loading. */
const SKELETON_CARDS = 5;
/** Each section's height whatever it holds (skeletons, cards or its empty text), so COMPLETED SCANS never moves. */
const GRID_HEIGHT = 400;

/**
 * NEW SCANS (has_quote false) and COMPLETED SCANS (true), each a grid of cards scrolling within 400 px. `scans` null while loading.
 */
export const PortalScanGrids = ({ agentId, scans, buttonSx }: { agentId: string; scans: PortalScan[] | null; buttonSx: ButtonSx }) => (
  <>
    <ScanSection
      agentId={agentId}
      title="app.portal.new_scans"
      empty="app.portal.no_new_scans"
      rows={scans && newScans(scans)}
      buttonSx={buttonSx}
    />
    <ScanSection
      agentId={agentId}
      title="app.portal.completed_scans"
      empty="app.portal.no_completed_scans"
      rows={scans && completedScans(scans)}
      buttonSx={buttonSx}
    />
  </>
);

const ScanSection = ({
  agentId,
  title,
  empty,
  rows,
  buttonSx,
}: {
  agentId: string;
  title: string;
  empty: string;
  rows: PortalScan[] | null;
  buttonSx: ButtonSx;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const id = `portal-${title.replace(/\W/g, '-')}`;
  return (
    <Box component="section" aria-labelledby={id} sx={{ mb: 3 }}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate(title)}
      </Typography>
      {rows && rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ height: GRID_HEIGHT }}>
          {translate(empty)}
        </Typography>
      ) : (
        <Box
          role="list"
          aria-busy={rows === null}
          aria-label={rows === null ? translate('app.portal.loading_scans') : translate(title)}
          // Keyboard users can scroll the grid too (it is a scroll container).
          tabIndex={0}
          sx={{
            height: GRID_HEIGHT,
            maxHeight: GRID_HEIGHT,
            // Rows as tall as their cards: in a grid of fixed height, auto rows would shrink to fit it.
            gridAutoRows: 'max-content',
            overflowY: 'auto',
            display: 'grid',
            gap: 2,
            p: 0.5,
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(240px, 100%), 1fr))',
          }}
        >
          {rows === null
            ? Array.from({ length: SKELETON_CARDS }, (_, i) => (
                // Keys no scan id can take: a card that took over a skeleton's element would move from its place.
                <Card key={`skeleton-${i}`} role="listitem" variant="outlined" data-testid="portal-skeleton">
                  <CardContent>
                    <Skeleton width="50%" />
                    <Skeleton />
                    <Skeleton />
                    <Skeleton variant="rounded" width={100} height={32} sx={{ mt: 1 }} />
                  </CardContent>
                </Card>
              ))
            : rows.map((scan) => {
                const registration = scan.licensePlate || translate('app.portal.nil');
                return (
                  <Card key={scan.id} role="listitem" variant="outlined">
                    <CardContent sx={{ pb: 0 }}>
                      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                        {translate('app.portal.car_details')}
                      </Typography>
                      <Typography variant="body2">
                        {translate('app.portal.registration')}: {registration}
                      </Typography>
                      <Typography variant="body2">
                        {translate('app.portal.scan_time')}: {formatDateTime(scan.timestamp, locale) || translate('app.portal.nil')}
                      </Typography>
                    </CardContent>
                    <CardActions sx={{ p: 2 }}>
                      <Button
                        component={RouterLink}
                        to={`/customer-portal/${encodeURIComponent(agentId)}/${scan.id}`}
                        variant="contained"
                        size="small"
                        sx={buttonSx}
                        aria-label={translate('app.portal.view_scan_of', { registration })}
                      >
                        {translate('app.portal.view_scan')}
                      </Button>
                    </CardActions>
                  </Card>
                );
              })}
        </Box>
      )}
    </Box>
  );
};
