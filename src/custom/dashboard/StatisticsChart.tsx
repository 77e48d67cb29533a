import { startTransition, useLayoutEffect, useRef, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { STATISTICS_SERIES } from '../../domain/dashboard';
import { chartHeight, LEGEND_HEIGHT } from './chartSize';

export interface ChartRow {
  name: string;
  arch: number;
  chasis: number;
  tire: number;
}

/** Bar colours per series: the primary navy and two of the severity palette, apart enough to tell. */
export const SERIES_COLOURS: Record<(typeof STATISTICS_SERIES)[number], string> = {
  arch: '#0C1839',
  chasis: '#C1484E',
  tire: '#6B7385',
};

const noLines = () => [];

interface Props {
  rows: ChartRow[];
  /** The series names in the user's language. */
  labels: Record<(typeof STATISTICS_SERIES)[number], string>;
}

/**
 * The series' names under the bars. Plain HTML rather than recharts' <Legend>, which measures itself and lays the
 * chart out again: a quarter of the chart's first render on a slow phone, which would add main-thread blocking time.
 */
const SeriesLegend = ({ labels }: Pick<Props, 'labels'>) => (
  <div
    style={{
      height: LEGEND_HEIGHT,
      display: 'flex',
      justifyContent: 'center',
      alignItems: 'center',
      gap: 16,
      flexWrap: 'wrap',
      fontSize: 13,
    }}
  >
    {STATISTICS_SERIES.map((s) => (
      <span key={s} style={{ display: 'inline-flex', alignItems: 'center', gap: 6, color: 'rgba(0, 0, 0, 0.87)' }}>
        <span style={{ width: 12, height: 12, background: SERIES_COLOURS[s] }} />
        {labels[s]}
      </span>
    ))}
  </div>
);

/**
 * The box's width, followed as it changes. The chart is drawn in a transition, which React renders in slices that
 * leave the browser free to answer input in between (recharts' ResponsiveContainer draws in one blocking task).
 */
function useWidth() {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.floor(entry.contentRect.width);
      startTransition(() => setWidth(next));
    });
    observer.observe(box.current!);
    return () => observer.disconnect();
  }, []);
  return [box, width] as const;
}

/**
 * A horizontal bar chart: one group per agent or location, bars Arch, Chasis and Tire. Recharts loads with
 * this file only, so it never reaches the sign-in page or the shell; the numbers are also in the page's table.
 */
export const StatisticsChart = ({ rows, labels }: Props) => {
  const height = chartHeight(rows.length);
  const [box, width] = useWidth();
  return (
    <div ref={box} style={{ width: '100%', height }} aria-hidden="true">
      {width > 0 && (
        <BarChart
          width={width}
          height={height - LEGEND_HEIGHT}
          layout="vertical"
          data={rows}
          margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
          accessibilityLayer={false}
        >
          {/* Vertical lines only. Recharts works out the horizontal lines' places even when they are not drawn, measuring
              every Y label in the page's DOM (a forced layout each): none asked for, none worked out. */}
          <CartesianGrid strokeDasharray="3 3" horizontal={false} horizontalCoordinatesGenerator={noLines} />
          {/* interval 0: every tick drawn, none measured to decide which to hide (a few numbers always fit). */}
          <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12 }} interval={0} />
          <YAxis type="category" dataKey="name" width={110} tick={{ fontSize: 12 }} interval={0} />
          <Tooltip />
          {STATISTICS_SERIES.map((s) => (
            <Bar key={s} dataKey={s} name={labels[s]} fill={SERIES_COLOURS[s]} isAnimationActive={false} maxBarSize={14} />
          ))}
        </BarChart>
      )}
      <SeriesLegend labels={labels} />
    </div>
  );
};
