import { useState } from 'react';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import { useTranslate } from 'react-admin';
import { tyreRows, type TyreWheel } from '../../domain/scan-view';
import { Empty } from './Section';
import { lazyComponent } from '../../components/lazyComponent';
import { TyreRepairChoice } from './TyreRepairChoice';
import { useScanPage } from './context';

// recharts loads with the first graph opened.
const TyreGraphDialog = lazyComponent(() => import('./TyreGraphDialog'), 'TyreGraphDialog');

/** The wheel's notes: uneven wear and pressure, from either profile; NONE shows nothing. */
const notesOf = (wheel: TyreWheel) => {
  const of = (k: 'eatenTire' | 'pressureTire') => [
    ...new Set([wheel.inner, wheel.outer].map((t) => t?.conclusionDescription[k]).filter((v): v is string => !!v && v !== 'NONE')),
  ];
  return { eaten: of('eatenTire'), pressure: of('pressureTire') };
};

const WheelCard = ({ wheel, row, direction, onGraph }: { wheel: TyreWheel; row: number; direction: 'L' | 'R'; onGraph: () => void }) => {
  const translate = useTranslate();
  const { agentViewer } = useScanPage();
  const t = (k: string, args?: Record<string, unknown>) => translate(`app.scanPage.tire.${k}`, args);
  const any = wheel.inner ?? wheel.outer;
  const notes = notesOf(wheel);
  return (
    <Card variant="outlined" sx={{ minWidth: 0 }}>
      <CardContent>
        <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          {wheel.label}
        </Typography>
        {!any ? (
          <Empty>{t('no_data')}</Empty>
        ) : (
          <>
            {any.imageFileUrl && (
              <Box
                component="img"
                src={any.imageFileUrl}
                alt={t('left_image', { label: wheel.label })}
                sx={{ width: '100%', maxHeight: 160, objectFit: 'contain', display: 'block', bgcolor: 'grey.100' }}
              />
            )}
            {[...notes.eaten.map((n) => t(`eaten.${n}`, { _: n })), ...notes.pressure.map((n) => t(`pressure.${n}`, { _: n }))].map(
              (note) => (
                <Typography key={note} variant="body2" sx={{ mt: 1 }}>
                  {note}
                </Typography>
              ),
            )}
            {agentViewer ? (
              <TyreRepairChoice row={row} direction={direction} label={wheel.label} />
            ) : (
              <>
                {/* The normal viewer's Scan Image section and tyre graph. */}
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
                  {t('scan_image')}
                </Typography>
                {any.measurementImageUrl ? (
                  <Box
                    component="img"
                    src={any.measurementImageUrl}
                    alt={t('measurement_image', { label: wheel.label })}
                    sx={{ width: '100%', maxHeight: 140, objectFit: 'contain', display: 'block' }}
                  />
                ) : (
                  <Empty>{t('no_data')}</Empty>
                )}
                <Button
                  size="small"
                  startIcon={<ShowChartIcon />}
                  onClick={onGraph}
                  sx={{ mt: 1 }}
                  aria-label={`${t('tyre_graph')}: ${wheel.label}`}
                >
                  {t('graph')}
                </Button>
              </>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
};

/** Tire tab: one row per axle, the left and the right wheel. */
export const TireTab = () => {
  const translate = useTranslate();
  const { scan } = useScanPage();
  const [graph, setGraph] = useState<TyreWheel | null>(null);
  const rows = tyreRows(scan.data);
  if (rows.length === 0) return <Empty>{translate('app.scanPage.tire.scan_not_detected')}</Empty>;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {rows.map((r) => (
        <Box key={r.row} sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
          <WheelCard wheel={r.left} row={r.row} direction="L" onGraph={() => setGraph(r.left)} />
          <WheelCard wheel={r.right} row={r.row} direction="R" onGraph={() => setGraph(r.right)} />
        </Box>
      ))}
      {graph && <TyreGraphDialog wheel={graph} onClose={() => setGraph(null)} />}
    </Box>
  );
};
