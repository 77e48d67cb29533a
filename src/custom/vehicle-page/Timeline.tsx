import { Box, Chip, Link, List, ListItem, Typography } from '@mui/material';
import { LinkBase, useLocaleState, useTranslate } from 'react-admin';
import { formatDateTime } from '../../domain/format';
import { formatMoney, toCents } from '../../domain/money';
import { newDamageText } from '../../domain/vehicle-history';
import type { VehicleDetail } from '../../domain/vehicles';
import { Empty, Section } from '../scan-page/Section';

/** The vehicle's scans, newest first, each with its counts, the damage new since the scan before it, and its quotes. */
export const Timeline = ({ vehicle }: { vehicle: VehicleDetail }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const t = (key: string, options?: object) => translate(`app.vehicles.page.${key}`, options);
  const scans = [...vehicle.scans].reverse();
  return (
    <Section id="vehicle-timeline" title={t('timeline')}>
      {scans.length === 0 && <Empty>{t('no_scans')}</Empty>}
      <List dense disablePadding aria-label={t('timeline')}>
        {scans.map((scan) => (
          <ListItem key={scan.id} divider disableGutters sx={{ display: 'block' }}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
              <Link component={LinkBase} to={`/scans/${scan.id}`} underline="hover" sx={{ fontWeight: 600 }}>
                {t('scan_link', {
                  date: formatDateTime(scan.scanned_at, locale),
                  type: translate(`app.scans.type.${scan.type}`, { _: scan.type }),
                })}
              </Link>
              <Chip size="small" variant="outlined" label={translate(`app.scans.status.${scan.status}`, { _: scan.status })} />
              {scan.has_new_damage && <Chip size="small" color="warning" label={t('new_damage')} />}
            </Box>
            <Typography variant="body2" color="text.secondary">
              {t('counts', {
                dents: t('dents', { smart_count: scan.dent_count }),
                scratches: t('scratches', { smart_count: scan.scratch_count }),
              })}
              {scan.odometer_km !== null && ` · ${t('odometer', { km: scan.odometer_km.toLocaleString(locale) })}`}
            </Typography>
            {scan.has_new_damage && (scan.differences || scan.summary) && (
              <Typography variant="body2">
                {t('new_since', { changes: scan.differences ? newDamageText(scan.differences, translate) : scan.summary })}
              </Typography>
            )}
            {scan.quotes.map((quote) => (
              <Typography key={quote.id} variant="body2">
                <Link component={LinkBase} to={`/quotes/${scan.id}`} underline="hover">
                  {t('quote', {
                    total: formatMoney(toCents(quote.grant_total), quote.currency),
                    date: formatDateTime(quote.created_at, locale),
                  })}
                </Link>
                {quote.status && ` · ${translate(`app.approval.status.${quote.status}`, { _: quote.status })}`}
                {quote.manual_check && ` · ${t('quote_check')}`}
              </Typography>
            ))}
          </ListItem>
        ))}
      </List>
    </Section>
  );
};
