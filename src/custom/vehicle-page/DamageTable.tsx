import { Box, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatDateTime } from '../../domain/format';
import { DAMAGE_TYPES } from '../../domain/scan-codes';
import { panelLabelOf } from '../../domain/scan-view';
import { damageTable, type DamageCell } from '../../domain/vehicle-view';
import type { VehicleDetail } from '../../domain/vehicles';
import { Empty, Section } from '../scan-page/Section';

/** A cell: 'Dents: 1 light, 2 medium' and 'Scratches: …' on their own lines; a dash for none. */
const CellText = ({ cell }: { cell: DamageCell }) => {
  const translate = useTranslate();
  const lines = DAMAGE_TYPES.filter((type) => cell[type].length > 0).map((type) =>
    translate(`app.vehicles.page.cell_${type}`, {
      levels: cell[type]
        .map((c) => translate('app.vehicles.page.level_count', { count: c.count, level: translate(`app.scanPage.level.${c.level}`) }))
        .join(translate('app.scanPage.new_separator')),
    }),
  );
  if (lines.length === 0) return <>—</>;
  return (
    <>
      {lines.map((line) => (
        <Box key={line} component="span" sx={{ display: 'block' }}>
          {line}
        </Box>
      ))}
    </>
  );
};

/** Damage per panel over time: a row per panel any scan counted, a column per scan (oldest first), counts by level. */
export const DamageTable = ({ vehicle }: { vehicle: VehicleDetail }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const t = (key: string) => translate(`app.vehicles.page.${key}`);
  const { panels, columns } = damageTable(vehicle.damage);
  const dateOf = new Map(vehicle.damage.map((d) => [d.scan_id, d.scanned_at]));
  return (
    <Section id="vehicle-damage" title={t('damage')}>
      {panels.length === 0 ? (
        <Empty>{t('no_damage')}</Empty>
      ) : (
        // A table wider than the phone scrolls sideways in its box, with the panel column kept in view.
        <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('damage')}>
          <Table size="small" aria-label={t('damage')}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper' }}>{t('panel')}</TableCell>
                {columns.map((c) => (
                  <TableCell key={c.scanId} sx={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(dateOf.get(c.scanId), locale)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {panels.map((panel, i) => (
                <TableRow key={panel}>
                  <TableCell component="th" scope="row" sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper' }}>
                    {panelLabelOf(panel)}
                  </TableCell>
                  {columns.map((c) => (
                    <TableCell key={c.scanId} sx={{ whiteSpace: 'nowrap' }}>
                      <CellText cell={c.cells[i]} />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Section>
  );
};
