import { Button, ButtonGroup, Callout, HTMLSelect, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError, isCancelled } from '../../../api/apiError';
import { queryKeys } from '../../../api/queryKeys';
import {
  createWorkPermit,
  deleteWorkPermit,
  editWorkPermit,
  type PermitFloorPath,
  usePermitHolders,
  useWorkPermits,
  type WorkPermit,
  type WorkPermitBody,
} from '../../../api/workPermits';
import { can } from '../../../domain/access';
import type { Floor, LongLat } from '../../../domain/floor';
import { cornerRing } from '../../../domain/floorValidation';
import {
  isInForce,
  PERMIT_STATUSES,
  PERMIT_TYPES,
  type PermitStatus,
  type PermitType,
  permitRuleOf,
} from '../../../domain/workPermits';
import { type ZoneDrawingSnapshot, zoneDrawingMachine } from '../../../machines/zoneDrawing.machine';
import type { PermitShapes } from '../../canvas/layers/PermitsLayer';
import { notify } from '../../notify';
import { useApi, useSession } from '../../session/SessionProvider';
import { ConfirmAlert } from '../../shared/ConfirmAlert';
import { failureText, serverFieldErrorsOf, serverMessageOf } from '../../shared/serverMessage';
import { PermitCanvas } from './PermitCanvas';
import { PermitDialog, type PermitDialogTarget } from './PermitDialog';
import { PermitList } from './PermitList';
import './permits.css';

const selectPhase = (snapshot: ZoneDrawingSnapshot) => snapshot.value as string;
const selectVertices = (snapshot: ZoneDrawingSnapshot) => snapshot.context.vertices;
const selectCanClose = (snapshot: ZoneDrawingSnapshot) => snapshot.can({ type: 'draw.close' });
const selectCanUndo = (snapshot: ZoneDrawingSnapshot) => snapshot.can({ type: 'draw.undo' });

/** How often "in force" is judged again: a permit's validity starts and ends on the minute. */
const CLOCK_MS = 30_000;

/**
 * The installation screen's "Work permits" tab: a floor's permits on its canvas (coloured by
 * type, dimmed and hatched when not in force) and in a filtered list, with drawing a new area
 * (the zone drawing machine: its closed ring opens the permit dialog), editing, status changes
 * and deletion after a confirmation.
 */
