import '@blueprintjs/table/lib/css/table.css';
import { Button, Checkbox, InputGroup, type Intent, Tag } from '@blueprintjs/core';
import { Cell, type CellProps, Column, ColumnHeaderCell, SelectionModes, Table } from '@blueprintjs/table';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { type ActivityAction, type ActivityStatus, isBookable } from '../../domain/activityStatus';
import { formatHoursOrNA } from '../../domain/numberFormat';
import type { Activity } from '../../domain/schemas/productivity';
import { serverText } from '../shared/serverMessage';
import { columnsFromLeft } from '../shared/tableDirection';
import { type BookingDraft, type BookingField, bookedMinusActual, storedText } from './activityBooking';
import { formatQuantity } from './productivityFormat';

export interface ActivitiesTableProps {
  rows: readonly Activity[];
  /** Booking inputs, save, delays and row actions; false for read-only roles. */
  canWrite: boolean;
  drafts: Readonly<Record<number, BookingDraft>>;
  /** The server's (or the input check's) last word on a row. */
  errors: Readonly<Record<number, string>>;
  onDraft(activity: Activity, field: BookingField, text: string): void;
  onSave(activity: Activity): void;
  onAction(activity: Activity, action: ActivityAction): void;
  onDelays(activity: Activity): void;
  onHistory(activity: Activity): void;
  selectedIds: ReadonlySet<number>;
  /** Checkboxes may change the selection (not while an approval is in flight). */
  canSelect: boolean;
  onSelect(activity: Activity, selected: boolean): void;
  onSelectAll(selected: boolean): void;
}

type ColumnKey =
  | 'select'
  | 'day'
  | 'code'
  | 'name'
  | 'crew'
  | 'place'
  | 'uom'
  | 'targetQuantity'
  | 'plannedQuantity'
  | 'installedQuantity'
  | 'targetRate'
  | 'plannedHours'
  | 'bookedHours'
  | 'actualHours'
  | 'difference'
  | 'earnedHours'
  | 'gainHours'
  | 'lossHours'
  | 'delayHours'
  | 'status'
  | 'actions'
  | 'message';

const COLUMNS: readonly { key: ColumnKey; width: number }[] = [
  { key: 'select', width: 44 },
  { key: 'day', width: 96 },
  { key: 'code', width: 90 },
  { key: 'name', width: 180 },
  { key: 'crew', width: 120 },
  { key: 'place', width: 150 },
  { key: 'uom', width: 64 },
  { key: 'targetQuantity', width: 96 },
  { key: 'plannedQuantity', width: 96 },
  { key: 'installedQuantity', width: 110 },
  { key: 'targetRate', width: 90 },
  { key: 'plannedHours', width: 96 },
  { key: 'bookedHours', width: 110 },
  { key: 'actualHours', width: 180 },
  { key: 'difference', width: 110 },
  { key: 'earnedHours', width: 96 },
  { key: 'gainHours', width: 90 },
  { key: 'lossHours', width: 90 },
  { key: 'delayHours', width: 150 },
  { key: 'status', width: 176 },
  { key: 'actions', width: 250 },
  { key: 'message', width: 320 },
];

const { columns: COLUMNS_FROM_LEFT, widths: COLUMN_WIDTHS } = columnsFromLeft(COLUMNS);
const ROW_HEIGHT = 36;
const figure = (text: string, testId?: string, activityId?: number) => (
  <Cell className="sw-productivity-number">
    <span data-testid={testId} data-activity-id={activityId}>
      {text}
    </span>
  </Cell>
);

const STATUS_INTENT: Record<ActivityStatus, Intent> = {
  assigned: 'none',
  in_progress: 'primary',
  delayed: 'warning',
  done: 'primary',
  in_review: 'warning',
  approved_by_cm: 'success',
  approved: 'success',
};

/** Approval has its own button over the table; a row's buttons are its other actions. */
const ROW_ACTIONS: readonly ActivityAction[] = ['start', 'delay', 'resume', 'finish', 'submit', 'reject'];

const dash = (value: string | null | undefined) => (value ? value : '—');

