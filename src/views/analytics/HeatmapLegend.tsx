import { useTranslation } from 'react-i18next';
import { heatmapGradient } from '../canvas/layers/heatmapRamp';
import { formatWorkerSeconds } from './analyticsFormat';

/**
 * The heatmap's colour ramp from no one to the busiest cell, in worker-hours, beside the canvas.
 * It runs with the reading direction (left to right in English, right to left in Arabic).
 */
export function HeatmapLegend({ maxSeconds }: { maxSeconds: number }) {
  const { t, i18n } = useTranslation();
  const rtl = i18n.dir() === 'rtl';
  return (
    <figure className="sw-heatmap-legend" data-testid="heatmap-legend">
      <figcaption>{t('analytics.heatmap.legend')}</figcaption>
      <div
        className="sw-heatmap-legend-ramp"
        role="img"
        aria-label={t('analytics.heatmap.legendRange', { max: formatWorkerSeconds(maxSeconds) })}
        style={{ backgroundImage: heatmapGradient(rtl ? 'to left' : 'to right') }}
      />
      <div className="sw-heatmap-legend-scale">
        <span>{formatWorkerSeconds(0)}</span>
        <span data-testid="heatmap-legend-max">{formatWorkerSeconds(maxSeconds)}</span>
      </div>
    </figure>
  );
}
