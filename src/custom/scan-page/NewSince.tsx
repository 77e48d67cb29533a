import { useState } from 'react';
import { Alert, Button } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { formatDay } from '../../domain/format';
import { panelLabelOf } from '../../domain/scan-view';
import { newDamage, newDamageText } from '../../domain/vehicle-history';
import type { ScanComparison } from '../../domain/vehicles';
import { CompareDialog } from './CompareDialog';

export const comparisonKey = (scanId: number) => ['scans', 'comparison', scanId];

/** The scan's stored comparison with its vehicle's previous scan (null without one): the New since line and the sketch. */
export const useComparison = (scanId: number) => {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: comparisonKey(scanId), queryFn: () => dataProvider.scanComparison(scanId) });
};

/** Each panel's gained damage (all types and levels) in a comparison: the panels the sketch marks as new. */
export const gainsByPanel = (data: ScanComparison | null | undefined) => {
  const out = new Map<string, number>();
  if (!data?.has_new_damage) return out;
  for (const d of newDamage({ panels: data.differences, hasNewDamage: true })) out.set(d.carPanel, (out.get(d.carPanel) ?? 0) + d.delta);
  return out;
};

/**
 * "New since DD-MM-YYYY: Left Front Door +2 medium dents, Bonnet +1 scratch": the damage this scan has that the
 * vehicle's previous scan of its kind did not (the server's stored comparison). Nothing when there is none.
 */
export const NewSince = ({ scanId }: { scanId: number }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data } = useComparison(scanId);
  const [comparing, setComparing] = useState(false);
  if (!data?.has_new_damage) return null;
  const panels = [...gainsByPanel(data).keys()].map((carPanel) => ({ carPanel, label: panelLabelOf(carPanel) }));
  return (
    <>
      <Alert
        severity="warning"
        role="status"
        sx={{ mb: 2 }}
        action={
          <Button color="inherit" size="small" onClick={() => setComparing(true)} aria-haspopup="dialog">
            {translate('app.scanPage.compare.open')}
          </Button>
        }
      >
        {translate('app.scanPage.new_since', {
          date: formatDay(data.previous_scanned_at, locale),
          changes: newDamageText(data.differences, translate),
        })}
      </Alert>
      {comparing && <CompareDialog comparison={data} panels={panels} initial={panels[0].carPanel} onClose={() => setComparing(false)} />}
    </>
  );
};
