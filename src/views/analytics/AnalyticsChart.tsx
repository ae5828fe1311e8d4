import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useChart } from '../shared/useChart';

// Only what the panels draw: Chart.js tree-shakes the rest out of the analytics chunk.
Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Filler,
);

export interface AnalyticsChartProps {
  /** 'line' over time, 'bar' down a list of names (horizontal bars: long Arabic names fit). */
  kind: 'line' | 'bar';
  labels: readonly string[];
  values: readonly number[];
  /** The series' name, shown in the tooltip. */
  series: string;
  /** How a value reads: thousands separators, hours with two decimals. */
  format(value: number): string;
  /** Right to left: time runs from the right, names stand on the right. */
  rtl: boolean;
  /** What the chart shows, for screen readers (and tests): its values as text. */
  summary: string;
  testId: string;
}

const LINE_COLOUR = '#2d72d2';
const BAR_COLOUR = '#238551';

/**
 * One Chart.js chart on a canvas of its own, made once per mount and given new data in place;
 * the axes mirror in Arabic (the data never reorders), and every number goes through `format`.
 */
export function AnalyticsChart(props: AnalyticsChartProps) {
  const { kind, rtl } = props;
  // A new chart only when its shape changes (kind, direction); data changes update it in place.
  const canvas = useChart<'line' | 'bar'>(
    {
      configure: () => configuration(props),
      fill: (chart) => {
        chart.data.labels = [...props.labels];
        chart.data.datasets[0].data = [...props.values];
        chart.data.datasets[0].label = props.series;
        chart.update();
      },
    },
    [kind, rtl],
    [props.labels, props.values, props.series],
  );

  return (
    <div className={`sw-analytics-chart sw-analytics-chart--${kind}`} data-testid={props.testId}>
      <canvas ref={canvas} role="img" aria-label={props.summary} data-testid={`${props.testId}-canvas`} />
    </div>
  );
}

function configuration(props: AnalyticsChartProps): ChartConfiguration<'line' | 'bar'> {
  const { kind, rtl, format } = props;
  const horizontal = kind === 'bar';
  // The console's own font stack, which has the Arabic glyphs the canvas needs.
  const fontFamily = getComputedStyle(document.body).fontFamily;
  if (fontFamily) Chart.defaults.font.family = fontFamily;
  const tick = (value: number | string) => format(Number(value));
  const valueAxis = {
    beginAtZero: true,
    reverse: horizontal && rtl,
    position: horizontal ? ('bottom' as const) : rtl ? ('right' as const) : ('left' as const),
    ticks: { callback: tick, precision: 0 },
  };
  const categoryAxis = {
    reverse: !horizontal && rtl,
    position: horizontal ? (rtl ? ('right' as const) : ('left' as const)) : ('bottom' as const),
    ticks: { autoSkip: true, maxRotation: 0 },
    grid: { display: false },
  };
  return {
    type: kind,
    data: {
      labels: [...props.labels],
      datasets: [
        {
          label: props.series,
          data: [...props.values],
          backgroundColor: kind === 'line' ? 'rgba(45, 114, 210, 0.15)' : BAR_COLOUR,
          borderColor: kind === 'line' ? LINE_COLOUR : BAR_COLOUR,
          borderWidth: kind === 'line' ? 2 : 0,
          fill: kind === 'line',
          pointRadius: 0,
          tension: 0.2,
        },
      ],
    },
    options: {
      indexAxis: horizontal ? 'y' : 'x',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      locale: 'en-US',
      interaction: { mode: 'index', intersect: false },
      scales: horizontal ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis },
      plugins: {
        tooltip: {
          rtl,
          textDirection: rtl ? 'rtl' : 'ltr',
          callbacks: { label: (item) => `${item.dataset.label}: ${format(Number(item.raw))}` },
        },
      },
    },
  } as ChartConfiguration<'line' | 'bar'>;
}
