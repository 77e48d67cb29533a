import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Breadcrumbs, Button, Card, CardContent, CardHeader, CircularProgress, Link, Skeleton, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LinkBase, useDataProvider, useLocaleState, useNavigate, useNotify, useParams, useTranslate } from 'react-admin';
import { NOT_FOUND_REDIRECT_MS } from '../../config';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import { isRecordNotFound } from '../../dataProvider/errors';
import { formatDateTime } from '../../domain/format';
import { isScanStatus, isScanType } from '../../domain/scans';
import { useScanEvents } from '../../realtime';
import type { ScanDetail } from '../../domain/records';

/** The whole scan as the server sends it (the domain's record). */
type Scan = ScanDetail;

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** Spec 2 §5: valuation in whole dollars with thousands separators and a dollar sign. */
const money = (v: unknown, locale: string) => {
  const n = typeof v === 'number' ? v : Number(text(v).replace(/[^\d]/g, ''));
  return text(v) === '' || !Number.isFinite(n) ? '' : `$${Math.round(n).toLocaleString(locale === 'ja' ? 'ja-JP' : 'en-AU')}`;
};

const Detail = ({ label, children }: { label: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' }, gap: { xs: 0, sm: 2 }, py: 0.75 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }}>
        {children === '' || children === null || children === undefined ? translate('app.scans.page.not_set') : children}
      </Typography>
    </Box>
  );
};

const DetailsCard = ({ title, loading, children }: { title: string; loading: boolean; children: ReactNode }) => (
  <Card variant="outlined">
    <CardHeader title={title} slotProps={{ title: { variant: 'subtitle1', component: 'h2', sx: { fontWeight: 600 } } }} sx={{ pb: 0 }} />
    <CardContent>
      {loading ? Array.from({ length: 6 }, (_, i) => <Skeleton key={i} variant="text" sx={{ my: 0.75 }} />) : children}
    </CardContent>
  </Card>
);

/**
 * /scans/{scanId}: a minimal, read-only view of the scan's vehicle and scan details with the spec's
 * breadcrumb and Refresh, until the scan page issue brings the tabs, images and quoting.
 */
export const ScanPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { scanId = '' } = useParams<{ scanId: string }>();
  // Spec 2 §2: the scan id is lower-cased.
  const id = scanId.toLowerCase();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [refreshing, setRefreshing] = useState(false);
  const key = ['scans', 'getOne', id];
  const {
    data: scan,
    error,
    isPending,
  } = useQuery({
    queryKey: key,
    queryFn: () => dataProvider.send<Scan>('scan', `scans/${encodeURIComponent(id)}`),
    retry: false,
  });

  useEffect(() => {
    if (!error) return undefined;
    if (!isRecordNotFound(error)) {
      notifyError(error);
      return undefined;
    }
    // Spec 1 §8: 'Scan Not Found', then back to the list.
    notify('app.error.record_not_found', { type: 'error', messageArgs: { name: translate('app.scans.page.scan') } });
    timer.current = setTimeout(() => navigate('/scans'), NOT_FOUND_REDIRECT_MS);
    return () => clearTimeout(timer.current);
  }, [error, navigate, notify, notifyError, translate]);

  // Spec 2 §4: a live update of this scan refreshes what is shown.
  useScanEvents(undefined, (event) => {
    if (scan && event.id === scan.id) queryClient.setQueryData<Scan>(key, (s) => (s ? { ...s, ...event } : s));
  });

  const refresh = async () => {
    setRefreshing(true);
    try {
      const fresh = await dataProvider.send<Scan>('scan', `scans/${encodeURIComponent(id)}/refresh`, { method: 'POST' });
      queryClient.setQueryData(key, fresh);
      notify('app.scans.page.refreshed', { type: 'success' });
    } catch (e) {
      notifyError(e);
    } finally {
      setRefreshing(false);
    }
  };

  const loading = isPending || !scan;
  const field = (name: keyof Scan) => text(scan?.[name]);
  const typeLabel = isScanType(field('type')) ? translate(`app.scans.type.${field('type')}`) : field('type');
  const statusLabel = isScanStatus(field('status')) ? translate(`app.scans.status.${field('status')}`) : field('status');
  const label = (k: string) => translate(`app.scans.page.${k}`);

  return (
    <Box sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 2 }}>
        <Breadcrumbs aria-label={translate('app.crud.breadcrumb')} separator=">">
          <Link component={LinkBase} to="/scans" underline="hover" color="inherit">
            {translate('app.scans.title')}
          </Link>
          <Typography color="text.primary" component="h1" variant="h6">
            {label('breadcrumb')}
          </Typography>
        </Breadcrumbs>
        {id && (
          <Button
            variant="outlined"
            onClick={() => void refresh()}
            disabled={refreshing || !scan}
            startIcon={refreshing ? <CircularProgress size={16} color="inherit" /> : <RefreshIcon />}
          >
            {label('refresh')}
          </Button>
        )}
      </Box>
      {!error && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          <DetailsCard title={label('car_details')} loading={loading}>
            <Detail label={label('registration')}>{field('licensePlate')}</Detail>
            <Detail label={label('make')}>{field('make')}</Detail>
            <Detail label={label('model')}>{field('model')}</Detail>
            <Detail label={label('car_color')}>{field('carColor')}</Detail>
            <Detail label={label('body_type')}>{field('body_type')}</Detail>
            <Detail label={label('valuation')}>{money(scan?.valuation, locale)}</Detail>
            <Detail label={label('location_state')}>{field('location_state')}</Detail>
          </DetailsCard>
          <DetailsCard title={label('scan_details')} loading={loading}>
            <Detail label={label('scan_id')}>{field('scan_id')}</Detail>
            <Detail label={label('type')}>{typeLabel}</Detail>
            <Detail label={label('status')}>{statusLabel}</Detail>
            <Detail label={label('date_time')}>{formatDateTime(field('timestamp'), locale)}</Detail>
            <Detail label={label('client')}>{field('client_name')}</Detail>
            <Detail label={label('agent')}>{field('agent_name')}</Detail>
            <Detail label={label('location')}>{field('location_name')}</Detail>
          </DetailsCard>
        </Box>
      )}
    </Box>
  );
};
