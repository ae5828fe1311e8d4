import { describe, expect, it } from 'vitest';
import { createActor, type EventFrom, type SnapshotFrom } from 'xstate';
import { getAdjacencyMap, getShortestPaths, getSimplePaths, type StatePath } from 'xstate/graph';
import {
  isPlaybackBuffering,
  isPlaybackRunning,
  PLAYBACK_SPEEDS,
  playbackMachine,
  playbackStateOf,
} from '../../src/machines/playback.machine';

type Snapshot = SnapshotFrom<typeof playbackMachine>;
type Event = EventFrom<typeof playbackMachine>;
type Path = StatePath<Snapshot, Event>;

/**
 * A 4-second range, steps and ticks of whole seconds, speeds 1× and 2×: every playhead the model
 * reaches is one of five, so the graph is finite, yet every guard sees both answers (a tick or
 * step that reaches the end and one that does not, a seek past the end, invalid input).
 */
const T0 = Date.UTC(2025, 2, 1, 6);
const RANGE = { fromMs: T0, toMs: T0 + 4_000 };

const EVENTS: Event[] = [
  { type: 'playback.load', range: RANGE },
  { type: 'playback.load', range: RANGE, playheadMs: T0 + 3_000 },
  { type: 'playback.load', range: { fromMs: T0, toMs: T0 } },
  { type: 'playback.unload' },
  { type: 'playback.play' },
  { type: 'playback.pause' },
  { type: 'playback.toggle' },
  { type: 'playback.seek', ms: T0 + 2_000 },
  { type: 'playback.seek', ms: RANGE.toMs + 500 },
  { type: 'playback.seek', ms: T0 - 500 },
  { type: 'playback.seek', ms: Number.NaN },
  { type: 'playback.step', direction: 1 },
  { type: 'playback.step', direction: -1 },
  { type: 'playback.step', direction: 1, ms: 10_000 },
  { type: 'playback.speed', speed: 1 },
  { type: 'playback.speed', speed: 2 },
  { type: 'playback.speed', speed: 3 },
  { type: 'clock.tick', elapsedMs: 1_000 },
  { type: 'clock.tick', elapsedMs: 0 },
  { type: 'stream.buffering' },
  { type: 'stream.buffered' },
];

const bySnapshot = (state: Snapshot) => JSON.stringify({ value: state.value, context: state.context });

const statePaths = getShortestPaths(playbackMachine, { events: EVENTS, serializeState: bySnapshot });
/** Every state × every event of the model, refused events (a tick while paused) included. */
const adjacency = getAdjacencyMap(playbackMachine, { events: EVENTS, serializeState: bySnapshot });

/** What must hold in every snapshot of the running actor. */
function checkSnapshot(actual: Snapshot) {
  const { range, playheadMs, speed } = actual.context;
  const name = playbackStateOf(actual);
  expect(PLAYBACK_SPEEDS).toContain(speed);
  expect(range === null).toBe(name === 'idle');
  if (range) {
    expect(playheadMs).toBeGreaterThanOrEqual(range.fromMs);
    expect(playheadMs).toBeLessThanOrEqual(range.toMs);
    // Out of loading, the replay has ended exactly when the playhead is at the range's end.
    if (name !== 'loading') expect(name === 'ended').toBe(playheadMs === range.toMs);
  }
  expect(isPlaybackBuffering(actual)).toBe(name === 'loading');
  expect(isPlaybackRunning(actual)).toBe(name === 'playing' || actual.matches({ loading: 'resuming' }));
  // The buttons: ticks only move a playing replay, pause only where something plays or will.
  expect(actual.can({ type: 'clock.tick', elapsedMs: 16 })).toBe(name === 'playing');
  expect(actual.can({ type: 'playback.pause' })).toBe(isPlaybackRunning(actual));
  expect(actual.can({ type: 'playback.play' })).toBe(name !== 'idle' && !isPlaybackRunning(actual));
  expect(actual.can({ type: 'playback.seek', ms: T0 })).toBe(name !== 'idle');
}

/** What one event may do to the playhead, given the snapshot before it. */
function checkStep(before: Snapshot, event: Event, after: Snapshot) {
  const moved = after.context.playheadMs !== before.context.playheadMs;
  const range = before.context.range;
  switch (event.type) {
    case 'clock.tick': {
      const advanced =
        before.matches('playing') && range && event.elapsedMs > 0
          ? Math.min(range.toMs, before.context.playheadMs + event.elapsedMs * before.context.speed)
          : before.context.playheadMs;
      expect(after.context.playheadMs).toBe(advanced);
      break;
    }
    case 'playback.play':
    case 'playback.toggle':
      // Only a replay at its end moves on play: back to the start.
      if (moved) {
        expect(before.context.playheadMs).toBe(range?.toMs);
        expect(after.context.playheadMs).toBe(range?.fromMs);
      }
      break;
    case 'playback.seek':
    case 'playback.step':
    case 'playback.load':
    case 'playback.unload':
      break;
    default:
      // Pause, speed and the stream's reports never move the playhead.
      expect(moved).toBe(false);
  }
  if (event.type === 'stream.buffered' && before.matches('loading') && !after.matches('ended'))
    expect(after.matches('playing')).toBe(before.matches({ loading: 'resuming' }));
  if (event.type === 'stream.buffering' && !before.matches('idle'))
    expect(after.matches('loading')).toBe(true);
}

