/** The box each chart gets from the start, so nothing moves when it appears (no layout shift). */
export const CHART_BOX_HEIGHT = 360;
/** Height a bar group takes; a long list scrolls inside the chart's box instead of growing the page. */
export const ROW_HEIGHT = 44;
/** The axis and legend under the bars. */
export const AXES_HEIGHT = 64;

/** The chart's own height for `rows` groups: the box, or taller (then the box scrolls). */
export const chartHeight = (rows: number) => Math.max(CHART_BOX_HEIGHT - 8, rows * ROW_HEIGHT + AXES_HEIGHT);
export const chartScrolls = (rows: number) => chartHeight(rows) > CHART_BOX_HEIGHT - 8;
/** The series legend under the chart (HTML, inside the chart's height). */
export const LEGEND_HEIGHT = 28;
