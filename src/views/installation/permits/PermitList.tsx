import { Button, HTMLTable, Tag } from '@blueprintjs/core';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  isInForce,
  nextStatuses,
  type PermitStatus,
  permitRuleOf,
  type WorkPermit,
} from '../../../domain/workPermits';

const STATUS_INTENT = { draft: 'none', active: 'success', suspended: 'warning', closed: 'none' } as const;
const DATE_FORMAT = 'DD/MM/YYYY HH:mm';

interface PermitListProps {
  permits: readonly WorkPermit[];
  nowMs: number;
  selectedId: number | null;
  canWrite: boolean;
  /** The permit whose change is under way. */
  pendingId: number | null;
  onSelect(id: number): void;
  onStatus(permit: WorkPermit, status: PermitStatus): void;
  onEdit(permit: WorkPermit): void;
  onDelete(permit: WorkPermit): void;
}

/** The floor's permits: number, type, holder, validity, status (and whether in force), grid reference. */
export function PermitList(props: PermitListProps) {
  const { permits, nowMs, selectedId, canWrite, pendingId, onSelect, onStatus, onEdit, onDelete } = props;
  const { t } = useTranslation();
  return (
    <HTMLTable compact interactive className="sw-permits-table" data-testid="permits-table">
      <thead>
        <tr>
          <th>{t('permits.column.number')}</th>
          <th>{t('permits.column.type')}</th>
          <th>{t('permits.column.holder')}</th>
          <th>{t('permits.column.validity')}</th>
          <th>{t('permits.column.status')}</th>
          <th>{t('permits.column.grid')}</th>
          {canWrite && <th>{t('permits.column.actions')}</th>}
        </tr>
      </thead>
      <tbody>
        {permits.map((permit) => {
          const inForce = isInForce(permitRuleOf(permit), nowMs);
          return (
            <tr
              key={permit.id}
              data-testid="permit-row"
              data-permit-number={permit.number}
              data-status={permit.status}
              data-in-force={inForce}
              aria-selected={permit.id === selectedId}
              className={permit.id === selectedId ? 'sw-permit-selected' : undefined}
              onClick={() => onSelect(permit.id)}
            >
              <td dir="ltr">
                <bdi>{permit.number}</bdi>
              </td>
              <td data-testid="permit-type-cell">{t(`permits.type.${permit.type}`)}</td>
              <td>
                <bdi>{permit.holder_name}</bdi>
              </td>
              <td>
                {t('permits.validity', {
                  from: dayjs(permit.valid_from).format(DATE_FORMAT),
                  to: dayjs(permit.valid_to).format(DATE_FORMAT),
                })}
              </td>
              <td data-testid="permit-status-cell">
                <Tag intent={STATUS_INTENT[permit.status]} minimal={permit.status !== 'active'}>
                  {t(`permits.status.${permit.status}`)}
                </Tag>{' '}
                <Tag minimal intent={inForce ? 'danger' : 'none'} data-testid="permit-in-force">
                  {inForce ? t('permits.inForce') : t('permits.notInForce')}
                </Tag>
              </td>
              <td data-testid="permit-grid" dir="ltr">
                {permit.grid_ref ?? '–'}
              </td>
              {canWrite && (
                <td className="sw-permit-actions">
                  {nextStatuses(permit.status).map((status) => (
                    <Button
                      key={status}
                      size="small"
                      variant="minimal"
                      data-testid={`permit-to-${status}`}
                      text={t(`permits.action.${status}`)}
                      disabled={pendingId !== null}
                      loading={pendingId === permit.id}
                      onClick={(event) => {
                        event.stopPropagation();
                        onStatus(permit, status);
                      }}
                    />
                  ))}
                  {permit.status !== 'closed' && (
                    <Button
                      size="small"
                      variant="minimal"
                      icon="edit"
                      aria-label={t('permits.action.edit')}
                      data-testid="permit-edit"
                      onClick={(event) => {
                        event.stopPropagation();
                        onEdit(permit);
                      }}
                    />
                  )}
                  <Button
                    size="small"
                    variant="minimal"
                    intent="danger"
                    icon="trash"
                    aria-label={t('permits.action.delete')}
                    data-testid="permit-delete"
                    onClick={(event) => {
                      event.stopPropagation();
                      onDelete(permit);
                    }}
                  />
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </HTMLTable>
  );
}
