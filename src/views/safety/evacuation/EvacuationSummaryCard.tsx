import { Button, Callout } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../domain/numberFormat';
import type { EvacuationSummary } from '../../../machines/evacuation.machine';
import { formatElapsed } from './evacuationFormat';

/** What the wall shows once an evacuation ended, until someone resets it. */
export function EvacuationSummaryCard({ summary, onReset }: { summary: EvacuationSummary; onReset(): void }) {
  const { t } = useTranslation();
  const { counts } = summary;
  return (
    <Callout intent="primary" icon="tick-circle" className="sw-evac-summary" data-testid="evacuation-summary">
      <h2 className="sw-evac-panel-title">{t('evacuation.summary.title')}</h2>
      <p>
        {t('evacuation.summary.duration', {
          duration: formatElapsed(summary.startedAt, Date.parse(summary.endedAt)),
        })}
      </p>
      <p data-testid="evacuation-summary-counts">
        {t('evacuation.summary.counts', {
          included: formatCount(counts.included),
          safe: formatCount(counts.safe),
          stillInside: formatCount(counts.stillInside),
        })}
      </p>
      {summary.neverAccounted.length > 0 && (
        <p data-testid="evacuation-summary-unaccounted">
          {t('evacuation.summary.unaccounted')}{' '}
          {summary.neverAccounted.map((worker, index) => (
            <span key={worker.id}>
              {index > 0 && ', '}
              <bdi>{worker.name ?? worker.wnt_inventory_id}</bdi>
            </span>
          ))}
        </p>
      )}
      <Button
        icon="reset"
        text={t('evacuation.summary.reset')}
        onClick={onReset}
        data-testid="evacuation-reset"
      />
    </Callout>
  );
}