/**
 * Replays a path's events on a real actor (its first step is the machine's start), agreeing with
 * the model after every step and checking the invariants.
 */
function replay(path: Path, from?: Snapshot): Snapshot {
  const actor = createActor(playbackMachine, from ? { snapshot: from } : {}).start();
  checkSnapshot(actor.getSnapshot());
  for (const step of path.steps) {
    if (step.event.type === ('xstate.init' as string)) continue;
    const before = actor.getSnapshot();
    actor.send(step.event);
    const after = actor.getSnapshot();
    expect(bySnapshot(after)).toBe(bySnapshot(step.state));
    checkSnapshot(after);
    checkStep(before, step.event, after);
  }
  expect(bySnapshot(actor.getSnapshot())).toBe(bySnapshot(path.state));
  const reached = actor.getPersistedSnapshot() as Snapshot;
  actor.stop();
  return reached;
}

const describeEvent = (event: Event) => {
  switch (event.type) {
    case 'playback.seek':
      return `seek ${Number.isNaN(event.ms) ? 'NaN' : event.ms - T0}`;
    case 'playback.step':
      return `step ${event.direction * (event.ms ?? 1_000)}`;
    case 'playback.speed':
      return `speed ${event.speed}`;
    case 'clock.tick':
      return `tick ${event.elapsedMs}`;
    case 'playback.load':
      return `load ${event.range.toMs - event.range.fromMs}${event.playheadMs ? ` at ${event.playheadMs - T0}` : ''}`;
    default:
      return event.type;
  }
};

describe('playback model', () => {
  it('reaches every state, both loading substates, every speed and the range end', () => {
    const reached = new Set(statePaths.map((path) => JSON.stringify(path.state.value)));
    expect([...reached].sort()).toEqual(
      ['"ended"', '"idle"', '"paused"', '"playing"', '{"loading":"held"}', '{"loading":"resuming"}'].sort(),
    );
    expect(new Set(statePaths.map((path) => path.state.context.speed))).toEqual(new Set([1, 2]));
    expect(statePaths.some((path) => path.state.matches('playing') && path.state.context.speed === 2)).toBe(
      true,
    );
    const heads = new Set(statePaths.map((path) => path.state.context.playheadMs - T0));
    expect([...heads].sort((a, b) => a - b)).toEqual([-T0, 0, 1_000, 2_000, 3_000, 4_000]);
  });

  it('takes every event in every state it reaches, with the invariants holding', () => {
    let transitions = 0;
    for (const path of statePaths) {
      // The real actor reaches the state by the path's events, then meets each event from there.
      const reached = replay(path);
      const expected = adjacency[bySnapshot(path.state) as keyof typeof adjacency];
      expect(Object.keys(expected.transitions)).toHaveLength(EVENTS.length);
      for (const { event, state } of Object.values(expected.transitions)) {
        const actor = createActor(playbackMachine, { snapshot: reached }).start();
        const before = actor.getSnapshot();
        actor.send(event);
        expect(bySnapshot(actor.getSnapshot())).toBe(bySnapshot(state));
        checkSnapshot(actor.getSnapshot());
        checkStep(before, event, actor.getSnapshot());
        actor.stop();
        transitions++;
      }
    }
    expect(transitions).toBe(statePaths.length * EVENTS.length);
  }, 20_000);

  it.each(
    statePaths.map((path) => [
      path.steps
        .slice(1)
        .map((s) => describeEvent(s.event))
        .join(' → ') || 'start',
      path,
    ]),
  )('%s', (_name, path) => {
    replay(path as Path);
  });

  it('every simple play/pause/tick/buffering path from a loaded start keeps the invariants', () => {
    const actor = createActor(playbackMachine).start();
    // A 3-second range: simple paths multiply quickly with every playhead and event added.
    actor.send({ type: 'playback.load', range: { fromMs: T0, toMs: T0 + 3_000 } });
    actor.send({ type: 'stream.buffered' });
    const loaded = actor.getSnapshot();
    actor.stop();
    const simple = getSimplePaths(playbackMachine, {
      fromState: loaded,
      events: [
        { type: 'playback.toggle' },
        { type: 'clock.tick', elapsedMs: 1_000 },
        { type: 'stream.buffering' },
        { type: 'stream.buffered' },
      ],
      serializeState: bySnapshot,
    });
    expect(simple.length).toBeGreaterThan(30);
    expect(simple.some((path) => path.state.matches('ended'))).toBe(true);
    for (const path of simple) replay(path, loaded);
  });
});
