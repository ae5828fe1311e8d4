import { assign, fromCallback, type SnapshotFrom, setup } from 'xstate';
import type { ApprovalResult, ApproveBulkBody } from '../domain/schemas/productivity';

/**
 * Approving the selected eTQR activities in one bulk call (issue 21). The call is the invoked
 * actor `approve`, which the view provides: it gets the rows with the versions the user saw and
 * answers with approve.answered (the server's per-row results) or approve.failed (no answer).
 * Leaving `approving` stops it, so a late answer never lands.
 *
 * idle ──selection.set (rows)──▶ selecting ──approve.open──▶ confirming
 * confirming ──approve.confirm──▶ approving | approve.cancel ──▶ selecting
 * approving ──approve.answered──▶ done (every row approved) | partialFailure (some refused)
 *           └─approve.failed──▶ failure ──retry──▶ approving | approve.cancel ──▶ selecting
 * any but approving ──selection.set──▶ selecting (idle when empty), the last outcome cleared
 * done | partialFailure ──dismiss──▶ idle
 *
 * A refused row is never retried by itself: the server refuses a stale row rather than
 * overwriting it, so the user reloads and selects it again.
 */

export interface ApprovalRow {
  id: number;
  /** The version the user saw: a row changed since is refused, not overwritten. */
  version: number;
  /** How the row is named to the user (the activity's code and name). */
  label: string;
}

export interface RefusedRow {
  id: number;
  label: string;
  /** The server's reason, in its words. */
  message: string;
}

export interface ApprovalOutcome {
  approved: ApprovalRow[];
  refused: RefusedRow[];
  /** The server's summary ("1 of 2 activities approved"); '' when it sent none. */
  message: string;
}

export interface ActivityApprovalContext {
  selection: ApprovalRow[];
  /** The rows of the approval in flight or last sent. */
  sent: ApprovalRow[];
  outcome: ApprovalOutcome | null;
  /** Why the last call got no answer. */
  error: string | null;
}

export type ActivityApprovalEvent =
  | { type: 'selection.set'; rows: ApprovalRow[] }
  | { type: 'approve.open' }
  | { type: 'approve.confirm' }
  | { type: 'approve.cancel' }
  | { type: 'approve.answered'; results: ApprovalResult[]; message: string }
  | { type: 'approve.failed'; message: string }
  | { type: 'retry' }
  | { type: 'dismiss' };

export type ApproveInput = ApproveBulkBody;
export type ApproveAnswer = Extract<ActivityApprovalEvent, { type: 'approve.answered' | 'approve.failed' }>;

/** The approval's outcome: which rows the server approved, which it refused and why. */
export function outcomeOf(sent: readonly ApprovalRow[], results: readonly ApprovalResult[], message: string) {
  const byId = new Map(results.map((result) => [result.id, result]));
  const approved: ApprovalRow[] = [];
  const refused: RefusedRow[] = [];
  for (const row of sent) {
    const result = byId.get(row.id);
    if (result?.ok) approved.push(row);
    // A row the answer leaves out was not approved either.
    else refused.push({ id: row.id, label: row.label, message: result?.message ?? message });
  }
  return { approved, refused, message } satisfies ApprovalOutcome;
}

/** The request body of an approval of these rows. */
export function approveBodyOf(rows: readonly ApprovalRow[]): ApproveBulkBody {
  return { activities: rows.map(({ id, version }) => ({ id, version })) };
}

const CLEARED = { outcome: null, error: null } satisfies Partial<ActivityApprovalContext>;

export const activityApprovalMachine = setup({
  types: {
    context: {} as ActivityApprovalContext,
    events: {} as ActivityApprovalEvent,
  },
  actors: {
    /** Provided by the view: POST /sites/{id}/activity/approve/bulk, answered with approve.answered or approve.failed. */
    approve: fromCallback<ActivityApprovalEvent, ApproveInput>(() => undefined),
  },
  actions: {
    select: assign(({ event }) =>
      event.type === 'selection.set' ? { ...CLEARED, selection: event.rows } : {},
    ),
    send: assign(({ context }) => ({ ...CLEARED, sent: context.selection })),
    answer: assign(({ context, event }) =>
      event.type === 'approve.answered'
        ? { outcome: outcomeOf(context.sent, event.results, event.message), selection: [] }
        : {},
    ),
    fail: assign({ error: ({ event }) => (event.type === 'approve.failed' ? event.message : null) }),
    clearError: assign({ error: null }),
    clear: assign({ ...CLEARED, selection: [] }),
  },
  guards: {
    hasRows: ({ event }) => event.type === 'selection.set' && event.rows.length > 0,
    hasSelection: ({ context }) => context.selection.length > 0,
    allApproved: ({ context, event }) =>
      event.type === 'approve.answered' &&
      outcomeOf(context.sent, event.results, event.message).refused.length === 0,
  },
}).createMachine({
  id: 'activityApproval',
  context: { selection: [], sent: [], ...CLEARED },
  initial: 'idle',
  on: {
    'selection.set': [
      { guard: 'hasRows', target: '.selecting', actions: 'select' },
      { target: '.idle', actions: 'select' },
    ],
  },
  states: {
    idle: {},
    selecting: {
      on: { 'approve.open': { guard: 'hasSelection', target: 'confirming' } },
    },
    confirming: {
      on: {
        'approve.confirm': { target: 'approving', actions: 'send' },
        'approve.cancel': { target: 'selecting' },
      },
    },
    approving: {
      tags: ['busy'],
      invoke: { id: 'approve', src: 'approve', input: ({ context }) => approveBodyOf(context.sent) },
      on: {
        // The selection stays as it was sent until the answer comes.
        'selection.set': {},
        'approve.answered': [
          { guard: 'allApproved', target: 'done', actions: 'answer' },
          { target: 'partialFailure', actions: 'answer' },
        ],
        'approve.failed': { target: 'failure', actions: 'fail' },
      },
    },
    done: {
      on: { dismiss: { target: 'idle', actions: 'clear' } },
    },
    partialFailure: {
      on: { dismiss: { target: 'idle', actions: 'clear' } },
    },
    failure: {
      on: {
        retry: { target: 'approving', actions: 'send' },
        'approve.cancel': { target: 'selecting', actions: 'clearError' },
      },
    },
  },
});

export type ActivityApprovalSnapshot = SnapshotFrom<typeof activityApprovalMachine>;
export type ActivityApprovalState =
  | 'idle'
  | 'selecting'
  | 'confirming'
  | 'approving'
  | 'done'
  | 'partialFailure'
  | 'failure';

export function activityApprovalStateOf(snapshot: ActivityApprovalSnapshot): ActivityApprovalState {
  return snapshot.value as ActivityApprovalState;
}

// Each button's enabled state comes from the machine (state.can).
export const selectCanOpen = (snapshot: ActivityApprovalSnapshot) => snapshot.can({ type: 'approve.open' });
export const selectCanConfirm = (snapshot: ActivityApprovalSnapshot) =>
  snapshot.can({ type: 'approve.confirm' });
export const selectCanCancel = (snapshot: ActivityApprovalSnapshot) =>
  snapshot.can({ type: 'approve.cancel' });
export const selectCanRetry = (snapshot: ActivityApprovalSnapshot) => snapshot.can({ type: 'retry' });
export const selectCanDismiss = (snapshot: ActivityApprovalSnapshot) => snapshot.can({ type: 'dismiss' });
/** Checkboxes may change the selection: not while an approval is in flight. */
export const selectCanSelect = (snapshot: ActivityApprovalSnapshot) => !snapshot.hasTag('busy');
