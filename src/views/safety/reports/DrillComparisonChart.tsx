import {
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';

Chart.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

export interface ComparisonSeries {
  label: string;
  colour: string;
  /** Seconds, one per drill; null where the drill never reached it (a gap in the line). */
  values: readonly (number | null)[];
}

export interface DrillComparisonChartProps {
  /** One per drill, oldest first. */
  labels: readonly string[];
  series: readonly ComparisonSeries[];
  /** The drill whose report this is (-1: not among them, e.g. still running). */
  currentIndex: number;
  format(seconds: number): string;
  rtl: boolean;
  /** The figures as text, for screen readers (and tests). */
  summary: string;
}

const POINT = 3;
const CURRENT_POINT = 8;
/** Tick steps in seconds that read as round durations (30 s, 1 min, 2 min, 5 min…). */
const STEPS = [5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

/** The smallest round step that keeps the axis to about six ticks. */
function durationStep(maxSeconds: number): number {
  return STEPS.find((step) => maxSeconds / step <= 6) ?? Math.ceil(maxSeconds / 6 / 3600) * 3600;
}

/**
 * The site's past drills side by side (is this site getting faster?): a line per figure over
 * the drills, the report's own drill drawn with larger ringed points. Time runs from the right
 * in Arabic; the data never reorders.
 */
export function DrillComparisonChart(props: DrillComparisonChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const latest = useRef(props);
  latest.current = props;

  // Rebuilt when what it shows changes (read through `latest`): a few dozen points, no animation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the props are read through `latest`.
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const chart = new Chart(element, configuration(latest.current));
    return () => chart.destroy();
  }, [props.labels, props.series, props.currentIndex, props.rtl]);

  return (
    <div className="sw-drill-chart" data-testid="drill-comparison-chart">
      <canvas ref={canvas} role="img" aria-label={props.summary} data-testid="drill-comparison-canvas" />
    </div>
  );
}

function configuration(props: DrillComparisonChartProps): ChartConfiguration<'line'> {
  const { rtl, format, currentIndex } = props;
  const fontFamily = getComputedStyle(document.body).fontFamily;
  if (fontFamily) Chart.defaults.font.family = fontFamily;
  const highest = Math.max(
    0,
    ...props.series.flatMap((s) => s.values.filter((v): v is number => v !== null)),
  );
  const perPoint = <T,>(current: T, other: T) =>
    props.labels.map((_, i) => (i === currentIndex ? current : other));
  return {
    type: 'line',
    data: {
      labels: [...props.labels],
      datasets: props.series.map((series) => ({
        label: series.label,
        data: [...series.values],
        borderColor: series.colour,
        backgroundColor: series.colour,
        borderWidth: 2,
        pointRadius: perPoint(CURRENT_POINT, POINT),
        pointHoverRadius: perPoint(CURRENT_POINT + 2, POINT + 2),
        pointBorderWidth: perPoint(3, 1),
        pointBorderColor: perPoint('#1c2127', series.colour),
        tension: 0.2,
        spanGaps: false,
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      scales: {
        // offset: the first and last drills stand half a step in, so their labels are never cut.
        x: {
          reverse: rtl,
          offset: true,
          ticks: { autoSkip: true, maxRotation: 0 },
          grid: { display: false },
        },
        y: {
          beginAtZero: true,
          position: rtl ? 'right' : 'left',
          ticks: { stepSize: durationStep(highest), callback: (value) => format(Number(value)) },
        },
      },
      plugins: {
        legend: { position: 'bottom', rtl, textDirection: rtl ? 'rtl' : 'ltr' },
        tooltip: {
          rtl,
          textDirection: rtl ? 'rtl' : 'ltr',
          callbacks: {
            label: (item) => `${item.dataset.label}: ${item.raw === null ? '—' : format(Number(item.raw))}`,
          },
        },
      },
    },
  };
}
