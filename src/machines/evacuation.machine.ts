import { assign, type SnapshotFrom, setup } from 'xstate';
import {
  ACCOUNTED_STATUSES,
  type EndEvacuationRequest,
  type EvacuatingBatch,
  type Evacuation,
  type EvacuationCounts,
  type EvacuationSnapshot,
  type EvacuationWorker,
  type FloorClearance,
  type RollPerson,
  type StartEvacuationRequest,
} from '../domain/evacuation';
import type { EvacuationEvent } from '../domain/evacuationEvents';
import { applyLocations } from '../domain/evacuationLocations';
import { countEvacuation, evacuationScopeProblem } from '../domain/evacuationRules';
import type { LiveCursor } from '../domain/live';
import { cursorVerdict } from '../domain/liveCursor';
import type { LiveConnectionState } from '../domain/liveEvents';

/**
 * The console's evacuation of one site (issue 5, the wall screen). Pure: the socket is the root's.
 * It asks through three named actions the root provides (`machine.provide`) and hears the answers
 * as events: requestEvacuation → evacuation.snapshot | evacuation.none | evacuation.requestFailed;
 * requestStart → start.succeeded | start.failed; requestEnd → end.succeeded | end.failed.
 *
 * connecting ──snapshot──▶ inProgress.live ◀──snapshot── inProgress.resyncing (gap, other stream)
 *     └──none──▶ idle ──evacuation.start──▶ starting ──start.succeeded──▶ inProgress.resyncing
 *                 ▲                            └──start.failed (message)──▶ idle
 *                 └──evacuation.reset── ended ◀──end.succeeded | evacuation.ended── ending
 * Every state but ended goes to reconnecting when the socket drops; the snapshot after the
 * reconnect decides between inProgress and idle. Ending or resetting clears the safety state (spec §4).
 */

export interface EvacuationSummary {
  evacuationSessionId: string;
  startedAt: string;
  endedAt: string;
  counts: EvacuationCounts;
  /** Neither safe nor acknowledged when it ended. */
  neverAccounted: EvacuationWorker[];
}

export interface EvacuationContext {
  siteId: number;
  /** The signed-in role may start and end (access area 'evacuation', write). */
  canWrite: boolean;
  connection: LiveConnectionState;
  evacuation: Evacuation | null;
  /** Included workers by worker id. */
  workers: ReadonlyMap<number, EvacuationWorker>;
  /** People a marshal added to the roll without a helmet, by id. */
  rollPeople: ReadonlyMap<number, RollPerson>;
  /** Always countEvacuation(workers and roll people): the counters never disagree with the list. */
  counts: EvacuationCounts;
  /** When each evacuated floor was cleared, in order of clearing (the service's latest word). */
  floorClearances: FloorClearance[];
  cursor: LiveCursor | null;
  /** Batches that arrived while a snapshot was on its way, replayed on top of it. */
  held: EvacuatingBatch[];
  error: string | null;
  summary: EvacuationSummary | null;
}

export interface EvacuationInput {
  siteId: number;
  canWrite: boolean;
}

export type { EvacuationEvent };

const NO_WORKERS: ReadonlyMap<number, EvacuationWorker> = new Map();
const NO_PEOPLE: ReadonlyMap<number, RollPerson> = new Map();

function clearedSafetyState(): Pick<
  EvacuationContext,
  'evacuation' | 'workers' | 'rollPeople' | 'floorClearances' | 'counts' | 'cursor' | 'held' | 'summary'
> {
  return {
    evacuation: null,
    workers: NO_WORKERS,
    rollPeople: NO_PEOPLE,
    floorClearances: [],
    counts: countEvacuation([]),
    cursor: null,
    held: [],
    summary: null,
  };
}

