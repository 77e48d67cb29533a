import { Box, Breadcrumbs, Link, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { LinkBase, useDataProvider, useLocaleState, useParams, useTranslate } from 'react-admin';
import { useLoadError } from '../../components/useLoadError';
import type { AppDataProvider } from '../../dataProvider';
import { formatDateTime } from '../../domain/format';
import { Section } from '../scan-page/Section';
import { DamageTable } from './DamageTable';
import { Timeline } from './Timeline';
import { TyreTable } from './TyreTable';

export const vehicleKey = (id: string) => ['vehicles', 'getOne', id];

/**
 * /vehicles/{vehicleId}: one car's history as far as the user's scans show it: the timeline of its scans and quotes,
 * the damage per panel at each scan, and each wheel's tread depths with the wear projection (an estimate).
 */
export const VehiclePage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { vehicleId = '' } = useParams<{ vehicleId: string }>();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data: vehicle, error } = useQuery({
    queryKey: vehicleKey(vehicleId),
    queryFn: () => dataProvider.vehicle(vehicleId),
    retry: false,
  });
  useLoadError(error, 'app.vehicles.page.vehicle', '/vehicles');
  const t = (key: string, options?: object) => translate(`app.vehicles.page.${key}`, options);
  const name = vehicle?.registration ?? vehicle?.vin ?? '';
  const facts = vehicle
    ? [
        [t('state'), vehicle.state],
        [t('vin'), vehicle.vin],
        [t('make_model'), [vehicle.make, vehicle.model].filter(Boolean).join(' ')],
        [t('first_seen'), formatDateTime(vehicle.first_seen, locale)],
        [t('last_seen'), formatDateTime(vehicle.last_seen, locale)],
      ]
    : [];
  return (
    <Box sx={{ minWidth: 0, maxWidth: '100%' }}>
      <Breadcrumbs aria-label={translate('app.crud.breadcrumb')} separator=">" sx={{ mb: 2 }}>
        <Link component={LinkBase} to="/vehicles" underline="hover" color="inherit">
          {translate('app.vehicles.title')}
        </Link>
        <Typography color="text.primary" component="h1" variant="h6">
          {vehicle ? t('title', { name }) : t('vehicle')}
        </Typography>
      </Breadcrumbs>
      {!vehicle && !error && <Skeleton variant="rounded" height={320} />}
      {vehicle && (
        <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
          <Section id="vehicle-details" title={t('details')}>
            <Box
              component="dl"
              sx={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 2, rowGap: 0.5, m: 0 }}
            >
              {facts.map(([label, value]) => (
                <Box key={label} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {label}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                    {value || '—'}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Section>
          <Timeline vehicle={vehicle} />
          <DamageTable vehicle={vehicle} />
          <TyreTable vehicle={vehicle} />
        </Box>
      )}
    </Box>
  );
};
