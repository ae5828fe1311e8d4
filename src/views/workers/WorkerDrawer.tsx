import { Button, Drawer, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteWorker, workerPictureQuery, workerQuery } from '../../api/workers/worker';
import { toWorkerDisplay, type WorkerDisplay } from '../../domain/workers';
import { currentLocale } from '../../i18n';
import { DiscardChangesAlert } from '../forms/DiscardChangesAlert';
import { notify } from '../notify';
import { useApi, useTokenSource } from '../session/SessionProvider';
import { ConfirmAlert } from '../shared/ConfirmAlert';
import { HelmetHistoryPanel } from './HelmetHistoryPanel';
import { HelmetPanel } from './HelmetPanel';
import { LastSeenMap } from './LastSeenMap';
import { WorkerAssignmentsPanel } from './WorkerAssignmentsPanel';
import { WorkerForm } from './WorkerForm';
import { WorkerHistoryButton } from './WorkerHistoryDialog';

/** Wide enough for the picture beside the name and both actions. */
const DRAWER_WIDTH = '440px';

export type DrawerTarget = { mode: 'new' } | { mode: 'view'; workerId: number };

interface WorkerDrawerProps {
  siteId: number;
  target: DrawerTarget;
  canWrite: boolean;
  onClose(): void;
  /** Something was saved: the list is stale. With an id, the drawer moves to that worker. */
  onChanged(workerId?: number): void;
}

/** The worker's picture, fetched with the token; a default icon when none or while loading. */
function WorkerPicture({ url, version, alt }: { url: string | null; version: string; alt: string }) {
  const tokenSource = useTokenSource();
  const picture = useQuery({
    ...workerPictureQuery(tokenSource, url ?? '', version),
    enabled: url !== null,
  });
  const src = useMemo(() => (picture.data ? URL.createObjectURL(picture.data) : null), [picture.data]);
  useEffect(() => () => (src ? URL.revokeObjectURL(src) : undefined), [src]);
  if (!src)
    return <div className="sw-worker-picture sw-worker-picture-default" role="img" aria-label={alt} />;
  return <img className="sw-worker-picture" src={src} alt={alt} data-testid="worker-picture" />;
}

const DETAIL_KEYS = [
  'worker_tag_id',
  'status',
  'worker_role',
  'subcontractor',
  'crew_name',
  'workshift_name',
  'worker_status',
  'contact_number',
  'building',
  // Floor, zone and last seen are in the last-seen section below, which follows the live position.
  'last_active',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof WorkerDisplay)[];

