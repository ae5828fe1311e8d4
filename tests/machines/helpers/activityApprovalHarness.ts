import { createActor, type EventFrom, fromCallback } from 'xstate';
import { ACTIVITY_STATUS_MESSAGES } from '../../../src/domain/activityStatus';
import type { ApprovalResult } from '../../../src/domain/schemas/productivity';
import {
  type ActivityApprovalEvent,
  type ApprovalRow,
  type ApproveInput,
  activityApprovalMachine,
} from '../../../src/machines/activityApproval.machine';

export const PAVING: ApprovalRow = { id: 41, version: 3, label: 'PV-01 Paving bay 4' };
export const KERBS: ApprovalRow = { id: 42, version: 7, label: 'KB-02 Kerbs north' };
export const STALE = ACTIVITY_STATUS_MESSAGES.stale;
export const OFFLINE = 'Network error';

export const approvedResult = (row: ApprovalRow): ApprovalResult => ({
  id: row.id,
  ok: true,
  status: 'approved_by_cm',
});
export const refusedResult = (row: ApprovalRow, message = STALE): ApprovalResult => ({
  id: row.id,
  ok: false,
  message,
});

/** An answer of the server to the approval of `rows`, `refused` being refused as stale. */
export function answerFor(rows: readonly ApprovalRow[], refused: readonly ApprovalRow[] = []) {
  const results = rows.map((row) => (refused.includes(row) ? refusedResult(row) : approvedResult(row)));
  const approved = results.filter((result) => result.ok).length;
  return {
    type: 'approve.answered' as const,
    results,
    message: `${approved} of ${rows.length} activities approved`,
  };
}

/**
 * The approval machine with its `approve` actor replaced by one that records what it was asked
 * and whether it was stopped; the test answers for the server by sending the events.
 */
export function startActivityApproval() {
  const calls: ApproveInput[] = [];
  let running = 0;
  const machine = activityApprovalMachine.provide({
    actors: {
      approve: fromCallback<ActivityApprovalEvent, ApproveInput>(({ input }) => {
        calls.push(input);
        running += 1;
        return () => {
          running -= 1;
        };
      }),
    },
  });
  const actor = createActor(machine).start();
  return {
    actor,
    calls,
    /** How many approve calls are in flight (started and not stopped). */
    running: () => running,
    snapshot: () => actor.getSnapshot(),
    send: (event: EventFrom<typeof activityApprovalMachine>) => actor.send(event),
  };
}

export type ActivityApprovalHarness = ReturnType<typeof startActivityApproval>;
