import { Button, HTMLTable, Icon } from '@blueprintjs/core';
import { Fragment } from 'react';
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
  /** The clock time of an instant on the site's wall clock (HH:MM:SS). */
  clock(iso: string): string;
  /** Present for a marshal (a role that may write safety): marks the worker accounted for. */
  onMark?(worker: EvacuationWorker): void;
}

/** Who to go and find: every included worker not yet safe, with where they were last seen. */
export function NotSafeList({ workers, now, floorPlace, clock, onMark }: NotSafeListProps) {
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
                {onMark && <th scope="col">{t('evacuation.notSafe.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {shown.map((worker, index) => {
                const ago = formatDuration(secondsSince(worker.last_seen, now), t);
                const firstSilent =
                  worker.status === 'offlineBeforeAlarm' && shown[index - 1]?.status !== 'offlineBeforeAlarm';
                return (
                  <Fragment key={worker.id}>
                    {firstSilent && (
                      <tr className="sw-evac-not-safe__group" data-testid="offline-before-alarm-heading">
                        <th colSpan={onMark ? 7 : 6} scope="rowgroup">
                          {t('evacuation.notSafe.offlineBeforeAlarm')}
                        </th>
                      </tr>
                    )}
                    <tr
                      data-testid="not-safe-row"
                      data-worker-id={worker.id}
                      data-status={worker.status}
                      className={
                        worker.status === 'reEntered' ? 'sw-evac-not-safe__row--reentered' : undefined
                      }
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
                        <br />
                        <small
                          className={worker.alarmDeliveredAt ? undefined : 'sw-evac-muted'}
                          data-testid="alarm-delivery"
                          data-delivered={worker.alarmDeliveredAt !== null}
                        >
                          {worker.alarmDeliveredAt ? (
                            <>
                              <Icon icon="tick" size={10} intent="success" />{' '}
                              {t('evacuation.notSafe.alarmDelivered', {
                                time: clock(worker.alarmDeliveredAt),
                              })}
                            </>
                          ) : (
                            t('evacuation.notSafe.alarmNotConfirmed')
                          )}
                        </small>
                      </td>
                      <td>
                        {ago === null
                          ? NA
                          : worker.status === 'offlineBeforeAlarm' && worker.last_seen
                            ? t('evacuation.notSafe.lastSeenAt', { time: clock(worker.last_seen), ago })
                            : t('evacuation.notSafe.ago', { time: ago })}
                      </td>
                      <WhereToFindCells worker={worker} floorPlace={floorPlace} />
                      {onMark && (
                        <td>
                          <Button
                            small
                            icon="endorsed"
                            text={t('evacuation.marshal.mark')}
                            onClick={() => onMark(worker)}
                            data-testid="mark-worker"
                          />
                        </td>
                      )}
                    </tr>
                  </Fragment>
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
