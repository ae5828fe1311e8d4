import { Button, Callout, HTMLTable, InputGroup } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EvacuationWorker } from '../../../domain/evacuation';
import { formatCount } from '../../../domain/numberFormat';
import type { EvacuationSummary } from '../../../machines/evacuation.machine';
import { formatElapsed } from './evacuationFormat';
import { WhereToFindCells, WhereToFindHeadings } from './WhereToFindCells';

interface EvacuationSummaryCardProps {
  summary: EvacuationSummary;
  /** A floor's name with its building's (placeNames.ts). */
  floorPlace(floorId: number | null): string | null;
  /** Downloads the evacuation's report workbook; absent while the safety service is unreachable. */
  onExport?: () => void;
  exporting?: boolean;
  onReset(): void;
}

function matches(worker: EvacuationWorker, search: string): boolean {
  const needle = search.trim().toLocaleLowerCase();
  if (needle === '') return true;
  return [worker.name, worker.wnt_inventory_id].some((text) => text?.toLocaleLowerCase().includes(needle));
}

/**
 * What the wall shows once an evacuation ended, until someone resets it: the counts, and who was
 * never accounted for as a compact table with a search (a few hundred names stay one scrolling
 * box beside the map, not a paragraph that pushes it off the screen), and the report to export.
 */
export function EvacuationSummaryCard({
  summary,
  floorPlace,
  onExport,
  exporting = false,
  onReset,
}: EvacuationSummaryCardProps) {
  const { t } = useTranslation();
  const { counts } = summary;
  const [search, setSearch] = useState('');
  const shown = useMemo(
    () => summary.neverAccounted.filter((worker) => matches(worker, search)),
    [summary.neverAccounted, search],
  );
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
        <section className="sw-evac-unaccounted" data-testid="evacuation-summary-unaccounted">
          <div className="sw-evac-unaccounted-bar">
            <h3 className="sw-evac-unaccounted-title">
              {t('evacuation.summary.unaccountedCount', {
                number: formatCount(summary.neverAccounted.length),
              })}
            </h3>
            <InputGroup
              type="search"
              leftIcon="search"
              value={search}
              onValueChange={setSearch}
              placeholder={t('evacuation.summary.search')}
              aria-label={t('evacuation.summary.search')}
              data-testid="evacuation-summary-search"
            />
          </div>
          <div className="sw-evac-unaccounted-scroll">
            <HTMLTable compact striped className="sw-evac-unaccounted-table">
              <thead>
                <tr>
                  <th scope="col">{t('evacuation.notSafe.name')}</th>
                  <WhereToFindHeadings />
                </tr>
              </thead>
              <tbody>
                {shown.map((worker) => (
                  <tr key={worker.id} data-testid="evacuation-summary-unaccounted-row">
                    <th scope="row">
                      <bdi>{worker.name ?? worker.wnt_inventory_id}</bdi>
                    </th>
                    <WhereToFindCells worker={worker} floorPlace={floorPlace} />
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
            {shown.length === 0 && <p className="sw-evac-muted">{t('evacuation.summary.noMatch')}</p>}
          </div>
        </section>
      )}
      <div className="sw-evac-summary-actions">
        {onExport && (
          <Button
            icon="download"
            text={t('evacuation.summary.export')}
            loading={exporting}
            onClick={onExport}
            data-testid="evacuation-summary-export"
          />
        )}
        <Button
          icon="reset"
          text={t('evacuation.summary.reset')}
          onClick={onReset}
          data-testid="evacuation-reset"
        />
      </div>
    </Callout>
  );
}
