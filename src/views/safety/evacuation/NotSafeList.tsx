import { HTMLTable } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { EVACUATION_COLOURS, type EvacuationWorker } from '../../../domain/evacuation';
import { formatCount } from '../../../domain/numberFormat';
import { formatDuration } from '../safetyFormat';
import { cssColour, secondsSince } from './evacuationFormat';
import { NA, WhereToFindCells, WhereToFindHeadings } from './WhereToFindCells';

/** Rows drawn at most: a wall shows the first screenfuls; the count says how many more. */
export const NOT_SAFE_ROWS = 300;

interface NotSafeListProps {
  /** Already sorted, longest unseen first (notSafeWorkers). */
  workers: readonly EvacuationWorker[];
  now: number;
  /** A floor's name with its building's (placeNames.ts). */
  floorPlace(floorId: number | null): string | null;
}

/** Who to go and find: every included worker not yet safe, with where they were last seen. */
export function NotSafeList({ workers, now, floorPlace }: NotSafeListProps) {
  const { t } = useTranslation();
  const shown = workers.slice(0, NOT_SAFE_ROWS);
  return (
    <section
      className="sw-evac-not-safe"
      aria-labelledby="sw-evac-not-safe-title"
      data-testid="not-safe-list"
    >
      <h2 id="sw-evac-not-safe-title" className="sw-evac-panel-title">
        {t('evacuation.notSafe.title')}{' '}
        <span data-testid="not-safe-count" data-value={workers.length}>
          ({formatCount(workers.length)})
        </span>
      </h2>
      {workers.length === 0 ? (
        <p className="sw-evac-empty">{t('evacuation.notSafe.empty')}</p>
      ) : (
        <div
          className="sw-evac-not-safe__scroll"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the list scrolls; focus lets the keyboard scroll it.
          tabIndex={0}
          data-testid="not-safe-scroll"
        >
          <HTMLTable
            compact
            striped
            className="sw-evac-not-safe__table"
            aria-labelledby="sw-evac-not-safe-title"
          >
            <thead>
              <tr>
                <th scope="col">{t('evacuation.notSafe.name')}</th>
                <th scope="col">{t('evacuation.notSafe.status')}</th>
                <th scope="col">{t('evacuation.notSafe.lastSeen')}</th>
                <WhereToFindHeadings />
              </tr>
            </thead>
            <tbody>
              {shown.map((worker) => {
                const ago = formatDuration(secondsSince(worker.last_seen, now), t);
                return (
                  <tr
                    key={worker.id}
                    data-testid="not-safe-row"
                    data-worker-id={worker.id}
                    data-status={worker.status}
                  >
                    <th scope="row">
                      <bdi>{worker.name ?? worker.wnt_inventory_id}</bdi>
                    </th>
                    <td>
                      <span
                        className="sw-evac-swatch"
                        style={{ background: cssColour(EVACUATION_COLOURS[worker.status]) }}
                        aria-hidden="true"
                      />
                      {t(`evacuation.status.${worker.status}`)}
                    </td>
                    <td>{ago === null ? NA : t('evacuation.notSafe.ago', { time: ago })}</td>
                    <WhereToFindCells worker={worker} floorPlace={floorPlace} />
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
          {workers.length > shown.length && (
            <p className="sw-evac-more">
              {t('evacuation.notSafe.more', { number: formatCount(workers.length - shown.length) })}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
