import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError, isCancelled } from '../../api/apiError';
import { approveAnchor, type UnapprovedAnchor } from '../../api/installation';
import { queryKeys } from '../../api/queryKeys';
import type { ApprovalSettings } from '../../domain/schemas/installation';
import {
  type AnchorApprovalSnapshot,
  anchorApprovalMachine,
  selectApprovalError,
  selectApprovalState,
  selectCanBack,
  selectCanConfirm,
  selectCanPlace,
  selectCanRetry,
  selectCanSubmit,
  selectCanUsePlanning,
  selectOverrideReason,
  selectPlacement,
  selectProblems,
  selectSelectedAnchor,
} from '../../machines/anchorApproval.machine';
import { errorMessageOf } from '../maps/mapsErrors';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { serverFieldErrorsOf } from '../shared/serverMessage';

/**
 * The anchor approval machine (src/machines/anchorApproval.machine.ts) with its real save: POST
 * /api/installation/anchor/approve with the placement (the planning anchor's id when taken from
 * it), then `save.succeeded` (the lists refreshed, so the anchor leaves the unapproved one) or
 * `save.failed` with the server's words and each failed check it names.
 */
export function useAnchorApproval(floorId: number, siteId: number, settings: ApprovalSettings) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const latest = useRef({ t });
  latest.current = { t };

  const inFlight = useRef<AbortController | null>(null);

  // Provided once: the actions read the current texts through `latest`.
  const [machine] = useState(() =>
    anchorApprovalMachine.provide({
      actions: {
        requestSave: ({ self }, body) => {
          const controller = new AbortController();
          inFlight.current = controller;
          approveAnchor(api, body, controller.signal).then(
            (item) => {
              if (controller.signal.aborted) return;
              inFlight.current = null;
              self.send({ type: 'save.succeeded' });
              void queryClient.invalidateQueries({
                queryKey: queryKeys.installation.unapproved(siteId, floorId),
              });
              void queryClient.invalidateQueries({ queryKey: queryKeys.nodeMap.floor(floorId) });
              void queryClient.invalidateQueries({ queryKey: queryKeys.nodes.bySite(siteId) });
              void notify({
                message: latest.current.t('installation.approval.ui.approved', {
                  name: item.wnt_inventory_id,
                }),
                intent: 'success',
              });
            },
            (error: unknown) => {
              if (controller.signal.aborted || isCancelled(error)) return;
              inFlight.current = null;
              // The server is the authority: the checks its refusal names replace the console's.
              const fields = isApiError(error) ? serverFieldErrorsOf(error) : {};
              const named = Object.entries(fields)
                .filter(([field]) => field !== 'override_reason')
                .map(([, text]) => text);
              self.send({
                type: 'save.failed',
                message: errorMessageOf(error, latest.current.t('common.somethingWentWrong')),
                problems: named.length > 0 ? named : undefined,
              });
            },
          );
        },
        abortSave: () => {
          inFlight.current?.abort();
          inFlight.current = null;
        },
      },
    }),
  );
  const actor = useActorRef(machine, { input: { settings, floorId } });

  const state = useSelector(actor, selectApprovalState);
  const selected = useSelector(actor, selectSelectedAnchor);
  const placement = useSelector(actor, selectPlacement);
  const problems = useSelector(actor, selectProblems);
  const overrideReason = useSelector(actor, selectOverrideReason);
  const error = useSelector(actor, selectApprovalError);
  const canConfirm = useSelector(actor, selectCanConfirm);
  const canSubmit = useSelector(actor, selectCanSubmit);
  const canRetry = useSelector(actor, selectCanRetry);
  const canBack = useSelector(actor, selectCanBack);
  const canUsePlanning = useSelector(actor, selectCanUsePlanning);
  const canCancel = useSelector(actor, selectCanCancelApproval);

  const actions = useMemo(
    () => ({
      select: (anchor: UnapprovedAnchor) => actor.send({ type: 'anchor.select', anchor }),
      place: (point: { lat: number; long: number }, source: 'drag' | 'planning') =>
        actor.send({ type: 'placement.set', point, source }),
      /** Whether a placement may be set now (an anchor is selected, nothing is being saved). */
      canPlace: () => selectCanPlace(actor.getSnapshot()),
      openConfirm: () => actor.send({ type: 'confirm.open', at: Date.now() }),
      setReason: (reason: string) => actor.send({ type: 'override.change', reason }),
      submit: () => actor.send({ type: 'confirm.submit' }),
      retry: () => actor.send({ type: 'retry' }),
      back: () => actor.send({ type: 'back' }),
      cancel: () => actor.send({ type: 'cancel' }),
    }),
    [actor],
  );

  return {
    actor,
    state,
    selected,
    placement,
    problems,
    overrideReason,
    error,
    canConfirm,
    canSubmit,
    canRetry,
    canBack,
    canCancel,
    canUsePlanning,
    ...actions,
  };
}

/** Anything but idle can be cancelled (the machine takes `cancel` everywhere). */
const selectCanCancelApproval = (snapshot: AnchorApprovalSnapshot) => !snapshot.matches('idle');

export type AnchorApproval = ReturnType<typeof useAnchorApproval>;