export function WorkPermitsTab(props: { floor: Floor; siteId: number; clientId: number }) {
  const { floor, siteId, clientId } = props;
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const canWrite = user ? can(user.user_role, 'write', 'installation') : false;
  const path: PermitFloorPath = useMemo(
    () => ({ clientId, siteId, floorId: floor.id }),
    [clientId, siteId, floor.id],
  );
  const permits = useWorkPermits(api, path);
  const holders = usePermitHolders(api, clientId, siteId);

  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), CLOCK_MS);
    return () => clearInterval(timer);
  }, []);

  const [statusFilter, setStatusFilter] = useState<PermitStatus | ''>('');
  const [typeFilter, setTypeFilter] = useState<PermitType | ''>('');
  const [inForceOnly, setInForceOnly] = useState(false);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<PermitDialogTarget | null>(null);
  const [dialogError, setDialogError] = useState<{ message: string; fields: Record<string, string> } | null>(
    null,
  );
  const [deleting, setDeleting] = useState<WorkPermit | null>(null);

  // The zone drawing machine draws the area; its "naming" step is this tab's permit dialog.
  const drawing = useActorRef(zoneDrawingMachine);
  const phase = useSelector(drawing, selectPhase);
  const vertices = useSelector(drawing, selectVertices);
  const canClose = useSelector(drawing, selectCanClose);
  const canUndo = useSelector(drawing, selectCanUndo);
  useEffect(() => {
    if (phase === 'naming') {
      setDialogError(null);
      setDialog({ mode: 'create', area: vertices.map(([long, lat]): LongLat => [long, lat]) });
    }
  }, [phase, vertices]);
  // Another floor: an area being drawn belonged to the old one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the floor's id is the trigger.
  useEffect(() => {
    drawing.send({ type: 'draw.interrupt' });
    setDialog(null);
    setSelectedId(null);
  }, [drawing, floor.id]);
  useEffect(() => {
    if (phase !== 'drawing') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') drawing.send({ type: 'draw.cancel' });
      if (event.key === 'Enter') drawing.send({ type: 'draw.close' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawing, phase]);

  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.workPermits.byFloor(floor.id) });
  const refusal = (error: unknown) =>
    isApiError(error)
      ? {
          message: serverMessageOf(error, t('common.somethingWentWrong'), t),
          fields: serverFieldErrorsOf(error, t),
        }
      : { message: t('common.somethingWentWrong'), fields: {} };

  const save = useMutation({
    mutationFn: (body: WorkPermitBody) =>
      dialog?.mode === 'edit'
        ? editWorkPermit(api, path, dialog.permit.id, body)
        : createWorkPermit(api, path, body),
    onSuccess: (permit) => {
      const created = dialog?.mode === 'create';
      setDialog(null);
      setSelectedId(permit.id);
      drawing.send({ type: 'draw.cancel' });
      void invalidate();
      void notify({
        message: t(created ? 'permits.toast.created' : 'permits.toast.updated', { number: permit.number }),
        intent: 'success',
      });
    },
    onError: (error) => {
      if (!isCancelled(error)) setDialogError(refusal(error));
    },
  });

  const changeStatus = useMutation({
    mutationFn: ({ permit, status }: { permit: WorkPermit; status: PermitStatus }) =>
      editWorkPermit(api, path, permit.id, { status }),
    onSuccess: (permit) => {
      void invalidate();
      void notify({ message: t('permits.toast.updated', { number: permit.number }), intent: 'success' });
    },
    onError: (error) =>
      void notify({ message: failureText(error, t('common.somethingWentWrong'), t), intent: 'danger' }),
  });

  const remove = useMutation({
    mutationFn: (permit: WorkPermit) => deleteWorkPermit(api, path, permit.id).then(() => permit),
    onSuccess: (permit) => {
      setDeleting(null);
      if (selectedId === permit.id) setSelectedId(null);
      void invalidate();
      void notify({ message: t('permits.toast.deleted', { number: permit.number }), intent: 'success' });
    },
    onError: (error) => {
      setDeleting(null);
      void notify({ message: failureText(error, t('common.somethingWentWrong'), t), intent: 'danger' });
    },
  });

  const shown = useMemo(
    () =>
      (permits.data ?? []).filter(
        (permit) =>
          (statusFilter === '' || permit.status === statusFilter) &&
          (typeFilter === '' || permit.type === typeFilter) &&
          (!inForceOnly || isInForce(permitRuleOf(permit), nowMs)),
      ),
    [permits.data, statusFilter, typeFilter, inForceOnly, nowMs],
  );
  const shapes: PermitShapes = useMemo(
    () => ({
      permits: shown.map((permit) => ({
        id: permit.id,
        type: permit.type,
        area: permit.area,
        inForce: isInForce(permitRuleOf(permit), nowMs),
      })),
      selectedId,
    }),
    [shown, nowMs, selectedId],
  );

  const drawingNow = phase === 'drawing';
  return (
    <div className="sw-permits" data-testid="work-permits-tab">
      <div className="sw-permits-toolbar">
        {canWrite &&
          (drawingNow ? (
            <ButtonGroup>
              <Button
                intent="primary"
                icon="tick"
                text={t('permits.finish')}
                disabled={!canClose}
                data-testid="permit-draw-finish"
                onClick={() => drawing.send({ type: 'draw.close' })}
              />
              <Button
                icon="undo"
                text={t('permits.undo')}
                disabled={!canUndo}
                onClick={() => drawing.send({ type: 'draw.undo' })}
              />
              <Button
                icon="cross"
                text={t('permits.cancelDrawing')}
                data-testid="permit-draw-cancel"
                onClick={() => drawing.send({ type: 'draw.cancel' })}
              />
            </ButtonGroup>
          ) : (
            <Button
              intent="primary"
              icon="draw"
              text={t('permits.draw')}
              data-testid="permit-draw"
              disabled={phase !== 'idle'}
              onClick={() =>
                drawing.send({ type: 'draw.start', floor: cornerRing(floor.coordinates) as LongLat[] })
              }
            />
          ))}
        <HTMLSelect
          aria-label={t('permits.filter.status')}
          data-testid="permit-filter-status"
          value={statusFilter}
          onChange={(event) => setStatusFilter(event.currentTarget.value as PermitStatus | '')}
          options={[
            { value: '', label: t('permits.filter.allStatuses') },
            ...PERMIT_STATUSES.map((value) => ({ value, label: t(`permits.status.${value}`) })),
          ]}
        />
        <HTMLSelect
          aria-label={t('permits.filter.type')}
          data-testid="permit-filter-type"
          value={typeFilter}
          onChange={(event) => setTypeFilter(event.currentTarget.value as PermitType | '')}
          options={[
            { value: '', label: t('permits.filter.allTypes') },
            ...PERMIT_TYPES.map((value) => ({ value, label: t(`permits.type.${value}`) })),
          ]}
        />
        <Switch
          className="sw-permits-in-force"
          data-testid="permit-filter-in-force"
          label={t('permits.filter.inForceOnly')}
          checked={inForceOnly}
          onChange={(event) => setInForceOnly(event.currentTarget.checked)}
        />
      </div>
      {drawingNow && (
        <Callout compact icon="info-sign" data-testid="permit-draw-hint">
          {t('permits.drawHint')}
        </Callout>
      )}
      <div className="sw-permits-body">
        <PermitCanvas
          floor={floor}
          shapes={shapes}
          drawing={drawing}
          draft={phase === 'idle' ? null : vertices}
        />
        <div className="sw-permits-list">
          {permits.isPending ? (
            <Spinner size={20} />
          ) : permits.isError ? (
            <Callout intent="danger" compact>
              {t('permits.loadError')}
            </Callout>
          ) : shown.length === 0 ? (
            <NonIdealState icon="document" title={t('permits.empty')} />
          ) : (
            <PermitList
              permits={shown}
              nowMs={nowMs}
              selectedId={selectedId}
              canWrite={canWrite}
              pendingId={changeStatus.isPending ? (changeStatus.variables?.permit.id ?? null) : null}
              onSelect={setSelectedId}
              onStatus={(permit, status) => changeStatus.mutate({ permit, status })}
              onEdit={(permit) => {
                setDialogError(null);
                setDialog({ mode: 'edit', permit });
              }}
              onDelete={setDeleting}
            />
          )}
        </div>
      </div>
      {dialog && (
        <PermitDialog
          key={dialog.mode === 'edit' ? dialog.permit.id : 'new'}
          target={dialog}
          holders={holders.data}
          busy={save.isPending}
          error={dialogError}
          onSubmit={(body) => save.mutate(body)}
          onCancel={() => {
            setDialog(null);
            drawing.send({ type: 'draw.cancel' });
          }}
        />
      )}
      <ConfirmAlert
        isOpen={deleting !== null}
        className="sw-permit-confirm"
        intent="danger"
        icon="trash"
        busy={remove.isPending}
        escapeCancels
        confirmText={t('permits.delete')}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      >
        <p data-testid="permit-confirm-delete">
          {t('maps.confirmDelete', { label: t('permits.deleteLabel', { number: deleting?.number ?? '' }) })}
        </p>
      </ConfirmAlert>
    </div>
  );
}
