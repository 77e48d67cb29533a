import { Box, Card, CardContent, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { useWheelName } from '../../components/useWheelName';
import type { AppDataProvider } from '../../dataProvider';
import { formatMm, wearFigures } from '../../domain/tyre-wear';
import { wheelLabels } from '../../domain/vehicle-view';

export const tyreWearKey = (scanId: number) => ['scans', 'tyre-wear', scanId];

/**
 * The tyre tab's wear per wheel across the vehicle's scans up to this one: the lowest tread at each scan, the wear
 * rate and the day it is projected to reach the legal minimum, printed as an estimate with the readings it rests on.
 * Nothing when no wheel has a reading. Each wheel is named as the tyre cards above name it (`labels`, by wheel key
 * such as '1L'); a wheel this scan did not measure gets the tire tab's own rule for its name.
 */
export const TyreWear = ({ scanId, labels }: { scanId: number; labels: ReadonlyMap<string, string> }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`app.scanPage.tire.wear.${key}`, options);
  const wheelName = useWheelName();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data } = useQuery({ queryKey: tyreWearKey(scanId), queryFn: () => dataProvider.tyreWear(scanId) });
  if (!data?.wheels.length) return null;
  const fallback = wheelLabels(data.wheels.map((w) => w.wheel));
  return (
    <Card variant="outlined" component="section" aria-labelledby="tyre-wear-title">
      <CardContent sx={{ display: 'grid', gap: 1.5 }}>
        <Typography id="tyre-wear-title" component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t('title', { legal: formatMm(data.legal_min_mm) })}
        </Typography>
        {data.wheels.map((w) => {
          const label = wheelName(labels.get(w.wheel) ?? fallback.get(w.wheel) ?? w.wheel);
          const figures = w.projection ? wearFigures(w.projection, locale) : null;
          return (
            <Box key={w.wheel} role="group" aria-label={label} sx={{ display: 'grid', gap: 0.25 }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {label}
              </Typography>
              {figures ? (
                <>
                  <Typography variant="body2">
                    {figures.projected ? t('projected', { date: figures.projected, legal: formatMm(data.legal_min_mm) }) : t('not_wearing')}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t(figures.unit, { rate: figures.rate })}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                    {t('readings', { readings: figures.readings.join(', ') })}
                  </Typography>
                </>
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {t('too_few', { smart_count: w.readings.length })}
                </Typography>
              )}
            </Box>
          );
        })}
      </CardContent>
    </Card>
  );
};
