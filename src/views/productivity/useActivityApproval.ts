import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { fromCallback } from 'xstate';
import { isCancelled } from '../../api/client';
import { approveActivities } from '../../api/productivity';
import { queryKeys } from '../../api/queryKeys';
import type { Activity } from '../../domain/schemas/productivity';
import {
  type ActivityApprovalEvent,
  type ApprovalRow,
  type ApproveInput,
  activityApprovalMachine,
  selectCanSelect,
} from '../../machines/activityApproval.machine';
import { useApi } from '../session/SessionProvider';

export const approvalRowOf = (activity: Activity): ApprovalRow => ({
  id: activity.id,
  version: activity.version,
  label: `${activity.activity_code.code} ${activity.name}`,
});

const sameRows = (a: readonly ApprovalRow[], b: readonly ApprovalRow[]) =>
  a.length === b.length &&
  a.every((row, index) => row.id === b[index].id && row.version === b[index].version);

/**
 * The approval machine of the screen, its `approve` actor calling the server. The selection
 * follows the rows on screen: a row shown again at a newer version (after a refresh) is selected
 * at that version, one that left the page or may no longer be approved is dropped.
 */
export function useActivityApproval(siteId: number, rows: readonly Activity[] | undefined) {
  const api = useApi();
  const queryClient = useQueryClient();
  const latest = useRef({ api, siteId });
  latest.current = { api, siteId };
  const [machine] = useState(() =>
    activityApprovalMachine.provide({
      actors: {
        approve: fromCallback<ActivityApprovalEvent, ApproveInput>(({ input, sendBack }) => {
          const controller = new AbortController();
          const { api: client, siteId: site } = latest.current;
          approveActivities(client, site, input, controller.signal).then(
            ({ results, message }) => {
              sendBack({ type: 'approve.answered', results, message });
              void queryClient.invalidateQueries({ queryKey: queryKeys.productivity.activities(site) });
            },
            (error: unknown) => {
              if (isCancelled(error)) return;
              sendBack({
                type: 'approve.failed',
                message: error instanceof Error ? error.message : String(error),
              });
            },
          );
          return () => controller.abort();
        }),
      },
    }),
  );
  const actor = useActorRef(machine);
  const snapshot = useSelector(actor, (state) => state);

  // Another site: nothing of this one stays selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the site's change is the trigger.
  useEffect(() => {
    actor.send({ type: 'selection.set', rows: [] });
  }, [actor, siteId]);

  useEffect(() => {
    const current = actor.getSnapshot();
    if (!rows || !selectCanSelect(current) || current.context.selection.length === 0) return;
    const byId = new Map(rows.map((row) => [row.id, row]));
    const next = current.context.selection.flatMap((selected) => {
      const row = byId.get(selected.id);
      return row?.actions.includes('approve') ? [approvalRowOf(row)] : [];
    });
    if (!sameRows(next, current.context.selection)) actor.send({ type: 'selection.set', rows: next });
  }, [actor, rows]);

  return { actor, snapshot };
}
