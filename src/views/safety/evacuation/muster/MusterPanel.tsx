import { Button, Icon } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import {
  EVACUATION_COLOURS,
  type EvacuationWorker,
  type FloorClearance,
  type MarshalMark,
  type RollPerson,
} from '../../../../domain/evacuation';
import { formatCount } from '../../../../domain/numberFormat';
import { cssColour } from '../evacuationFormat';

interface MusterPanelProps {
  floorClearances: readonly FloorClearance[];
  /** Workers marked by hand (status marked), and the people added to the roll. */
  markedWorkers: readonly EvacuationWorker[];
  rollPeople: readonly RollPerson[];
  floorPlace(floorId: number | null): string | null;
  clock(iso: string): string;
  /** Present for a marshal. */
  onUndo?(mark: MarshalMark, name: string): void;
  onMarkPerson?(person: RollPerson): void;
  onAddPerson?(): void;
}

/**
 * Beside the list of who is missing: the floors in order of clearing, and the roll call by
 * marshals (hand marks, in their own colour, and people without a helmet), each undoable.
 */
export function MusterPanel({
  floorClearances,
  markedWorkers,
  rollPeople,
  floorPlace,
  clock,
  onUndo,
  onMarkPerson,
  onAddPerson,
}: MusterPanelProps) {
  const { t } = useTranslation();
  const describe = (mark: MarshalMark) =>
    t('evacuation.marshal.markedBy', {
      reason: mark.reason,
      by: mark.markedBy?.name ?? '—',
      time: clock(mark.markedAt),
    });
  const rows = [
    ...markedWorkers.map((worker) => ({
      key: `w${worker.id}`,
      name: worker.name ?? worker.wnt_inventory_id,
      detail: null as string | null,
      mark: worker.mark,
      person: null as RollPerson | null,
    })),
    ...rollPeople.map((person) => ({
      key: `p${person.id}`,
      name: person.name,
      detail: [person.company, t('evacuation.marshal.noHelmet')].filter(Boolean).join(' · '),
      mark: person.mark,
      person,
    })),
  ];
  return (
    <aside className="sw-evac-muster" aria-label={t('evacuation.marshal.title')}>
      <section data-testid="floors-cleared" aria-labelledby="sw-evac-floors-title">
        <h2 id="sw-evac-floors-title" className="sw-evac-panel-title">
          {t('evacuation.marshal.floorsTitle')}
        </h2>
        <ol className="sw-evac-cleared">
          {floorClearances.map((floor) => {
            const name = floorPlace(floor.floorId) ?? String(floor.floorId);
            return (
              <li
                key={floor.floorId}
                data-testid="floor-cleared"
                data-floor-id={floor.floorId}
                data-cleared={floor.clearedAt !== null}
                className={floor.clearedAt ? 'sw-evac-cleared__clear' : 'sw-evac-cleared__open'}
              >
                <Icon
                  icon={floor.clearedAt ? 'tick-circle' : 'time'}
                  intent={floor.clearedAt ? 'success' : 'warning'}
                />{' '}
                <bdi>
                  {floor.clearedAt
                    ? t('evacuation.marshal.floorClear', { floor: name, time: clock(floor.clearedAt) })
                    : t('evacuation.marshal.floorRemaining', {
                        floor: name,
                        number: formatCount(floor.remaining),
                      })}
                </bdi>
              </li>
            );
          })}
        </ol>
      </section>
      <section data-testid="roll-call" aria-labelledby="sw-evac-roll-title">
        <h2 id="sw-evac-roll-title" className="sw-evac-panel-title">
          {t('evacuation.marshal.title')}
        </h2>
        {onAddPerson && (
          <Button
            icon="new-person"
            text={t('evacuation.marshal.addPerson')}
            onClick={onAddPerson}
            data-testid="add-person"
          />
        )}
        {rows.length === 0 ? (
          <p className="sw-evac-empty">{t('evacuation.marshal.empty')}</p>
        ) : (
          <ul className="sw-evac-roll">
            {rows.map((row) => (
              <li key={row.key} data-testid="roll-row" data-marked={row.mark !== null}>
                <span
                  className="sw-evac-swatch"
                  style={{ background: cssColour(EVACUATION_COLOURS[row.mark ? 'marked' : 'noHelmet']) }}
                  aria-hidden="true"
                />
                <span className="sw-evac-roll__who">
                  <bdi className="sw-evac-roll__name">{row.name}</bdi>
                  {row.detail && <span className="sw-evac-muted"> · {row.detail}</span>}
                  <br />
                  <span className="sw-evac-muted">
                    {row.mark ? describe(row.mark) : t('evacuation.status.noHelmet')}
                  </span>
                </span>
                {row.mark && onUndo && (
                  <Button
                    small
                    minimal
                    icon="undo"
                    text={t('evacuation.marshal.undo')}
                    onClick={() => row.mark && onUndo(row.mark, row.name)}
                    data-testid="undo-mark"
                  />
                )}
                {!row.mark && row.person && onMarkPerson && (
                  <Button
                    small
                    icon="endorsed"
                    text={t('evacuation.marshal.mark')}
                    onClick={() => row.person && onMarkPerson(row.person)}
                    data-testid="mark-person"
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </aside>
  );
}