function withRoll(
  workers: ReadonlyMap<number, EvacuationWorker>,
  rollPeople: ReadonlyMap<number, RollPerson>,
) {
  const everyone = [...workers.values()];
  const statuses = [...everyone.map((w) => w.status), ...[...rollPeople.values()].map((p) => p.status)];
  const undelivered = everyone.filter((w) => w.alarmDeliveredAt === null).length;
  return { workers, rollPeople, counts: countEvacuation(statuses, undelivered) };
}

function fromSnapshot(snapshot: EvacuationSnapshot) {
  return {
    evacuation: snapshot.evacuation,
    ...withRoll(
      new Map(snapshot.workers.map((w) => [w.id, w])),
      new Map(snapshot.rollPeople.map((p) => [p.id, p])),
    ),
    floorClearances: snapshot.floorClearances,
    cursor: { stream: snapshot.stream, seq: snapshot.seq },
  };
}

/** The context after a batch of the stream: its workers, roll people, floors and, when it changed, the session. */
function afterBatch(context: EvacuationContext, batch: EvacuatingBatch) {
  const rollPeople = new Map(context.rollPeople);
  for (const person of batch.rollPeople) rollPeople.set(person.id, person);
  return {
    ...withRoll(applyBatch(context.workers, batch), rollPeople),
    floorClearances: batch.floorClearances,
    evacuation: batch.evacuation ?? context.evacuation,
    cursor: { stream: batch.stream, seq: batch.seq },
  };
}

/** A batch of the running session's stream that comes right after the cursor. */
function batchVerdict(context: EvacuationContext, batch: EvacuatingBatch) {
  if (batch.evacuationSessionId !== context.evacuation?.evacuationSessionId) return 'resync';
  return cursorVerdict(context.cursor, batch);
}

function applyBatch(
  workers: ReadonlyMap<number, EvacuationWorker>,
  batch: EvacuatingBatch,
): ReadonlyMap<number, EvacuationWorker> {
  const next = new Map(workers);
  for (const worker of batch.workers) {
    if (worker.isIncludedEvacuation) next.set(worker.id, worker);
    else next.delete(worker.id);
  }
  return next;
}

function summaryOf(context: EvacuationContext, endedAt: string): EvacuationSummary | null {
  const evacuation = context.evacuation;
  if (!evacuation) return null;
  const workers = [...context.workers.values()];
  return {
    evacuationSessionId: evacuation.evacuationSessionId,
    startedAt: evacuation.evacuationStartAt,
    endedAt,
    counts: context.counts,
    neverAccounted: workers.filter(
      (w) => !ACCOUNTED_STATUSES.includes(w.status) && w.acknowledgedAt === null,
    ),
  };
}

