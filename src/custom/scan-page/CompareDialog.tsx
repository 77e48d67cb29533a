import { useState } from 'react';
import { Box, MenuItem, Skeleton, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { ImageViewer } from '../../components/ImageViewer';
import type { AppDataProvider } from '../../dataProvider';
import { damageImageText } from '../../domain/damage-images';
import { formatDay } from '../../domain/format';
import type { ScanComparison } from '../../domain/vehicles';
import { DetectionImage, type Detection } from './DamageModal';
import { Empty } from './Section';
import { ViewDialog } from './ViewDialog';
import { useScanPage } from './context';

export interface ComparedPanel {
  carPanel: string;
  label: string;
}

/** One scan's close-ups of the panel, titled by its day; a click opens them in the image viewer. */
const ScanColumn = ({ title, damages, label }: { title: string; damages: Detection[] | null; label: string }) => {
  const translate = useTranslate();
  const [viewing, setViewing] = useState<number | null>(null);
  const nameOf = (d: Detection) => damageImageText(d, translate, label);
  const shown = (damages ?? []).filter((d) => d.src);
  return (
    <Box component="section" aria-label={title} sx={{ minWidth: 0 }}>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {damages === null ? (
        <Empty>{translate('app.scanPage.compare.not_available')}</Empty>
      ) : shown.length === 0 ? (
        <Empty>{translate('app.scanPage.modal.no_damage_detected')}</Empty>
      ) : (
        <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 120px), 1fr))' }}>
          {shown.map((d, i) => (
            <DetectionImage key={d.id} damage={d} name={nameOf(d)} onOpen={() => setViewing(i)} />
          ))}
        </Box>
      )}
      {viewing !== null && (
        <ImageViewer images={shown.map((d) => ({ src: d.src ?? '', alt: nameOf(d) }))} start={viewing} onClose={() => setViewing(null)} />
      )}
    </Box>
  );
};

/**
 * The two scans side by side for one panel: the vehicle's previous scan (when the user may see it) and this scan,
 * each with its close-ups of that panel. `panels` are the panels to choose from (those with new damage).
 */
export const CompareDialog = ({
  comparison,
  panels,
  initial,
  onClose,
}: {
  comparison: ScanComparison;
  panels: ComparedPanel[];
  initial: string;
  onClose: () => void;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { scan } = useScanPage();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [carPanel, setCarPanel] = useState(initial);
  const previous = useQuery({
    queryKey: ['scans', 'getOne', String(comparison.previous_scan_id)],
    queryFn: () => dataProvider.scan(comparison.previous_scan_id),
    retry: false,
  });
  const label = panels.find((p) => p.carPanel === carPanel)?.label ?? carPanel;
  const of = (damages: Detection[]) => damages.filter((d) => d.carPanel === carPanel);
  return (
    <ViewDialog id="compare-title" title={translate('app.scanPage.compare.title', { panel: label })} maxWidth="md" onClose={onClose}>
      {panels.length > 1 && (
        <TextField
          select
          size="small"
          label={translate('app.scanPage.compare.panel')}
          value={carPanel}
          onChange={(e) => setCarPanel(e.target.value)}
          sx={{ mb: 2, mt: 1, minWidth: 200 }}
        >
          {panels.map((p) => (
            <MenuItem key={p.carPanel} value={p.carPanel}>
              {p.label}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
        {previous.isPending ? (
          <Skeleton variant="rounded" height={160} />
        ) : (
          <ScanColumn
            title={translate('app.scanPage.compare.previous', { date: formatDay(comparison.previous_scanned_at, locale) })}
            damages={previous.data ? of(previous.data.damages) : null}
            label={label}
          />
        )}
        <ScanColumn
          title={translate('app.scanPage.compare.current', { date: formatDay(scan.timestamp, locale) })}
          damages={of(scan.damages)}
          label={label}
        />
      </Box>
    </ViewDialog>
  );
};
