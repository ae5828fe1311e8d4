import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useChart } from '../shared/useChart';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

export interface ChartSeries {
  name: string;
  values: readonly number[];
  colour: string;
}

interface ProductivityChartProps {
  /** Names down the chart (crews, delay codes): horizontal bars, so long Arabic names fit. */
  labels: readonly string[];
  series: readonly ChartSeries[];
  format(value: number): string;
  /** Right to left: the names stand on the right and the bars grow leftwards. */
  rtl: boolean;
  /** The chart's figures as text, for screen readers (and tests). */
  summary: string;
  testId: string;
}

/**
 * Hours by name as horizontal bars, one bar per series, the approach of the analytics charts: one
 * Chart.js chart per mount and direction, given new data in place, every number through `format`.
 */
export function ProductivityChart(props: ProductivityChartProps) {
  const { rtl } = props;
  const format = (value: number | string) => props.format(Number(value));
  const canvas = useChart<'bar', number[], string>(
    {
      configure: () => {
        const fontFamily = getComputedStyle(document.body).fontFamily;
        if (fontFamily) Chart.defaults.font.family = fontFamily;
        return {
          type: 'bar',
          data: { labels: [], datasets: [] },
          options: {
            indexAxis: 'y',
            animation: false,
            responsive: true,
            maintainAspectRatio: false,
            locale: 'en-US',
            scales: {
              x: { beginAtZero: true, reverse: rtl, ticks: { callback: format } },
              y: { position: rtl ? 'right' : 'left', grid: { display: false } },
            },
            plugins: {
              legend: { rtl, position: 'bottom' },
              tooltip: {
                rtl,
                textDirection: rtl ? 'rtl' : 'ltr',
                callbacks: { label: (item) => `${item.dataset.label}: ${format(Number(item.raw))}` },
              },
            },
          },
        };
      },
      fill: (chart) => {
        chart.data.labels = [...props.labels];
        chart.data.datasets = props.series.map((series) => ({
          label: series.name,
          data: [...series.values],
          backgroundColor: series.colour,
        }));
        chart.update();
      },
    },
    [rtl],
    [props.labels, props.series],
  );

  return (
    <div className="sw-productivity-chart" data-testid={props.testId}>
      <canvas ref={canvas} role="img" aria-label={props.summary} data-testid={`${props.testId}-canvas`} />
    </div>
  );
}
