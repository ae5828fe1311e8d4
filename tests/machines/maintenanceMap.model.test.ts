import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { getAdjacencyMap, getShortestPaths, getSimplePaths, type StatePath } from 'xstate/graph';
import {
  type MaintenanceMapSnapshot,
  maintenanceMapMachine,
  mapViewOf,
  pressedModes,
} from '../../src/machines/maintenanceMap.machine';
import { playbackStateOf } from '../../src/machines/playback.machine';
import {
  type MaintenanceMapHarness,
  type MapEffect,
  type MapEvent,
  OTHER_RANGE,
  RANGE,
  startMaintenanceMap,
} from './helpers/maintenanceMapHarness';

type Snapshot = SnapshotFrom<typeof maintenanceMapMachine>;
type Path = StatePath<Snapshot, MapEvent>;

const INPUT = { range: RANGE };

/**
 * The four toggles, the reset and the browser leaving full screen by itself; a new range and an
 * invalid one; two of the clock's events (play/pause, the stream's "buffered"), which only a
 * replay takes. Two ranges keep the graph finite: 3 views × full screen × presentation × range.
 */
const EVENTS: MapEvent[] = [
  { type: 'mode.fullscreen' },
  { type: 'mode.presentation' },
  { type: 'mode.graph' },
  { type: 'mode.playback' },
  { type: 'mode.reset' },
  { type: 'fullscreen.exited' },
  { type: 'range.set', range: OTHER_RANGE },
  { type: 'range.set', range: { fromMs: OTHER_RANGE.toMs, toMs: OTHER_RANGE.fromMs } },
  { type: 'playback.toggle' },
  { type: 'stream.buffered' },
];

const bySnapshot = (state: Snapshot) => JSON.stringify({ value: state.value, context: state.context });

const statePaths = getShortestPaths(maintenanceMapMachine, {
  input: INPUT,
  events: EVENTS,
  serializeState: bySnapshot,
});
/** Every state × every event of the model, refused events (reset with nothing to clear) included. */
const adjacency = getAdjacencyMap(maintenanceMapMachine, {
  input: INPUT,
  events: EVENTS,
  serializeState: bySnapshot,
});

/** What the running machine shows in every state: the toolbar's pressed buttons, the clock. */
function checkSnapshot(sut: MaintenanceMapHarness) {
  const snapshot = sut.snapshot();
  const pressed = pressedModes(snapshot);
  // Anchor graph and playback exclude each other.
  expect(pressed.graph && pressed.playback).toBe(false);
  expect(snapshot.can({ type: 'mode.reset' })).toBe(pressed.fullscreen || pressed.presentation);
  const clock = sut.clock();
  // The clock lives exactly while replaying, over the map's range.
  expect(clock !== undefined).toBe(pressed.playback);
  expect(snapshot.hasTag('replaying')).toBe(pressed.playback);
  expect(snapshot.can({ type: 'playback.toggle' })).toBe(pressed.playback);
  expect(snapshot.can({ type: 'clock.tick', elapsedMs: 16 })).toBe(pressed.playback);
  if (clock) expect(clock.getSnapshot().context.range).toEqual(snapshot.context.range);
}

interface Before {
  snapshot: MaintenanceMapSnapshot;
  clockState: string | null;
  clockContext: unknown;
  clock: unknown;
}

function observe(sut: MaintenanceMapHarness): Before {
  const clock = sut.clock();
  return {
    snapshot: sut.snapshot(),
    clock,
    clockState: clock ? JSON.stringify(clock.getSnapshot().value) : null,
    clockContext: clock ? clock.getSnapshot().context : null,
  };
}

