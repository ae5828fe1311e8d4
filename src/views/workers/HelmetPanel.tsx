import { Button, HTMLSelect, Spinner } from '@blueprintjs/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { assignHelmet, unassignedHelmetsQuery, unassignHelmet } from '../../api/workers/helmets';
import type { WorkerDisplay } from '../../domain/workers';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { ConfirmAlert } from '../shared/ConfirmAlert';
import { helmetDotColor } from './workerColumns';

interface HelmetPanelProps {
  siteId: number;
  workerId: number;
  display: WorkerDisplay;
  canWrite: boolean;
  /** After an assignment or unassignment: the worker, the list and the picker are stale. */
  onChanged(): void;
}

/** The worker's helmet: shown with its colour dot; assigned from the unassigned ones, or unassigned after a confirmation. */
export function HelmetPanel({ siteId, workerId, display, canWrite, onChanged }: HelmetPanelProps) {
  const { t } = useTranslation();
  const api = useApi();
  const hasHelmet = display.inventory_id !== null;
  const [picked, setPicked] = useState('');
  const [confirming, setConfirming] = useState(false);
  const helmets = useQuery({ ...unassignedHelmetsQuery(api, siteId), enabled: canWrite && !hasHelmet });
  const failed = (error: Error) => void notify({ message: error.message, intent: 'danger' });
  const assign = useMutation({
    mutationFn: (helmetId: number) => assignHelmet(api, siteId, workerId, helmetId),
    onSuccess: (message) => {
      setPicked('');
      void notify({ message, intent: 'success' });
      onChanged();
    },
    onError: failed,
  });
  const unassign = useMutation({
    mutationFn: () => unassignHelmet(api, siteId, workerId),
    onSuccess: (message) => {
      setConfirming(false);
      void notify({ message, intent: 'success' });
      onChanged();
    },
    onError: (error) => {
      setConfirming(false);
      failed(error);
    },
  });
  const color = helmetDotColor(display.helmet.color);

  return (
    <section className="sw-worker-helmet" data-testid="worker-helmet">
      <h3 className="bp6-heading">{t('workers.helmet.title')}</h3>
      {hasHelmet ? (
        <div className="sw-worker-helmet-row">
          <span className="sw-workers-helmet" data-testid="worker-helmet-current">
            {color && (
              <span className="sw-helmet-dot" style={{ background: color }} title={display.helmet.color} />
            )}
            <span>{display.helmet.wnt_inventory_id}</span>
          </span>
          <span className="bp6-text-muted">{display.inventory_assigned_at}</span>
          {canWrite && (
            <Button
              intent="warning"
              icon="disable"
              text={t('workers.helmet.unassign')}
              onClick={() => setConfirming(true)}
              data-testid="worker-helmet-unassign"
            />
          )}
        </div>
      ) : (
        <div className="sw-worker-helmet-row">
          <span className="bp6-text-muted">{t('workers.helmet.none')}</span>
          {canWrite &&
            (helmets.isPending ? (
              <Spinner size={16} />
            ) : (
              <>
                <HTMLSelect
                  value={picked}
                  onChange={(event) => setPicked(event.currentTarget.value)}
                  aria-label={t('workers.helmet.pick')}
                  data-testid="worker-helmet-picker"
                >
                  <option value="">
                    {(helmets.data ?? []).length === 0
                      ? t('workers.helmet.noneAvailable')
                      : t('workers.helmet.pick')}
                  </option>
                  {(helmets.data ?? []).map((helmet) => (
                    <option key={helmet.value} value={helmet.value}>
                      {helmet.label}
                    </option>
                  ))}
                </HTMLSelect>
                <Button
                  intent="primary"
                  icon="link"
                  text={t('workers.helmet.assign')}
                  disabled={picked === ''}
                  loading={assign.isPending}
                  onClick={() => assign.mutate(Number(picked))}
                  data-testid="worker-helmet-assign"
                />
              </>
            ))}
        </div>
      )}
      <ConfirmAlert
        isOpen={confirming}
        intent="warning"
        icon="warning-sign"
        confirmText={t('workers.confirm.yes')}
        cancelText={t('workers.confirm.no')}
        busy={unassign.isPending}
        onConfirm={() => unassign.mutate()}
        onCancel={() => setConfirming(false)}
        className="sw-worker-unassign-alert"
      >
        <p>{t('workers.helmet.unassignConfirm')}</p>
      </ConfirmAlert>
    </section>
  );
}