/** One worker in a side drawer (the spec has no /workers/:id route): details, helmet, edit, delete. */
export function WorkerDrawer({ siteId, target, canWrite, onClose, onChanged }: WorkerDrawerProps) {
  const { t } = useTranslation();
  const api = useApi();
  const [editing, setEditing] = useState(target.mode === 'new');
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  // The open form's unsaved changes: closing the drawer over them asks first (spec §8).
  const [formDirty, setFormDirty] = useState(false);
  const [confirmingClose, setConfirmingClose] = useState(false);
  const requestClose = () => (formDirty ? setConfirmingClose(true) : onClose());
  const workerId = target.mode === 'view' ? target.workerId : 0;
  // The drawer stays open from "new" to the saved worker (no second slide-in): its mode follows the target.
  useEffect(() => {
    setEditing(target.mode === 'new' && workerId === 0);
    setConfirmingDelete(false);
  }, [target.mode, workerId]);
  const worker = useQuery({ ...workerQuery(api, siteId, workerId), enabled: workerId > 0 });
  const locale = currentLocale();
  const placeholder = t('workers.placeholder');
  const display = worker.data ? toWorkerDisplay(worker.data, { placeholder, now: new Date(), locale }) : null;
  const remove = useMutation({
    mutationFn: () => deleteWorker(api, siteId, workerId),
    onSuccess: (message) => {
      setConfirmingDelete(false);
      void notify({ message, intent: 'success' });
      onChanged();
      onClose();
    },
    onError: (error) => {
      setConfirmingDelete(false);
      void notify({ message: error.message, intent: 'danger' });
    },
  });

  const statusText = (status: string) =>
    status === 'active' || status === 'inactive' || status === 'offline'
      ? t(`workers.status.${status}`)
      : status;

  let body = null;
  if (target.mode === 'new' || (editing && worker.data)) {
    body = (
      <WorkerForm
        siteId={siteId}
        worker={target.mode === 'new' ? null : (worker.data ?? null)}
        onCancel={() => (target.mode === 'new' ? onClose() : setEditing(false))}
        onDirtyChange={setFormDirty}
        onSaved={(id, message) => {
          void notify({ message, intent: 'success' });
          setEditing(false);
          onChanged(id);
        }}
      />
    );
  } else if (worker.isPending) {
    body = <Spinner aria-label={t('common.loading')} />;
  } else if (worker.isError || !display) {
    body = (
      <NonIdealState
        icon="error"
        description={worker.error?.message ?? t('common.somethingWentWrong')}
        action={<Button text={t('common.retry')} onClick={() => void worker.refetch()} />}
      />
    );
  } else {
    body = (
      <div className="sw-worker-page" data-testid="worker-details">
        <div className="sw-worker-head">
          <WorkerPicture
            url={display.image.url}
            version={worker.data?.updated_at ?? ''}
            alt={t('workers.picture')}
          />
          <div>
            <h2 className="bp6-heading" data-testid="worker-name">
              {display.name}
            </h2>
            {canWrite && (
              <div className="sw-worker-actions">
                <Button
                  icon="edit"
                  text={t('workers.edit')}
                  onClick={() => setEditing(true)}
                  data-testid="worker-edit"
                />
                <Button
                  icon="trash"
                  intent="danger"
                  text={t('workers.delete')}
                  onClick={() => setConfirmingDelete(true)}
                  data-testid="worker-delete"
                />
              </div>
            )}
          </div>
        </div>
        <dl className="sw-worker-fields">
          {DETAIL_KEYS.map((key) => (
            <div key={key}>
              <dt>{t(`workers.column.${key}`)}</dt>
              <dd data-testid={`worker-detail-${key}`}>
                {key === 'status' ? (
                  statusText(display.status)
                ) : key === 'worker_status' && display.worker_status !== placeholder ? (
                  <Tag minimal intent="warning" data-testid="worker-status-tag">
                    {display.worker_status}
                  </Tag>
                ) : (
                  display[key]
                )}
              </dd>
            </div>
          ))}
        </dl>
        <LastSeenMap siteId={siteId} worker={worker.data!} onLeftFloor={() => void worker.refetch()} />
        <WorkerHistoryButton workerId={display.id} workerName={display.name} />
        <HelmetPanel
          siteId={siteId}
          workerId={display.id}
          display={display}
          canWrite={canWrite}
          onChanged={() => {
            void worker.refetch();
            onChanged(display.id);
          }}
        />
        <HelmetHistoryPanel history={worker.data?.HelmetHistory ?? []} />
        <WorkerAssignmentsPanel
          siteId={siteId}
          worker={worker.data}
          onChanged={() => {
            void worker.refetch();
            onChanged(display.id);
          }}
        />
      </div>
    );
  }

  return (
    <Drawer
      isOpen
      onClose={requestClose}
      size={DRAWER_WIDTH}
      position={document.documentElement.dir === 'rtl' ? 'left' : 'right'}
      title={target.mode === 'new' ? t('workers.new') : editing ? t('workers.edit') : t('workers.details')}
      className="sw-worker-drawer"
    >
      <div className="bp6-drawer-body sw-worker-drawer-body" data-testid="worker-drawer">
        {body}
      </div>
      <ConfirmAlert
        isOpen={confirmingDelete}
        intent="danger"
        icon="trash"
        confirmText={t('workers.confirm.yes')}
        cancelText={t('workers.confirm.no')}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirmingDelete(false)}
      >
        <p>{t('workers.deleteConfirm')}</p>
      </ConfirmAlert>
      <DiscardChangesAlert
        isOpen={confirmingClose}
        onProceed={() => {
          setConfirmingClose(false);
          onClose();
        }}
        onStay={() => setConfirmingClose(false)}
      />
    </Drawer>
  );
}