/** What one event must do to the running machine and what effects it may cause. */
function checkStep(sut: MaintenanceMapHarness, before: Before, event: MapEvent, effects: MapEffect[]) {
  const was = pressedModes(before.snapshot);
  const now = pressedModes(sut.snapshot());
  const viewWas = mapViewOf(before.snapshot);
  const viewNow = mapViewOf(sut.snapshot());
  const clock = sut.clock();
  const sameClock = () => {
    expect(clock).toBe(before.clock);
    if (clock) {
      expect(JSON.stringify(clock.getSnapshot().value)).toBe(before.clockState);
      expect(clock.getSnapshot().context).toEqual(before.clockContext);
    }
  };
  const freshClock = () => {
    expect(clock).toBeDefined();
    expect(clock).not.toBe(before.clock);
    expect(playbackStateOf(clock!.getSnapshot())).toBe('loading');
    expect(clock!.getSnapshot().context.playheadMs).toBe(sut.snapshot().context.range.fromMs);
  };
  switch (event.type) {
    case 'mode.fullscreen':
      expect(now).toEqual({ ...was, fullscreen: !was.fullscreen });
      expect(effects).toEqual([was.fullscreen ? 'leaveFullscreen' : 'enterFullscreen']);
      sameClock();
      return;
    case 'mode.presentation':
      expect(now).toEqual({ ...was, presentation: !was.presentation });
      expect(effects).toEqual([]);
      sameClock();
      return;
    case 'mode.reset':
      // Presentation and full screen cleared; the graph or the replay (and its clock) untouched.
      expect(now).toEqual({ ...was, fullscreen: false, presentation: false });
      expect(effects).toEqual(was.fullscreen ? ['leaveFullscreen'] : []);
      sameClock();
      return;
    case 'fullscreen.exited':
      expect(now).toEqual({ ...was, fullscreen: false });
      expect(effects).toEqual([]);
      sameClock();
      return;
    case 'mode.graph':
      expect(viewNow).toBe(viewWas === 'graph' ? 'live' : 'graph');
      expect({ ...now, graph: false, playback: false }).toEqual({ ...was, graph: false, playback: false });
      expect(effects).toEqual([]);
      expect(clock).toBeUndefined();
      if (before.clock)
        expect((before.clock as { getSnapshot(): { status: string } }).getSnapshot().status).toBe('stopped');
      return;
    case 'mode.playback':
      expect(viewNow).toBe(viewWas === 'playback' ? 'live' : 'playback');
      expect({ ...now, graph: false, playback: false }).toEqual({ ...was, graph: false, playback: false });
      expect(effects).toEqual([]);
      if (viewNow === 'playback') freshClock();
      else expect(clock).toBeUndefined();
      return;
    case 'range.set': {
      expect(now).toEqual(was);
      expect(effects).toEqual([]);
      const valid = event.range.toMs > event.range.fromMs;
      expect(sut.snapshot().context.range).toEqual(valid ? event.range : before.snapshot.context.range);
      // A replay starts over on the new range; a refused one changes nothing.
      if (valid && was.playback) {
        expect(clock).toBe(before.clock);
        expect(playbackStateOf(clock!.getSnapshot())).toBe('loading');
        expect(clock!.getSnapshot().context.playheadMs).toBe(event.range.fromMs);
      } else sameClock();
      return;
    }
    case 'playback.toggle':
    case 'stream.buffered':
      expect(now).toEqual(was);
      expect(effects).toEqual([]);
      if (!was.playback) return;
      // Passed on to the clock, which answers as it would on its own.
      expect(clock).toBe(before.clock);
      expect(JSON.stringify(clock!.getSnapshot().value)).not.toBe(before.clockState);
      return;
    default:
      throw new Error(`no check for ${event.type}`);
  }
}

/** Runs `path` on a fresh machine, checking every snapshot and step on the way. */
function replay(path: Path): MaintenanceMapHarness {
  const sut = startMaintenanceMap();
  checkSnapshot(sut);
  for (const step of path.steps) {
    if (step.event.type === ('xstate.init' as string)) continue;
    const before = observe(sut);
    const effects = sut.send(step.event);
    expect(bySnapshot(sut.snapshot())).toBe(bySnapshot(step.state));
    checkSnapshot(sut);
    checkStep(sut, before, step.event, effects);
  }
  expect(bySnapshot(sut.snapshot())).toBe(bySnapshot(path.state));
  return sut;
}

/** The simple paths as a tree of event sequences: a path's prefixes are simple paths too. */
interface PathTree {
  readonly path: Path | null;
  readonly next: Map<string, PathTree>;
}

