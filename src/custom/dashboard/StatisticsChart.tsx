import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { STATISTICS_SERIES } from '../../domain/dashboard';
import { chartHeight } from './chartSize';

export interface ChartRow {
  name: string;
  arch: number;
  chasis: number;
  tire: number;
}

/** Bar colours per series: the primary navy and two of the severity palette (spec 2 §9), apart enough to tell. */
export const SERIES_COLOURS: Record<(typeof STATISTICS_SERIES)[number], string> = {
  arch: '#0C1839',
  chasis: '#C1484E',
  tire: '#6B7385',
};

interface Props {
  rows: ChartRow[];
  /** The series names in the user's language. */
  labels: Record<(typeof STATISTICS_SERIES)[number], string>;
}

/**
 * A horizontal bar chart (spec 1 §2): one group per agent or location, bars Arch, Chasis and Tire. Recharts loads with
 * this file only, so it never reaches the sign-in page or the shell; the numbers are also in the page's table.
 */
export const StatisticsChart = ({ rows, labels }: Props) => {
  const height = chartHeight(rows.length);
  return (
    <div style={{ width: '100%', height }} aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart layout="vertical" data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 8 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12 }} />
          <YAxis type="category" dataKey="name" width={110} tick={{ fontSize: 12 }} interval={0} />
          <Tooltip />
          {/* Legend texts in the text colour: the series colours are for the bars, not for reading. */}
          <Legend
            wrapperStyle={{ fontSize: 13 }}
            formatter={(value: string) => <span style={{ color: 'rgba(0, 0, 0, 0.87)' }}>{value}</span>}
          />
          {STATISTICS_SERIES.map((s) => (
            <Bar key={s} dataKey={s} name={labels[s]} fill={SERIES_COLOURS[s]} isAnimationActive={false} maxBarSize={14} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
};
