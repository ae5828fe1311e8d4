import { assign, createActor, type SnapshotFrom, setup } from 'xstate';

/**
 * The lifecycle of one site's evacuation: idle → inProgress → ended (→ inProgress again).
 * Pure: the service asks it whether a start or an end is allowed (`snapshot.can`) before it
 * touches the database, and tells it what happened afterwards. The database stays the authority
 * across processes (its partial unique index refuses a second running session); `restore`
 * hydrates the machine from what the database holds.
 */

export interface EvacuationLifecycleContext {
  siteId: number;
  /** The running session, or the last one once ended; null before the first. */
  sessionId: string | null;
}

export type EvacuationLifecycleEvent =
  | { type: 'evacuation.start'; sessionId: string }
  | { type: 'evacuation.end'; sessionId: string }
  /** The database says this session runs (at process start, or started by another process). */
  | { type: 'evacuation.restore'; sessionId: string };

export const evacuationSessionMachine = setup({
  types: {
    context: {} as EvacuationLifecycleContext,
    events: {} as EvacuationLifecycleEvent,
    input: {} as { siteId: number },
  },
  guards: {
    isRunningSession: ({ context, event }) => context.sessionId === event.sessionId,
  },
  actions: {
    rememberSession: assign({ sessionId: ({ event }) => event.sessionId }),
  },
}).createMachine({
  id: 'evacuation',
  context: ({ input }) => ({ siteId: input.siteId, sessionId: null }),
  initial: 'idle',
  on: {
    'evacuation.restore': { target: '.inProgress', actions: 'rememberSession' },
  },
  states: {
    idle: {
      on: { 'evacuation.start': { target: 'inProgress', actions: 'rememberSession' } },
    },
    inProgress: {
      tags: ['running'],
      on: { 'evacuation.end': { guard: 'isRunningSession', target: 'ended' } },
    },
    ended: {
      on: { 'evacuation.start': { target: 'inProgress', actions: 'rememberSession' } },
    },
  },
});

export type EvacuationLifecycle = SnapshotFrom<typeof evacuationSessionMachine>;

/** One actor per site, created on first use. */
export function createEvacuationLifecycles() {
  const actors = new Map<number, ReturnType<typeof createActor<typeof evacuationSessionMachine>>>();
  const actorFor = (siteId: number) => {
    let actor = actors.get(siteId);
    if (!actor) {
      actor = createActor(evacuationSessionMachine, { input: { siteId } }).start();
      actors.set(siteId, actor);
    }
    return actor;
  };
  return {
    snapshot: (siteId: number): EvacuationLifecycle => actorFor(siteId).getSnapshot(),
    send: (siteId: number, event: EvacuationLifecycleEvent) => actorFor(siteId).send(event),
    /** Brings the site's machine in line with the database's running session (or none). */
    sync(siteId: number, runningSessionId: string | null): void {
      const actor = actorFor(siteId);
      const { context } = actor.getSnapshot();
      const running = actor.getSnapshot().hasTag('running');
      if (runningSessionId !== null && (!running || context.sessionId !== runningSessionId))
        actor.send({ type: 'evacuation.restore', sessionId: runningSessionId });
      else if (runningSessionId === null && running && context.sessionId !== null)
        actor.send({ type: 'evacuation.end', sessionId: context.sessionId });
    },
    stop(): void {
      for (const actor of actors.values()) actor.stop();
      actors.clear();
    },
  };
}

export type EvacuationLifecycles = ReturnType<typeof createEvacuationLifecycles>;
