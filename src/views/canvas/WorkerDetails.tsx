import { Button, Card, H5, Tag } from '@blueprintjs/core';
import { type KeyboardEvent, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { connectionStatus, type WorkerOnMap } from '../../domain/inventory';
import { markerLabel } from '../../domain/personalData';
import { relativeTimeOf } from '../../domain/workers';
import defaultProfile from './defaultProfile.svg';

/** Spec §3: a missing contact number, subcontractor or last-seen reads -NA-. */
const NA = '-NA-';

const STATUS_INTENT = { active: 'success', inactive: 'danger', offline: 'none' } as const;

interface WorkerDetailsProps {
  worker: WorkerOnMap;
  /** The worker's floor named with its building (placeNames.ts). */
  floorPlace: string | null;
  onClose(): void;
}

/**
 * The picked helmet's worker (spec §3 "Worker on the map") in a card beside the canvas. A viewer
 * who may not see the wearer (src/domain/personalData.ts) gets an anonymous marker: the helmet id
 * stands in for the name and the personal fields read -NA-.
 */
export function WorkerDetails({ worker, floorPlace, onClose }: WorkerDetailsProps) {
  const { t, i18n } = useTranslation();
  const closeRef = useRef<HTMLButtonElement>(null);
  const status = connectionStatus(worker);
  const lastSeen = relativeTimeOf(worker.last_seen, new Date(), i18n.language);

  // Opening from a click leaves focus on the canvas; Escape there closes it too (the engine's).
  useEffect(() => {
    if (document.activeElement === document.body) closeRef.current?.focus();
  }, []);

  const rows: [string, string | null, string][] = [
    [t('canvas.worker.tag'), worker.worker_tag_id, 'worker-tag'],
    [t('canvas.worker.helmet'), worker.wnt_inventory_id, 'worker-helmet'],
    [t('canvas.worker.role'), worker.role_name, 'worker-role'],
    [t('canvas.worker.subcontractor'), worker.subcontractor_name ?? NA, 'worker-subcontractor'],
    [t('canvas.worker.contact'), worker.contact_number ?? NA, 'worker-contact'],
    [t('canvas.worker.zone'), worker.zone_name, 'worker-zone'],
    [t('canvas.worker.floor'), floorPlace, 'worker-floor'],
    [t('canvas.worker.lastSeen'), lastSeen ?? NA, 'worker-last-seen'],
  ];

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    onClose();
  };

  return (
    <Card
      className="sw-worker-details"
      data-testid="worker-details"
      data-inventory-id={worker.inventory_id}
      role="dialog"
      aria-label={t('canvas.worker.details')}
      onKeyDown={onKeyDown}
    >
      <div className="sw-worker-details__head">
        <img
          className="sw-worker-details__picture"
          src={worker.profile_picture_path ?? defaultProfile}
          alt=""
          width={48}
          height={48}
        />
        <div className="sw-worker-details__title">
          <H5 data-testid="worker-name">
            <bdi>{markerLabel(worker)}</bdi>
          </H5>
          <Tag minimal intent={STATUS_INTENT[status]} data-testid="worker-status">
            {t(`canvas.worker.status.${status}`)}
          </Tag>
        </div>
        <Button
          ref={closeRef}
          variant="minimal"
          icon="cross"
          aria-label={t('canvas.worker.close')}
          onClick={onClose}
        />
      </div>
      <dl className="sw-worker-details__fields">
        {rows.map(([label, value, testId]) => (
          <div key={testId}>
            <dt>{label}</dt>
            <dd data-testid={testId}>
              <bdi>{value ?? NA}</bdi>
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
