import { useState } from 'react';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { useWheelName } from '../../components/useWheelName';
import type { AppDataProvider } from '../../dataProvider';
import { OPTION_NAMES } from '../../domain/option-fields';
import {
  DEFAULT_TREAD_LIMITS,
  treadLimitsOf,
  treadOf,
  tyreRows,
  type TreadLimits,
  type TyreWheel,
  wheelLabelsOf,
} from '../../domain/scan-view';
import { Empty } from './Section';
import { lazyComponent } from '../../components/lazyComponent';
import { TyreRepairChoice } from './TyreRepairChoice';
import { TyreWear } from './TyreWear';
import { useScanPage } from './context';
import { imageSources } from '../../domain/images';

// recharts loads with the first graph opened.
const TyreGraphDialog = lazyComponent(() => import('./TyreGraphDialog'), 'TyreGraphDialog');

/** A wheel's card is the page's width on a phone and half of it from the small breakpoint up. */
const TYRE_SIZES = '(max-width: 599px) 100vw, 50vw';

/** The wheel's notes: uneven wear and pressure, from either profile; NONE shows nothing. */
const notesOf = (wheel: TyreWheel) => {
  const of = (k: 'eatenTire' | 'pressureTire') => [
    ...new Set([wheel.inner, wheel.outer].map((t) => t?.conclusionDescription[k]).filter((v): v is string => !!v && v !== 'NONE')),
  ];
  return { eaten: of('eatenTire'), pressure: of('pressureTire') };
};

/** The tread limits from the application settings; the defaults until they arrive or when they cannot be read. */
function useTreadLimits(): TreadLimits {
  const dataProvider = useDataProvider<AppDataProvider>();
  const names = [OPTION_NAMES.TYRE_LEGAL_MIN_MM, OPTION_NAMES.TYRE_RECOMMENDED_MIN_MM];
  const { data } = useQuery({
    queryKey: ['options', 'search', ...names],
    queryFn: () => dataProvider.searchOptions(names),
    staleTime: 5 * 60_000,
  });
  if (!data) return DEFAULT_TREAD_LIMITS;
  return treadLimitsOf(Object.fromEntries(data.map((o) => [o.option_name, o.option_value])));
}

/** Colour and wording of a tread status: red under the legal minimum, amber under the recommended one. */
const TREAD_COLOR = { illegal: 'error.main', replace_soon: 'warning.dark', ok: 'success.dark' } as const;

/** The wheel's shallowest tread in mm and its status against the limits, in words and colour. */
const TreadDepth = ({ wheel, limits }: { wheel: TyreWheel; limits: TreadLimits }) => {
  const translate = useTranslate();
  const tread = treadOf(wheel, limits);
  if (!tread) return null;
  const mm = (n: number) => n.toFixed(1);
  return (
    <Box
      data-testid="tread-depth"
      data-status={tread.status}
      sx={{ mt: 1, pl: 1, borderLeft: 4, borderColor: TREAD_COLOR[tread.status], display: 'grid', gap: 0.25 }}
    >
      <Typography variant="body2">{translate('app.scanPage.tire.min_depth', { depth: mm(tread.min) })}</Typography>
      <Typography variant="body2" sx={{ color: TREAD_COLOR[tread.status], fontWeight: 500 }}>
        {translate(`app.scanPage.tire.tread.${tread.status}`, { legal: mm(limits.legal), recommended: mm(limits.recommended) })}
      </Typography>
    </Box>
  );
};

const WheelCard = ({
  wheel,
  row,
  direction,
  limits,
  onGraph,
  first,
}: {
  wheel: TyreWheel;
  row: number;
  direction: 'L' | 'R';
  limits: TreadLimits;
  onGraph: () => void;
  /** On the first axle: its pictures are on screen when the tab opens, and the left one is the tab's largest. */
  first: boolean;
}) => {
  const translate = useTranslate();
  const { agentViewer } = useScanPage();
  const t = (k: string, args?: Record<string, unknown>) => translate(`app.scanPage.tire.${k}`, args);
  const wheelName = useWheelName();
  const label = wheelName(wheel.label);
  const any = wheel.inner ?? wheel.outer;
  const notes = notesOf(wheel);
  return (
    <Card variant="outlined" sx={{ minWidth: 0 }}>
      <CardContent>
        <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          {label}
        </Typography>
        <TreadDepth wheel={wheel} limits={limits} />
        {!any ? (
          <Empty>{t('no_data')}</Empty>
        ) : (
          <>
            {any.imageFileUrl && (
              <Box
                component="img"
                {...imageSources(any.imageFileUrl, TYRE_SIZES)}
                alt={t('left_image', { label })}
                {...(!first ? { loading: 'lazy' as const } : direction === 'L' ? { fetchPriority: 'high' as const } : {})}
                decoding="async"
                sx={{ width: '100%', height: 160, objectFit: 'contain', display: 'block', bgcolor: 'grey.100' }}
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
              <TyreRepairChoice row={row} direction={direction} label={label} />
            ) : (
              <>
                {/* The normal viewer's Scan Image section and tyre graph. */}
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
                  {t('scan_image')}
                </Typography>
                {any.measurementImageUrl ? (
                  <Box
                    component="img"
                    {...imageSources(any.measurementImageUrl, TYRE_SIZES)}
                    alt={t('measurement_image', { label })}
                    loading="lazy"
                    decoding="async"
                    sx={{ width: '100%', height: 140, objectFit: 'contain', display: 'block' }}
                  />
                ) : (
                  <Empty>{t('no_data')}</Empty>
                )}
                <Button
                  size="small"
                  startIcon={<ShowChartIcon />}
                  onClick={onGraph}
                  sx={{ mt: 1 }}
                  aria-label={`${t('tyre_graph')}: ${label}`}
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
  const limits = useTreadLimits();
  const rows = tyreRows(scan.data);
  if (rows.length === 0) return <Empty>{translate('app.scanPage.tire.scan_not_detected')}</Empty>;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {rows.map((r, index) => (
        <Box key={r.row} sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
          <WheelCard wheel={r.left} row={r.row} direction="L" limits={limits} onGraph={() => setGraph(r.left)} first={index === 0} />
          <WheelCard wheel={r.right} row={r.row} direction="R" limits={limits} onGraph={() => setGraph(r.right)} first={index === 0} />
        </Box>
      ))}
      <TyreWear scanId={scan.id} labels={wheelLabelsOf(rows)} />
      {graph && <TyreGraphDialog wheel={graph} onClose={() => setGraph(null)} />}
    </Box>
  );
};