export const evacuationWallMachine = setup({
  types: {
    context: {} as EvacuationContext,
    events: {} as EvacuationEvent,
    input: {} as EvacuationInput,
  },
  actions: {
    requestEvacuation: () => {},
    requestStart: (_, _params: StartEvacuationRequest) => {},
    requestEnd: (_, _params: EndEvacuationRequest) => {},
    setConnection: assign({
      connection: ({ context, event }) =>
        event.type === 'connection.changed' ? event.state : context.connection,
    }),
    applySnapshot: assign(({ context, event }) => {
      if (event.type !== 'evacuation.snapshot') return {};
      let next: EvacuationContext = {
        ...context,
        ...fromSnapshot(event.snapshot),
        error: null,
        summary: null,
      };
      for (const batch of context.held) {
        if (batchVerdict(next, batch) === 'apply') next = { ...next, ...afterBatch(next, batch) };
      }
      return { ...next, held: [] };
    }),
    applyBatch: assign(({ context, event }) => {
      if (event.type !== 'evacuation.batch') return {};
      return afterBatch(context, event.batch);
    }),
    holdBatch: assign({
      held: ({ context, event }) =>
        event.type === 'evacuation.batch' ? [...context.held, event.batch] : context.held,
    }),
    applyLocations: assign(({ context, event }) => {
      if (event.type !== 'location.update' || !context.evacuation) return {};
      const workers = applyLocations(context.workers, context.evacuation, event.workers);
      return workers === context.workers ? {} : withRoll(workers, context.rollPeople);
    }),
    takeEvacuation: assign({
      evacuation: ({ context, event }) =>
        event.type === 'start.succeeded' || event.type === 'end.succeeded'
          ? event.evacuation
          : context.evacuation,
    }),
    /** The stream is unknown until the snapshot: every batch waits for it. */
    forgetCursor: assign({ cursor: null, held: [] }),
    /** The summary stays on the wall; the rest of the safety state goes (spec §4). */
    summarise: assign(({ context, event }) => {
      const endedAt =
        event.type === 'evacuation.ended'
          ? event.ended.endedAt
          : event.type === 'end.succeeded'
            ? (event.evacuation.endedAt ?? new Date().toISOString())
            : new Date().toISOString();
      return { ...clearedSafetyState(), summary: summaryOf(context, endedAt), error: null };
    }),
    clearSafetyState: assign(() => ({ ...clearedSafetyState(), error: null })),
    setError: assign({
      error: ({ event }) =>
        event.type === 'start.failed' ||
        event.type === 'end.failed' ||
        event.type === 'evacuation.requestFailed'
          ? event.message
          : null,
    }),
    clearError: assign({ error: null }),
  },
  guards: {
    isLive: ({ event }) => event.type === 'connection.changed' && event.state === 'live',
    isDown: ({ event }) =>
      event.type === 'connection.changed' && (event.state === 'reconnecting' || event.state === 'offline'),
    mayStart: ({ context, event }) =>
      context.canWrite && event.type === 'evacuation.start' && evacuationScopeProblem(event.scope) === null,
    mayEnd: ({ context }) => context.canWrite && context.evacuation?.started === true,
    isNextBatch: ({ context, event }) =>
      event.type === 'evacuation.batch' && batchVerdict(context, event.batch) === 'apply',
    isStaleBatch: ({ context, event }) =>
      event.type === 'evacuation.batch' && batchVerdict(context, event.batch) === 'stale',
    isThisSession: ({ context, event }) => {
      const id = context.evacuation?.evacuationSessionId;
      if (event.type === 'evacuation.ended') return event.ended.evacuationSessionId === id;
      if (event.type === 'end.succeeded') return event.evacuation.evacuationSessionId === id;
      return false;
    },
  },
}).createMachine({
  id: 'evacuation',
  context: ({ input }) => ({
    siteId: input.siteId,
    canWrite: input.canWrite,
    connection: 'connecting',
    ...clearedSafetyState(),
    error: null,
  }),
  initial: 'connecting',
  on: {
    'connection.changed': [
      { guard: 'isDown', target: '.reconnecting', actions: 'setConnection' },
      { actions: 'setConnection' },
    ],
  },
  states: {
    connecting: {
      tags: ['busy'],
      on: {
        'connection.changed': [
          { guard: 'isLive', actions: ['setConnection', 'clearError', 'requestEvacuation'] },
          { guard: 'isDown', target: 'reconnecting', actions: 'setConnection' },
          { actions: 'setConnection' },
        ],
        'evacuation.retry': { actions: ['clearError', 'requestEvacuation'] },
        'evacuation.snapshot': { target: 'inProgress', actions: 'applySnapshot' },
        'evacuation.none': { target: 'idle', actions: 'clearError' },
        'evacuation.requestFailed': { actions: 'setError' },
      },
    },

    idle: {
      on: {
        'evacuation.start': {
          guard: 'mayStart',
          target: 'starting',
          actions: [
            'clearError',
            {
              type: 'requestStart',
              params: ({ context, event }) => ({ siteId: context.siteId, ...event.scope }),
            },
          ],
        },
        // Another console started one: this screen shows it at once.
        'evacuation.snapshot': { target: 'inProgress', actions: 'applySnapshot' },
      },
    },

    starting: {
      tags: ['busy'],
      on: {
        'start.succeeded': { target: 'inProgress.resyncing', actions: ['takeEvacuation', 'forgetCursor'] },
        'start.failed': { target: 'idle', actions: 'setError' },
        // The broadcast can overtake the acknowledgement.
        'evacuation.snapshot': { target: 'inProgress', actions: 'applySnapshot' },
      },
    },

    inProgress: {
      tags: ['running'],
      initial: 'live',
      on: {
        'evacuation.snapshot': { target: '.live', actions: 'applySnapshot' },
        'location.update': { actions: 'applyLocations' },
        'evacuation.ended': { guard: 'isThisSession', target: 'ended', actions: 'summarise' },
        'evacuation.none': { target: 'idle', actions: 'clearSafetyState' },
      },
      states: {
        live: {
          on: {
            'evacuation.batch': [
              { guard: 'isNextBatch', actions: 'applyBatch' },
              { guard: 'isStaleBatch' },
              { target: 'resyncing', actions: 'holdBatch' },
            ],
            'evacuation.end': { guard: 'mayEnd', target: '#evacuation.ending', actions: 'clearError' },
          },
        },
        resyncing: {
          tags: ['busy'],
          entry: 'requestEvacuation',
          on: {
            'evacuation.batch': { actions: 'holdBatch' },
            // The next batch asks again.
            'evacuation.requestFailed': { target: 'live', actions: ['setError', 'forgetCursor'] },
          },
        },
      },
    },

    ending: {
      tags: ['busy', 'running'],
      entry: {
        type: 'requestEnd',
        params: ({ context }) => ({
          siteId: context.siteId,
          evacuationSessionId: context.evacuation?.evacuationSessionId ?? '',
        }),
      },
      on: {
        'evacuation.batch': { guard: 'isNextBatch', actions: 'applyBatch' },
        'location.update': { actions: 'applyLocations' },
        'end.succeeded': { guard: 'isThisSession', target: 'ended', actions: 'summarise' },
        'evacuation.ended': { guard: 'isThisSession', target: 'ended', actions: 'summarise' },
        // Batches may have been skipped while ending: a fresh snapshot sets the list right.
        'end.failed': { target: 'inProgress.resyncing', actions: 'setError' },
        'evacuation.snapshot': { actions: 'applySnapshot' },
      },
    },

    ended: {
      on: {
        'evacuation.reset': { target: 'idle', actions: 'clearSafetyState' },
        // A new evacuation replaces the summary on the wall.
        'evacuation.snapshot': { target: 'inProgress', actions: 'applySnapshot' },
        'connection.changed': { actions: 'setConnection' },
      },
    },

    reconnecting: {
      tags: ['busy'],
      on: {
        'connection.changed': [
          { guard: 'isLive', actions: ['setConnection', 'requestEvacuation'] },
          { actions: 'setConnection' },
        ],
        'evacuation.retry': { actions: ['clearError', 'requestEvacuation'] },
        'evacuation.snapshot': { target: 'inProgress', actions: 'applySnapshot' },
        // It ended while the screen was away: the safety state goes with it.
        'evacuation.none': { target: 'idle', actions: ['clearSafetyState', 'clearError'] },
        'evacuation.requestFailed': { actions: 'setError' },
        // A refusal that made it back before the socket dropped is still worth reading.
        'start.failed': { actions: 'setError' },
        'end.failed': { actions: 'setError' },
      },
    },
  },
});

export type EvacuationSnapshotState = SnapshotFrom<typeof evacuationWallMachine>;

export type EvacuationStateName =
  | 'connecting'
  | 'idle'
  | 'starting'
  | 'inProgress'
  | 'ending'
  | 'ended'
  | 'reconnecting';

/** The top-level state, which is what the screen calls the evacuation's phase. */
export function evacuationStateOf(snapshot: EvacuationSnapshotState): EvacuationStateName {
  const value = snapshot.value;
  return (typeof value === 'string' ? value : Object.keys(value)[0]) as EvacuationStateName;
}
