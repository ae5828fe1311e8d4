import {
  Chart,
  type ChartConfiguration,
  type ChartDataset,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  type Plugin,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useRef } from 'react';
import type { NodeHealthState } from '../../domain/nodeHealth';
import type { NodeHistory } from '../../domain/schemas/nodes';
import { useChart } from '../shared/useChart';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend);

export interface NodeHistoryChartTexts {
  battery: string;
  linkQuality: string;
  bufferUsage: string;
  cutoff: string;
  volts(value: number): string;
  whole(value: number): string;
  percent(value: number): string;
  time(ms: number): string;
}

interface NodeHistoryChartProps {
  history: NodeHistory;
  /** The window shown, epoch ms; the data may start later. */
  fromMs: number;
  toMs: number;
  texts: NodeHistoryChartTexts;
  rtl: boolean;
  /** What the chart shows, for screen readers (and tests). */
  summary: string;
}

const COLOURS = { battery: '#2d72d2', linkQuality: '#238551', bufferUsage: '#c87619', cutoff: '#cd4246' };
/** The health band along the top of the plot. */
export const HEALTH_BAND_COLOURS: Record<NodeHealthState, string> = {
  ok: '#32a467',
  warning: '#ec9a3c',
  bad: '#e76a6e',
};
const BAND_HEIGHT = 10;

type Points = { x: number; y: number | null }[];

function points(t: readonly number[], values: readonly (number | null)[]): Points {
  const out: Points = new Array(t.length);
  for (let i = 0; i < t.length; i++) out[i] = { x: t[i], y: values[i] };
  return out;
}

/** Spans of the node's health as coloured strips along the plot's top edge, under the lines. */
function healthBand(spans: () => NodeHistory['healthStates']): Plugin<'line'> {
  return {
    id: 'nodeHealthBand',
    beforeDatasetsDraw(chart) {
      const { ctx, chartArea, scales } = chart;
      const x = scales.x;
      ctx.save();
      for (const span of spans()) {
        const a = x.getPixelForValue(Date.parse(span.from));
        const b = x.getPixelForValue(Date.parse(span.to));
        const left = Math.max(chartArea.left, Math.min(a, b));
        const right = Math.min(chartArea.right, Math.max(a, b));
        if (right <= left) continue;
        ctx.fillStyle = HEALTH_BAND_COLOURS[span.state];
        ctx.fillRect(left, chartArea.top, right - left, BAND_HEIGHT);
      }
      ctx.restore();
    },
  };
}

/**
 * One node's battery voltage (left axis, volts, with its type's cut-off as a dashed line), link
 * quality and buffer use (right axis, 0–100) over the chosen window, and its health over time as
 * a band along the top. Right to left, time runs from the right and the axes swap sides.
 */
export function NodeHistoryChart(props: NodeHistoryChartProps) {
  const { rtl, history, fromMs, toMs, texts } = props;
  // The health band reads the spans at draw time: a chart filled in place draws the new ones.
  const latestHistory = useRef(history);
  latestHistory.current = history;
  const spans = () => latestHistory.current.healthStates;
  const canvas = useChart<'line', Points>(
    {
      configure: () => configuration(props, spans),
      fill: (chart) => {
        const next = configuration(props, spans);
        chart.data.datasets = next.data.datasets;
        chart.options.scales = next.options?.scales;
        chart.update();
      },
    },
    [rtl],
    [history, fromMs, toMs, texts],
  );

  return (
    <div className="sw-node-history-chart" data-testid="node-history-chart">
      <canvas ref={canvas} role="img" aria-label={props.summary} data-testid="node-history-canvas" />
    </div>
  );
}

function configuration(
  props: NodeHistoryChartProps,
  spans: () => NodeHistory['healthStates'],
): ChartConfiguration<'line', Points> {
  const { history, texts, rtl, fromMs, toMs } = props;
  const cutoff = history.forecast.cutoffVolts;
  const line = (label: string, colour: string, data: Points, axis: 'volts' | 'percent') =>
    ({
      label,
      data,
      yAxisID: axis,
      borderColor: colour,
      backgroundColor: colour,
      borderWidth: 2,
      pointRadius: data.length < 60 ? 2 : 0,
      spanGaps: false,
      tension: 0.1,
    }) satisfies ChartDataset<'line', Points>;
  const voltages = history.batteryVoltage;
  const lowest = Math.min(cutoff, ...voltages);
  const highest = Math.max(cutoff, ...voltages);
  const fontFamily = getComputedStyle(document.body).fontFamily;
  if (fontFamily) Chart.defaults.font.family = fontFamily;
  return {
    type: 'line',
    data: {
      datasets: [
        line(texts.battery, COLOURS.battery, points(history.t, voltages), 'volts'),
        line(texts.linkQuality, COLOURS.linkQuality, points(history.t, history.linkQuality), 'percent'),
        line(texts.bufferUsage, COLOURS.bufferUsage, points(history.t, history.bufferUsage), 'percent'),
        {
          ...line(
            texts.cutoff,
            COLOURS.cutoff,
            [
              { x: fromMs, y: cutoff },
              { x: toMs, y: cutoff },
            ],
            'volts',
          ),
          borderDash: [6, 4],
          borderWidth: 1,
          pointRadius: 0,
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      parsing: false,
      normalized: true,
      locale: 'en-US',
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      // Room above the lines for the health band.
      layout: { padding: { top: BAND_HEIGHT + 4 } },
      scales: {
        x: {
          type: 'linear',
          min: fromMs,
          max: toMs,
          reverse: rtl,
          ticks: { callback: (value) => texts.time(Number(value)), maxRotation: 0, autoSkipPadding: 16 },
          grid: { display: false },
        },
        volts: {
          type: 'linear',
          position: rtl ? 'right' : 'left',
          suggestedMin: Math.floor((lowest - 0.1) * 10) / 10,
          suggestedMax: Math.ceil((highest + 0.1) * 10) / 10,
          ticks: { callback: (value) => texts.volts(Number(value)) },
        },
        percent: {
          type: 'linear',
          position: rtl ? 'left' : 'right',
          min: 0,
          max: 100,
          grid: { drawOnChartArea: false },
          ticks: { callback: (value) => texts.whole(Number(value)) },
        },
      },
      plugins: {
        legend: { rtl, position: 'bottom', labels: { boxWidth: 12 } },
        tooltip: {
          rtl,
          textDirection: rtl ? 'rtl' : 'ltr',
          callbacks: {
            title: (items) => (items[0] ? texts.time(Number(items[0].parsed.x)) : ''),
            label: (item) => {
              const y = Number(item.parsed.y);
              const format = [texts.volts, texts.whole, texts.percent, texts.volts][item.datasetIndex];
              return `${item.dataset.label}: ${format(y)}`;
            },
          },
        },
      },
    },
    plugins: [healthBand(spans)],
  };
}