/** A site's activities in a Blueprint table: figures, inline booking, delays, row actions and selection. */
export function ActivitiesTable(props: ActivitiesTableProps) {
  const { t, i18n } = useTranslation();
  const direction = i18n.dir() === 'rtl' ? 'rtl' : 'ltr';
  const { rows, canWrite, drafts, errors, selectedIds, canSelect } = props;
  const approvable = rows.filter((row) => row.actions.includes('approve'));
  const allSelected = approvable.length > 0 && approvable.every((row) => selectedIds.has(row.id));

  const bookingInput = (activity: Activity, field: BookingField, placeholder?: string) => {
    const text = drafts[activity.id]?.[field] ?? storedText(activity, field);
    const bookable = canWrite && activity.actions.length > 0 && isBookable(activity.status);
    if (!bookable) return null;
    return (
      <InputGroup
        small
        inputMode="decimal"
        dir="ltr"
        value={text}
        placeholder={placeholder}
        aria-label={`${t(`productivity.columns.${fieldColumn[field]}`)} ${activity.name}`}
        data-testid={`activity-${field}`}
        data-activity-id={activity.id}
        onValueChange={(value) => props.onDraft(activity, field, value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') props.onSave(activity);
        }}
      />
    );
  };

  const cell = (activity: Activity, key: ColumnKey): ReactElement<CellProps> => {
    switch (key) {
      case 'select':
        return (
          <Cell interactive>
            <Checkbox
              className="sw-productivity-check"
              checked={selectedIds.has(activity.id)}
              disabled={!canSelect || !activity.actions.includes('approve')}
              aria-label={t('productivity.selectRow', { name: activity.name })}
              data-testid="activity-select"
              data-activity-id={activity.id}
              onChange={(event) => props.onSelect(activity, event.currentTarget.checked)}
            />
          </Cell>
        );
      case 'day':
        return <Cell className="sw-productivity-ltr">{activity.day}</Cell>;
      case 'code':
        return <Cell className="sw-productivity-ltr">{activity.activity_code.code}</Cell>;
      case 'name':
        return (
          <Cell tooltip={activity.name}>
            <span data-testid="activity-name" data-activity-id={activity.id}>
              {activity.name}
            </span>
          </Cell>
        );
      case 'crew':
        return <Cell>{dash(activity.crew?.name)}</Cell>;
      case 'place':
        return <Cell>{dash(activity.zone?.name ?? activity.location_group?.name)}</Cell>;
      case 'uom':
        return <Cell>{activity.activity_code.uom}</Cell>;
      case 'targetQuantity':
        return figure(formatQuantity(activity.target_quantity));
      case 'plannedQuantity':
        return figure(formatQuantity(activity.planned_quantity));
      case 'installedQuantity':
        return (
          <Cell interactive>
            {bookingInput(activity, 'installed_quantity') ?? formatQuantity(activity.installed_quantity)}
          </Cell>
        );
      case 'targetRate':
        return figure(formatQuantity(activity.activity_code.target_rate));
      case 'plannedHours':
        return figure(formatHoursOrNA(activity.planned_hours));
      case 'bookedHours':
        return (
          <Cell interactive>
            {bookingInput(activity, 'booked_hours') ?? formatHoursOrNA(activity.booked_hours)}
          </Cell>
        );
      case 'actualHours': {
        const source = activity.actual_hours_typed ? 'typed' : 'presence';
        const input = bookingInput(activity, 'actual_hours', formatHoursOrNA(activity.presence_hours));
        return (
          <Cell interactive>
            <span
              className="sw-productivity-actual"
              data-testid="activity-actual"
              data-activity-id={activity.id}
            >
              {input ?? <span>{formatHoursOrNA(activity.actual_hours)}</span>}
              <Tag
                minimal
                round
                intent={activity.actual_hours_typed ? 'primary' : 'none'}
                data-source={source}
              >
                {t(`productivity.actualSource.${source}`)}
              </Tag>
            </span>
          </Cell>
        );
      }
      case 'difference': {
        const difference = bookedMinusActual(activity);
        const off = difference !== null && difference !== 0;
        return (
          <Cell className="sw-productivity-number" intent={off ? 'warning' : undefined}>
            <span
              className={off ? 'sw-productivity-difference' : undefined}
              data-testid="activity-difference"
              data-activity-id={activity.id}
            >
              {formatHoursOrNA(difference)}
            </span>
          </Cell>
        );
      }
      case 'earnedHours':
        return figure(formatHoursOrNA(activity.earned_hours));
      case 'gainHours':
        return figure(formatHoursOrNA(activity.gain_hours), 'activity-gain', activity.id);
      case 'lossHours':
        return figure(formatHoursOrNA(activity.loss_hours), 'activity-loss', activity.id);
      case 'delayHours':
        return (
          <Cell interactive>
            <span className="sw-productivity-delays">
              <span data-testid="activity-delay-hours" data-activity-id={activity.id}>
                {formatHoursOrNA(activity.delay_lost_hours)}
              </span>
              <Button
                small
                minimal
                icon="time"
                text={t('productivity.delays.open')}
                data-testid="activity-delays"
                data-activity-id={activity.id}
                onClick={() => props.onDelays(activity)}
              />
            </span>
          </Cell>
        );
      case 'status':
        return (
          <Cell interactive>
            <span className="sw-productivity-status">
              <Tag
                minimal
                intent={STATUS_INTENT[activity.status]}
                data-testid="activity-status"
                data-status={activity.status}
                data-activity-id={activity.id}
              >
                {t(`productivity.status.${activity.status}`)}
              </Tag>
              <Button
                small
                minimal
                icon="history"
                aria-label={t('productivity.history.openRow', { name: activity.name })}
                title={t('productivity.history.open')}
                data-testid="activity-history-open"
                data-activity-id={activity.id}
                onClick={() => props.onHistory(activity)}
              />
            </span>
          </Cell>
        );
      case 'actions': {
        if (!canWrite) return <Cell />;
        const draft = drafts[activity.id];
        return (
          <Cell interactive>
            <span className="sw-productivity-actions">
              {draft && Object.keys(draft).length > 0 ? (
                <Button
                  small
                  intent="primary"
                  icon="floppy-disk"
                  text={t('productivity.save')}
                  aria-label={t('productivity.saveRow', { name: activity.name })}
                  data-testid="activity-save"
                  data-activity-id={activity.id}
                  onClick={() => props.onSave(activity)}
                />
              ) : null}
              {ROW_ACTIONS.filter((action) => activity.actions.includes(action)).map((action) => (
                <Button
                  key={action}
                  small
                  intent={action === 'reject' ? 'danger' : 'none'}
                  text={t(`productivity.action.${action}`)}
                  data-testid={`activity-action-${action}`}
                  data-activity-id={activity.id}
                  onClick={() => props.onAction(activity, action)}
                />
              ))}
            </span>
          </Cell>
        );
      }
      case 'message': {
        const error = errors[activity.id];
        // The server's words, in the user's language where the catalogue has them.
        const text = error ? serverText(error, t) : (activity.rejection_reason ?? '');
        return (
          <Cell intent={error ? 'danger' : undefined} tooltip={text}>
            <span data-testid="activity-message" data-activity-id={activity.id}>
              {text}
            </span>
          </Cell>
        );
      }
    }
  };

  const header = (key: ColumnKey) => () => {
    if (key === 'select')
      return (
        <ColumnHeaderCell>
          <Checkbox
            className="sw-productivity-check"
            checked={allSelected}
            disabled={!canSelect || approvable.length === 0}
            aria-label={t('productivity.selectAll')}
            data-testid="activity-select-all"
            onChange={(event) => props.onSelectAll(event.currentTarget.checked)}
          />
        </ColumnHeaderCell>
      );
    return <ColumnHeaderCell name={t(`productivity.columns.${key}`)} />;
  };

  return (
    <div className="sw-productivity-table" data-testid="activities-table" dir="ltr">
      <Table
        // Reversed columns are new columns: a fresh table, so no cell of the other direction lingers.
        key={direction}
        numRows={rows.length}
        defaultRowHeight={ROW_HEIGHT}
        columnWidths={[...COLUMN_WIDTHS[direction]]}
        selectionModes={SelectionModes.NONE}
        enableRowHeader={false}
        cellRendererDependencies={[rows, drafts, errors, selectedIds, canSelect, canWrite, i18n.language]}
      >
        {COLUMNS_FROM_LEFT[direction].map(({ key }) => (
          <Column
            key={key}
            id={key}
            columnHeaderCellRenderer={header(key)}
            cellRenderer={(rowIndex) => cell(rows[rowIndex], key)}
          />
        ))}
      </Table>
    </div>
  );
}

const fieldColumn: Record<BookingField, ColumnKey> = {
  installed_quantity: 'installedQuantity',
  booked_hours: 'bookedHours',
  actual_hours: 'actualHours',
};