function pathTree(paths: readonly Path[]): PathTree {
  const root: PathTree = { path: null, next: new Map() };
  for (const path of paths) {
    let node = root;
    for (const step of path.steps.slice(1)) {
      const key = JSON.stringify(step.event);
      let child = node.next.get(key);
      if (!child) {
        child = { path: null, next: new Map() };
        node.next.set(key, child);
      }
      node = child;
    }
    (node as { path: Path | null }).path = path;
  }
  return root;
}

/**
 * Walks the tree from the start, each step on a machine restored from its parent's persisted
 * snapshot (the clock restored with it) instead of replaying the prefix: the twenty thousand
 * simple paths in one send each. Answers how many paths it checked, and what did not hold.
 */
function walkTree(tree: PathTree, broken: string[]): number {
  let checked = 0;
  const visit = (node: PathTree, persisted: ReturnType<MaintenanceMapHarness['persisted']> | undefined) => {
    for (const child of node.next.values()) {
      const path = child.path!;
      const step = path.steps.at(-1)!;
      const sut = startMaintenanceMap(persisted);
      const before = observe(sut);
      const effects = sut.send(step.event);
      try {
        expect(bySnapshot(sut.snapshot())).toBe(bySnapshot(step.state));
        checkSnapshot(sut);
        checkStep(sut, before, step.event, effects);
      } catch (failure) {
        broken.push(`${pathName(path)}: ${(failure as Error).message}`);
      }
      checked++;
      const next = sut.persisted();
      sut.stop();
      visit(child, next);
    }
  };
  visit(tree, undefined);
  return checked;
}

const describeEvent = (event: MapEvent) =>
  event.type === 'range.set'
    ? `range ${event.range.toMs > event.range.fromMs ? 'new' : 'backwards'}`
    : event.type;

const pathName = (path: Path) =>
  path.steps
    .slice(1)
    .map((s) => describeEvent(s.event))
    .join(' → ') || 'start';

describe('maintenance map model', () => {
  it('reaches every combination of the modes but graph with playback, on both ranges', () => {
    const reached = new Set(statePaths.map((path) => JSON.stringify(path.state.value)));
    // 2 (full screen) × 2 (presentation) × 3 (live, graph, playback): never graph and playback.
    expect(reached.size).toBe(12);
    for (const path of statePaths) {
      const view = (path.state.value as { view: string }).view;
      expect(['live', 'graph', 'playback']).toContain(view);
    }
    expect(statePaths).toHaveLength(24);
  });

  it('takes every event in every state it reaches, with the invariants holding', () => {
    let transitions = 0;
    for (const path of statePaths) {
      const expected = adjacency[bySnapshot(path.state) as keyof typeof adjacency];
      expect(Object.keys(expected.transitions)).toHaveLength(EVENTS.length);
      for (const { event, state } of Object.values(expected.transitions)) {
        const sut = replay(path);
        const before = observe(sut);
        const effects = sut.send(event);
        expect(bySnapshot(sut.snapshot())).toBe(bySnapshot(state));
        checkSnapshot(sut);
        checkStep(sut, before, event, effects);
        sut.stop();
        transitions++;
      }
    }
    expect(transitions).toBe(24 * EVENTS.length);
  });

  it.each(statePaths.map((path) => [pathName(path), path] as const))('%s', (_name, path) => {
    replay(path).stop();
  });

  // The reset and the browser's own exit are taken from every state above; with them the simple
  // paths grow to 25,000 (a minute of sends on two shared cores) for no transition not already met.
  it('every simple path of the four toggles keeps the invariants', () => {
    const simple = getSimplePaths(maintenanceMapMachine, {
      input: INPUT,
      events: EVENTS.slice(0, 4),
      serializeState: bySnapshot,
    });
    // Every loop-free walk over the twelve combinations, from the start.
    expect(simple.length).toBe(6_947);
    expect(new Set(simple.map((path) => JSON.stringify(path.state.value))).size).toBe(12);
    const broken: string[] = [];
    // Every path ends where the tree has it, and the walk checks each one once.
    expect(walkTree(pathTree(simple), broken)).toBe(simple.length - 1);
    expect(broken.slice(0, 5)).toEqual([]);
  }, 30_000);
});
