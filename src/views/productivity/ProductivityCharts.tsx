import { Card } from '@blueprintjs/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatHoursOrNA } from '../../domain/numberFormat';
import type { ActivitySummary } from '../../domain/schemas/productivity';
import { ProductivityChart } from './ProductivityChart';

const GAIN_COLOUR = '#238551';
const LOSS_COLOUR = '#cd4246';
const DELAY_COLOUR = '#c87619';

/** Gain and loss hours by crew and delay hours by code, over the whole filtered range. */
export function ProductivityCharts({ summary, rtl }: { summary: ActivitySummary; rtl: boolean }) {
  const { t } = useTranslation();
  const crews = useMemo(() => {
    const labels = summary.by_crew.map((crew) => crew.crew_name ?? t('productivity.charts.noCrew'));
    return {
      labels,
      series: [
        {
          name: t('productivity.charts.gain'),
          values: summary.by_crew.map((crew) => crew.gain_hours),
          colour: GAIN_COLOUR,
        },
        {
          name: t('productivity.charts.loss'),
          values: summary.by_crew.map((crew) => crew.loss_hours),
          colour: LOSS_COLOUR,
        },
      ],
      summary: summary.by_crew
        .map(
          (crew, index) =>
            `${labels[index]}: ${t('productivity.charts.gain')} ${formatHoursOrNA(crew.gain_hours)}, ${t('productivity.charts.loss')} ${formatHoursOrNA(crew.loss_hours)}`,
        )
        .join('; '),
    };
  }, [summary.by_crew, t]);
  const delays = useMemo(() => {
    const labels = summary.by_delay_code.map((code) => `${code.code} ${code.name}`);
    return {
      labels,
      series: [
        {
          name: t('productivity.charts.hoursLost'),
          values: summary.by_delay_code.map((code) => code.hours_lost),
          colour: DELAY_COLOUR,
        },
      ],
      summary: summary.by_delay_code
        .map((code, index) => `${labels[index]}: ${formatHoursOrNA(code.hours_lost)}`)
        .join('; '),
    };
  }, [summary.by_delay_code, t]);

  return (
    <div className="sw-report-panels" data-testid="productivity-charts">
      <Card compact>
        <h3 className="bp6-heading">{t('productivity.charts.gainLoss')}</h3>
        {crews.labels.length === 0 ? (
          <p>{t('productivity.charts.empty')}</p>
        ) : (
          <ProductivityChart
            labels={crews.labels}
            series={crews.series}
            format={formatHoursOrNA}
            rtl={rtl}
            summary={crews.summary}
            testId="chart-gain-loss"
          />
        )}
      </Card>
      <Card compact>
        <h3 className="bp6-heading">{t('productivity.charts.delays')}</h3>
        {delays.labels.length === 0 ? (
          <p>{t('productivity.charts.empty')}</p>
        ) : (
          <ProductivityChart
            labels={delays.labels}
            series={delays.series}
            format={formatHoursOrNA}
            rtl={rtl}
            summary={delays.summary}
            testId="chart-delays"
          />
        )}
      </Card>
    </div>
  );
}
