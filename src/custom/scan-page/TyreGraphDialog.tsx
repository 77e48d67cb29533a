import { useEffect, useState } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { useTranslate } from 'react-admin';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { TYRE_AXIS_MAX, tyreChartPoints, type TyreWheel } from '../../domain/scan-view';
import { useWheelName } from '../../components/useWheelName';
import { Empty } from './Section';
import { ViewDialog } from './ViewDialog';

/** The graph loads after 1 s. */
export const GRAPH_DELAY_MS = 1000;

/** A wheel's Inner / Outer depth profile, axis 0–40, edges filled at 30. */
export const TyreGraphDialog = ({ wheel, onClose }: { wheel: TyreWheel; onClose: () => void }) => {
  const translate = useTranslate();
  const label = useWheelName()(wheel.label);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), GRAPH_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const points = tyreChartPoints(wheel.inner?.depths, wheel.outer?.depths);
  const t = (k: string) => translate(`app.scanPage.tire.${k}`);
  return (
    <ViewDialog
      id="tyre-graph-title"
      title={translate('app.scanPage.tire.graph_title', { label })}
      maxWidth="sm"
      dividers
      onClose={onClose}
    >
      {!ready ? (
        <Box sx={{ height: 260, display: 'grid', placeItems: 'center' }}>
          <CircularProgress aria-label={t('graph')} />
        </Box>
      ) : points.length === 0 ? (
        <Empty>{t('graph_not_available')}</Empty>
      ) : (
        <Box
          sx={{ width: '100%', height: 260 }}
          role="img"
          aria-label={translate('app.scanPage.tire.graph_title', { label })}
          data-testid="tyre-graph"
        >
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="x" hide />
              <YAxis
                domain={[0, TYRE_AXIS_MAX]}
                width={36}
                label={{ value: t('depth'), angle: -90, position: 'insideLeft', fontSize: 12 }}
              />
              <Tooltip />
              <Legend />
              <Line type="monotone" dataKey="inner" name={t('inner')} stroke="#0C1839" dot={false} connectNulls isAnimationActive={false} />
              <Line type="monotone" dataKey="outer" name={t('outer')} stroke="#B54054" dot={false} connectNulls isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </Box>
      )}
    </ViewDialog>
  );
};
