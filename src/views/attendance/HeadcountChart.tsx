import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import type { HourlyHeadcount } from '../../domain/schemas/attendance';
import { useChart } from '../shared/useChart';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

interface HeadcountChartProps {
  headcount: readonly HourlyHeadcount[];
  series: string;
  /** Right to left: the hours run from the right. */
  rtl: boolean;
  format(value: number): string;
}

const label = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * Workers on site by hour of the site's day (the average over the range's days), one Chart.js bar
 * chart made once per direction and given new data in place; the values are also in the summary.
 */
export function HeadcountChart({ headcount, series, rtl, format }: HeadcountChartProps) {
  const canvas = useChart<'bar', number[], string>(
    {
      configure: () => ({
        type: 'bar',
        data: { labels: [], datasets: [{ label: '', data: [], backgroundColor: '#2d72d2' }] },
        options: {
          animation: false,
          maintainAspectRatio: false,
          plugins: {
            legend: { display: false },
            tooltip: {
              rtl,
              callbacks: { label: (item) => `${item.dataset.label}: ${format(item.parsed.y ?? 0)}` },
            },
          },
          scales: {
            x: { reverse: rtl, grid: { display: false } },
            y: { beginAtZero: true, position: rtl ? 'right' : 'left', ticks: { precision: 0 } },
          },
        },
      }),
      fill: (chart) => {
        chart.data.labels = headcount.map((h) => label(h.hour));
        chart.data.datasets[0].data = headcount.map((h) => h.average);
        chart.data.datasets[0].label = series;
        chart.update();
      },
    },
    [rtl],
    [headcount, series],
  );

  const summary = headcount
    .filter((h) => h.average > 0)
    .map((h) => `${label(h.hour)} ${format(h.average)}`)
    .join(', ');
  return (
    <figure className="sw-attendance-chart" data-testid="attendance-headcount">
      <div className="sw-attendance-chart-canvas">
        <canvas ref={canvas} role="img" aria-label={`${series}: ${summary}`} />
      </div>
      <figcaption className="sw-visually-hidden" data-testid="attendance-headcount-summary">
        {summary}
      </figcaption>
    </figure>
  );
}
