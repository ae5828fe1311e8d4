import { describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { EVACUATION_MESSAGES } from '../../src/domain/evacuation';
import { evacuationStateOf, evacuationWallMachine } from '../../src/machines/evacuation.machine';
import {
  ASSEMBLY_ZONE,
  batchOf,
  ENDED_EVACUATION,
  EVACUATION,
  type EvacuationHarness,
  evacuee,
  expectCountsMatchList,
  helmet,
  SCOPE,
  SESSION,
  SITE_ID,
  snapshotOf,
  startEvacuationMachine,
} from './helpers/evacuationHarness';

type Snapshot = SnapshotFrom<typeof evacuationWallMachine>;
type Event = EventFrom<typeof evacuationWallMachine>;

const LATER = '2025-03-01T10:05:00.000Z';

/** The service's answers: before and after a restart (another stream), and a batch of each kind. */
const FIRST = snapshotOf([evacuee(1, 'autoAcknowledge'), evacuee(2, 'offline')], { stream: 's1', seq: 0 });
const AFTER_RESTART = snapshotOf([evacuee(1, 'safe'), evacuee(2, 'manualAcknowledge')], {
  stream: 's2',
  seq: 4,
});
const NEXT = batchOf([evacuee(1, 'safe')], { stream: 's1', seq: 1 });
const GAP = batchOf([evacuee(2, 'manualAcknowledge')], { stream: 's1', seq: 3 });
const OTHER_STREAM = batchOf([evacuee(2, 'autoAcknowledge')], { stream: 's3', seq: 1 });

const sampleEvents: Event[] = [
  { type: 'connection.changed', state: 'live' },
  { type: 'connection.changed', state: 'reconnecting', reason: 'transport close' },
  { type: 'evacuation.snapshot', snapshot: FIRST },
  { type: 'evacuation.snapshot', snapshot: AFTER_RESTART },
  { type: 'evacuation.none' },
  { type: 'evacuation.requestFailed', message: 'timeout' },
  { type: 'evacuation.batch', batch: NEXT },
  { type: 'evacuation.batch', batch: GAP },
  { type: 'evacuation.batch', batch: OTHER_STREAM },
  {
    type: 'location.update',
    workers: [helmet(2, { last_seen: LATER, zone_id: ASSEMBLY_ZONE }), helmet(9, { last_seen: LATER })],
  },
  { type: 'location.update', workers: [helmet(8, { last_seen: LATER, is_online: false })] },
  { type: 'evacuation.start', scope: SCOPE },
  { type: 'evacuation.start', scope: { ...SCOPE, assemblyZoneIds: [] } },
  { type: 'start.succeeded', evacuation: EVACUATION },
  { type: 'start.failed', message: EVACUATION_MESSAGES.alreadyRunning },
  { type: 'evacuation.end' },
  { type: 'end.succeeded', evacuation: ENDED_EVACUATION },
  { type: 'end.failed', message: EVACUATION_MESSAGES.forbidden },
  {
    type: 'evacuation.ended',
    ended: { siteId: SITE_ID, evacuationSessionId: SESSION, endedAt: LATER, endedBy: null },
  },
  { type: 'evacuation.reset' },
  { type: 'evacuation.retry' },
];

const serializeWorkers = (state: Snapshot) =>
  [...state.context.workers.values()].map((w) => `${w.id}:${w.status}:${w.last_seen}`).join(',');

const bySnapshot = (state: Snapshot) =>
  JSON.stringify({
    value: state.value,
    context: { ...state.context, workers: serializeWorkers(state), held: state.context.held.length },
  });

/**
 * Keeps the graph small: a snapshot is sent only where the screen has none or after a request,
 * at most one batch is held, the live location of worker 2 only before it is safe, and a
 * reconnect only from a live socket. Every guard still sees both answers.
 */
const model = createTestModel(evacuationWallMachine, {
  input: { siteId: SITE_ID, canWrite: true },
  events: sampleEvents,
  filterEvents: (state, event) => {
    const { context } = state;
    switch (event.type) {
      case 'evacuation.batch':
        return context.held.length === 0;
      case 'connection.changed':
        return event.state !== context.connection;
      case 'location.update':
        return context.workers.size > 0 && !context.workers.has(9);
      case 'evacuation.snapshot':
        return event.snapshot === FIRST ? context.cursor === null : context.cursor?.stream !== 's2';
      default:
        return true;
    }
  },
});

const byTransition = (state: Snapshot, event: Event | undefined, previous: Snapshot | undefined) =>
  `${bySnapshot(state)}${event ? ` via ${JSON.stringify(event.type)} from ${JSON.stringify(previous?.value)}` : ''}`;

/** What the running machine must show in each state, beyond agreeing with the model. */
function stateChecks(sut: EvacuationHarness) {
  const agrees = (state: Snapshot) => {
    const actual = sut.snapshot();
    expect(actual.value).toEqual(state.value);
    expect(serializeWorkers(actual)).toBe(serializeWorkers(state));
    expectCountsMatchList(sut);
  };
  return {
    connecting: (state: Snapshot) => {
      agrees(state);
      expect(sut.snapshot().hasTag('busy')).toBe(true);
      expect(sut.snapshot().can({ type: 'evacuation.start', scope: SCOPE })).toBe(false);
    },
    idle: (state: Snapshot) => {
      agrees(state);
      expect(state.context.workers.size).toBe(0);
      expect(state.context.evacuation).toBeNull();
      expect(sut.snapshot().can({ type: 'evacuation.start', scope: SCOPE })).toBe(true);
      expect(sut.snapshot().can({ type: 'evacuation.end' })).toBe(false);
    },
    starting: (state: Snapshot) => {
      agrees(state);
      expect(sut.effects.at(-1)).toEqual({ type: 'requestStart', params: { siteId: SITE_ID, ...SCOPE } });
    },
    inProgress: (state: Snapshot) => {
      agrees(state);
      expect(state.context.evacuation?.evacuationSessionId).toBe(SESSION);
      expect(sut.snapshot().hasTag('running')).toBe(true);
      if (state.matches({ inProgress: 'resyncing' }))
        expect(sut.effects.at(-1)).toEqual({ type: 'requestEvacuation' });
      expect(sut.snapshot().can({ type: 'evacuation.end' })).toBe(state.matches({ inProgress: 'live' }));
      // Nobody offline-and-unknown is ever on the list.
      expect(state.context.workers.has(8)).toBe(false);
    },
    ending: (state: Snapshot) => {
      agrees(state);
      expect(sut.effects.some((e) => e.type === 'requestEnd')).toBe(true);
    },
    ended: (state: Snapshot) => {
      agrees(state);
      expect(state.context.summary?.evacuationSessionId).toBe(SESSION);
      expect(state.context.workers.size).toBe(0);
      expect(state.context.evacuation).toBeNull();
      expect(sut.snapshot().can({ type: 'evacuation.reset' })).toBe(true);
    },
    reconnecting: (state: Snapshot) => {
      agrees(state);
      // Back online, it has asked what it missed and waits for the answer.
      if (state.context.connection === 'live')
        expect(sut.effects.at(-1)).toEqual({ type: 'requestEvacuation' });
    },
  };
}

function eventExecutors(sut: EvacuationHarness) {
  const executors: Record<string, (step: { event: { type: string } }) => void> = {};
  for (const type of new Set(sampleEvents.map((e) => e.type)))
    executors[type] = (step) => {
      sut.send(step.event as Event);
    };
  return executors;
}

function pathName(path: { steps: { event: { type: string } }[] }): string {
  return path.steps
    .map(({ event }) => {
      const e = event as Event;
      if (e.type === 'evacuation.batch') return `batch ${e.batch.stream}#${e.batch.seq}`;
      if (e.type === 'evacuation.snapshot') return `snapshot ${e.snapshot.stream}`;
      if (e.type === 'connection.changed') return e.state;
      if (e.type === 'location.update') return `location ${e.workers.map((w) => w.id).join('+')}`;
      return e.type;
    })
    .join(' → ');
}

describe('evacuation model', () => {
  const paths = model.getShortestPaths({ serializeState: byTransition });

  it('reaches every state through start, progress, reconnect, end and reset', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((s) => evacuationStateOf(s.state))));
    expect([...reached].sort()).toEqual(
      ['connecting', 'ended', 'ending', 'idle', 'inProgress', 'reconnecting', 'starting'].sort(),
    );
    const events = new Set(
      paths.flatMap((path) => path.steps.map((s): string => s.event.type)).filter((t) => t !== 'xstate.init'),
    );
    expect([...events].sort()).toEqual([...new Set(sampleEvents.map((e) => e.type))].sort());
    expect(paths.some((path) => path.state.matches({ inProgress: 'resyncing' }))).toBe(true);
  });

  it.each(paths.map((path) => [pathName(path), path] as const))('%s', async (_name, path) => {
    const sut = startEvacuationMachine();
    await path.test({ states: stateChecks(sut), events: eventExecutors(sut) });
  });
});
