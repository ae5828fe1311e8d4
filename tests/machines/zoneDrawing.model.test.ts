import { describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { polygonProblem } from '../../src/domain/polygon';
import {
  MIN_ZONE_VERTICES,
  zoneDrawingMachine,
  zoneDrawingStateOf,
} from '../../src/machines/zoneDrawing.machine';
import {
  A,
  E,
  EMPTY_CONTEXT,
  FLOOR,
  OUT,
  POINTS,
  startZoneDrawing,
  type ZoneDrawingHarness,
} from './helpers/zoneDrawingHarness';

type Snapshot = SnapshotFrom<typeof zoneDrawingMachine>;
type Event = EventFrom<typeof zoneDrawingMachine>;

const NAME = '  Stair core  ';
const BLANK = '   ';
const DUPLICATE = 'Zone name already exists!';

/** The payloads the model tries; a click at the last vertex is the double-click's second click. */
const sampleEvents: Event[] = [
  { type: 'draw.start', floor: FLOOR },
  ...POINTS.map((point) => ({ type: 'pointer.click' as const, point })),
  { type: 'pointer.click', point: OUT },
  { type: 'vertex.drag', index: 0, point: E },
  { type: 'vertex.drag', index: 7, point: E },
  { type: 'vertex.drag', index: 0, point: OUT },
  { type: 'draw.undo' },
  { type: 'pointer.dblclick' },
  { type: 'draw.close' },
  { type: 'draw.resume' },
  { type: 'name.change', name: NAME },
  { type: 'name.change', name: BLANK },
  { type: 'kind.change', kind: 'restricted' },
  { type: 'name.submit' },
  { type: 'save.succeeded' },
  { type: 'save.failed', message: DUPLICATE },
  { type: 'draw.cancel' },
  { type: 'draw.interrupt' },
];

const sameVertex = (a: readonly number[] | undefined, b: readonly number[]) =>
  a?.[0] === b[0] && a?.[1] === b[1];

/**
 * Keeps the graph finite and small: vertices are added in the order A, B, C, D (plus a repeat of
 * the last one, which the guard refuses), the first vertex is dragged once, the name is set
 * only to a different value and the kind changed once. Every guard still sees both answers.
 */
const model = createTestModel(zoneDrawingMachine, {
  events: sampleEvents,
  filterEvents: (state, event) => {
    const { vertices, name, kind } = state.context;
    switch (event.type) {
      case 'pointer.click':
        return (
          sameVertex(POINTS[vertices.length], event.point) ||
          sameVertex(vertices.at(-1), event.point) ||
          event.point === OUT
        );
      case 'vertex.drag':
        return sameVertex(vertices[0], A) || event.index >= vertices.length || event.point === OUT;
      case 'name.change':
        return name !== event.name;
      case 'kind.change':
        return kind !== event.kind;
      default:
        return true;
    }
  },
});

const bySnapshot = (state: Snapshot) => JSON.stringify({ value: state.value, context: state.context });

/** Every transition is its own target, self-loops and refused events included. */
const byTransition = (state: Snapshot, event: Event | undefined, previous: Snapshot | undefined) =>
  `${bySnapshot(state)}${event ? ` via ${JSON.stringify(event)} from ${JSON.stringify(previous?.value)}` : ''}`;

/** What the running machine must show in each state, beyond agreeing with the model. */
function stateChecks(sut: ZoneDrawingHarness) {
  const agrees = (state: Snapshot) => {
    expect(sut.snapshot().value).toEqual(state.value);
    expect(sut.snapshot().context).toEqual(state.context);
    expect(sut.snapshot().hasTag('busy')).toBe(state.value === 'saving');
    expect(sut.snapshot().hasTag('editing')).toBe(state.value !== 'idle');
  };
  return {
    idle: (state: Snapshot) => {
      agrees(state);
      expect(state.context).toEqual(EMPTY_CONTEXT);
      expect(sut.snapshot().can({ type: 'draw.start', floor: FLOOR })).toBe(true);
      expect(sut.snapshot().can({ type: 'pointer.click', point: A })).toBe(false);
    },
    drawing: (state: Snapshot) => {
      agrees(state);
      const count = state.context.vertices.length;
      const closes = count >= MIN_ZONE_VERTICES && polygonProblem(state.context.vertices, FLOOR) === null;
      expect(sut.snapshot().can({ type: 'pointer.dblclick' })).toBe(closes);
      expect(sut.snapshot().can({ type: 'draw.close' })).toBe(closes);
      expect(sut.snapshot().can({ type: 'draw.undo' })).toBe(count > 0);
      expect(sut.snapshot().can({ type: 'name.submit' })).toBe(false);
    },
    naming: (state: Snapshot) => {
      agrees(state);
      expect(state.context.vertices.length).toBeGreaterThanOrEqual(MIN_ZONE_VERTICES);
      expect(sut.snapshot().can({ type: 'name.submit' })).toBe(state.context.name.trim() !== '');
      expect(sut.snapshot().can({ type: 'pointer.click', point: E })).toBe(false);
    },
    saving: (state: Snapshot) => {
      agrees(state);
      const last = sut.effects.at(-1);
      expect(last).toEqual({
        type: 'requestSave',
        params: {
          name: state.context.name.trim(),
          kind: state.context.kind,
          coordinates: state.context.vertices,
        },
      });
      expect(sut.snapshot().can({ type: 'name.submit' })).toBe(false);
      expect(sut.snapshot().can({ type: 'draw.resume' })).toBe(false);
    },
  };
}

/** Sends each event and checks the effects it alone must cause. */
function eventExecutors(sut: ZoneDrawingHarness) {
  const step =
    (check?: (effects: ReturnType<ZoneDrawingHarness['send']>, before: string, event: Event) => void) =>
    (step: { event: { type: string } }) => {
      const event = step.event as Event;
      const before = zoneDrawingStateOf(sut.snapshot());
      const vertices = sut.snapshot().context.vertices;
      const effects = sut.send(event);
      if (check) check(effects, before, event);
      else expect(effects).toEqual([]);
      if (event.type === 'pointer.click' && before === 'drawing') {
        const added = !sameVertex(vertices.at(-1), event.point) && event.point !== OUT;
        expect(sut.snapshot().context.vertices).toEqual(added ? [...vertices, event.point] : vertices);
      }
    };
  const noEffects = step();
  return {
    'draw.start': noEffects,
    'pointer.click': noEffects,
    'vertex.drag': noEffects,
    'draw.undo': noEffects,
    'pointer.dblclick': noEffects,
    'draw.close': noEffects,
    'draw.resume': noEffects,
    'name.change': noEffects,
    'kind.change': noEffects,
    'name.submit': step((effects, before) => {
      expect(effects.map((effect) => effect.type)).toEqual(
        zoneDrawingStateOf(sut.snapshot()) === 'saving' && before === 'naming' ? ['requestSave'] : [],
      );
    }),
    'save.succeeded': noEffects,
    'save.failed': step((effects, before) => {
      expect(effects).toEqual([]);
      if (before === 'saving') expect(sut.snapshot().context.error).toBe(DUPLICATE);
    }),
    'draw.cancel': step((effects, before) => {
      expect(effects).toEqual(before === 'saving' ? [{ type: 'abortSave' }] : []);
      expect(zoneDrawingStateOf(sut.snapshot())).toBe('idle');
    }),
    'draw.interrupt': step((effects, before) => {
      expect(effects).toEqual(before === 'saving' ? [{ type: 'abortSave' }] : []);
      expect(zoneDrawingStateOf(sut.snapshot())).toBe('idle');
    }),
  };
}

function pathName(path: { steps: { event: Event | { type: string } }[] }): string {
  return path.steps
    .map(({ event }) => {
      const e = event as Event;
      if (e.type === 'pointer.click')
        return `click ${e.point === OUT ? 'outside' : 'ABCD'[POINTS.indexOf(e.point)]}`;
      if (e.type === 'vertex.drag') return `drag ${e.index}${e.point === OUT ? ' outside' : ''}`;
      if (e.type === 'name.change') return `name "${e.name}"`;
      return e.type;
    })
    .join(' → ');
}

describe('zone drawing model', () => {
  const shortest = model.getShortestPaths({ serializeState: byTransition });

  it('reaches every state and takes every event type', () => {
    const reached = new Set(shortest.flatMap((path) => path.steps.map((s) => zoneDrawingStateOf(s.state))));
    expect([...reached].sort()).toEqual(['drawing', 'idle', 'naming', 'saving']);
    const events = new Set(
      shortest
        .flatMap((path) => path.steps.map((s): string => s.event.type))
        .filter((type) => type !== 'xstate.init'),
    );
    expect([...events].sort()).toEqual([...new Set(sampleEvents.map((e) => e.type))].sort());
    // Every vertex count up to four, and a dragged first vertex, reach naming.
    const named = shortest.map((path) => path.state).filter((state) => state.value === 'naming');
    expect(new Set(named.map((state) => state.context.vertices.length))).toEqual(new Set([3, 4]));
    expect(named.some((state) => sameVertex(state.context.vertices[0], E))).toBe(true);
    expect(named.some((state) => state.context.error === DUPLICATE)).toBe(true);
    // The second click of a double-click never adds a vertex.
    expect(
      shortest.every((path) => path.state.context.vertices.every((v, i, all) => !sameVertex(all[i - 1], v))),
    ).toBe(true);
  });

  it.each(shortest.map((path) => [pathName(path), path] as const))('%s', async (_name, path) => {
    const sut = startZoneDrawing();
    await path.test({ states: stateChecks(sut), events: eventExecutors(sut) });
  });
});
