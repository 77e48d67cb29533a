import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { useWheelName } from '../../components/useWheelName';
import { formatDay } from '../../domain/format';
import { wheelLabels, wheelOrder } from '../../domain/vehicle-view';
import type { VehicleDetail } from '../../domain/vehicles';
import { Empty, Section } from '../scan-page/Section';

type Wheel = VehicleDetail['tyres'][number];

// One decimal at least, as the scan page writes depths ('4.0 mm' beside '2.3 mm'); a rate may need two.
const mm = (n: number, locale: string) => n.toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 2 });

/** The wheel's wear rate and projected date, printed as an estimate with the readings it rests on. */
const Projection = ({ wheel, legalMin }: { wheel: Wheel; legalMin: number }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const t = (key: string, options?: object) => translate(`app.vehicles.page.${key}`, options);
  const p = wheel.projection;
  if (!p) return <>{t('no_projection')}</>;
  const rate = t(`rate_${p.unit}`, { mm: mm(p.rateMm, locale) });
  const basis = t('projection_basis', {
    smart_count: p.readings.length,
    readings: p.readings.map((r) => `${formatDay(r.at, locale)} ${mm(r.depthMm, locale)} mm`).join(translate('app.scanPage.new_separator')),
  });
  return (
    <>
      <Box component="span" sx={{ display: 'block' }}>
        {p.projectedAt
          ? t('projected', { min: mm(legalMin, locale), date: formatDay(`${p.projectedAt}T12:00:00Z`, locale) })
          : t('not_wearing')}
      </Box>
      <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
        {rate} · {basis}
      </Box>
    </>
  );
};

/** Each wheel's lowest tread depth at each scan and its wear projection to the legal minimum (an estimate). */
export const TyreTable = ({ vehicle }: { vehicle: VehicleDetail }) => {
  const translate = useTranslate();
  const wheelName = useWheelName();
  const [locale] = useLocaleState();
  const t = (key: string, options?: object) => translate(`app.vehicles.page.${key}`, options);
  const wheels = [...vehicle.tyres].sort((a, b) => wheelOrder(a.wheel, b.wheel));
  const labels = wheelLabels(wheels.map((w) => w.wheel));
  return (
    <Section id="vehicle-tyres" title={t('tyres')}>
      {wheels.length === 0 ? (
        <Empty>{t('no_tyres')}</Empty>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('tyres_note', { min: mm(vehicle.legal_min_mm, locale) })}
          </Typography>
          <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('tyres')}>
            <Table size="small" aria-label={t('tyres')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('wheel')}</TableCell>
                  <TableCell>{t('readings')}</TableCell>
                  <TableCell>{t('projection')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {wheels.map((wheel) => (
                  <TableRow key={wheel.wheel}>
                    <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                      {wheelName(labels.get(wheel.wheel) ?? wheel.wheel)}
                    </TableCell>
                    <TableCell>
                      {wheel.readings.map((r) => (
                        <Box key={r.at} component="span" sx={{ display: 'block', whiteSpace: 'nowrap' }}>
                          {formatDay(r.at, locale)}: {mm(r.depthMm, locale)} mm
                        </Box>
                      ))}
                    </TableCell>
                    <TableCell sx={{ minWidth: 200 }}>
                      <Projection wheel={wheel} legalMin={vehicle.legal_min_mm} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        </>
      )}
    </Section>
  );
};
