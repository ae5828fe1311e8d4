import { describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { wallPolylineProblem } from '../../src/domain/wallGeometry';
import {
  type WallDrawingState,
  wallDrawingMachine,
  wallDrawingStateOf,
} from '../../src/machines/wallDrawing.machine';
import {
  A,
  E,
  EMPTY_CONTEXT,
  FLOOR,
  OUT,
  POINTS,
  startWallDrawing,
  WALL,
  type WallDrawingHarness,
} from './helpers/wallDrawingHarness';

type Snapshot = SnapshotFrom<typeof wallDrawingMachine>;
type Event = EventFrom<typeof wallDrawingMachine>;

const NAME = '  Stair core  ';
const BLANK = '   ';
const DUPLICATE = 'Wall name already exists!';
const DELETE_FAILED = 'Something went wrong';

/** The payloads the model tries; a click at the last vertex is the double-click's second click. */
const sampleEvents: Event[] = [
  { type: 'draw.start', floor: FLOOR },
  ...POINTS.map((point) => ({ type: 'pointer.click' as const, point })),
  { type: 'pointer.click', point: OUT },
  { type: 'vertex.drag', index: 0, point: E },
  { type: 'vertex.drag', index: 5, point: E },
  { type: 'vertex.drag', index: 0, point: OUT },
  { type: 'draw.undo' },
  { type: 'pointer.dblclick' },
  { type: 'draw.finish' },
  { type: 'draw.resume' },
  { type: 'name.change', name: NAME },
  { type: 'name.change', name: BLANK },
  { type: 'material.change', material: 'concrete' },
  { type: 'name.submit' },
  { type: 'save.succeeded' },
  { type: 'save.failed', message: DUPLICATE },
  { type: 'wall.select', wall: WALL, floor: FLOOR },
  { type: 'wall.deselect' },
  { type: 'move.start', point: A },
  { type: 'vertex.grab', index: 0 },
  { type: 'vertex.grab', index: 9 },
  { type: 'pointer.move', point: E },
  { type: 'pointer.move', point: OUT },
  { type: 'move.end' },
  { type: 'edit.submit' },
  { type: 'delete.request' },
  { type: 'delete.confirm' },
  { type: 'delete.dismiss' },
  { type: 'delete.succeeded' },
  { type: 'delete.failed', message: DELETE_FAILED },
  { type: 'draw.cancel' },
  { type: 'draw.interrupt' },
];

const sameVertex = (a: readonly number[] | undefined, b: readonly number[]) =>
  a?.[0] === b[0] && a?.[1] === b[1];

/**
 * Keeps the graph finite and small: vertices are added in the order A, B, C (plus a repeat of the
 * last one, which the guard refuses), the first vertex is dragged once, a name or material is set
 * only to a different value, and the stored wall is grabbed only while it is where it started
 * (after one saved move it stays). Every guard still sees both answers.
 */
const model = createTestModel(wallDrawingMachine, {
  events: sampleEvents,
  filterEvents: (state, event) => {
    const { vertices, name, material, saved } = state.context;
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
      case 'material.change':
        return material !== event.material;
      case 'wall.select':
        return saved === null;
      case 'move.start':
      case 'vertex.grab':
        return saved !== null && sameVertex(saved.points[0], A);
      default:
        return true;
    }
  },
});

const bySnapshot = (state: Snapshot) => JSON.stringify({ value: state.value, context: state.context });

/** Every transition is its own target, self-loops and refused events included. */
const byTransition = (state: Snapshot, event: Event | undefined, previous: Snapshot | undefined) =>
  `${bySnapshot(state)}${event ? ` via ${JSON.stringify(event)} from ${JSON.stringify(previous?.value)}` : ''}`;

const BUSY: WallDrawingState[] = ['saving', 'updating', 'deleting'];

/** What the running machine must show in each state, beyond agreeing with the model. */
function stateChecks(sut: WallDrawingHarness) {
  const agrees = (state: Snapshot) => {
    expect(sut.snapshot().value).toEqual(state.value);
    expect(sut.snapshot().context).toEqual(state.context);
    expect(sut.snapshot().hasTag('busy')).toBe(BUSY.includes(wallDrawingStateOf(state)));
    expect(sut.snapshot().hasTag('editing')).toBe(state.value !== 'idle');
  };
  /** A selected wall's shown points are always a valid wall on the floor. */
  const validWall = (state: Snapshot) => {
    expect(state.context.saved).not.toBeNull();
    expect(wallPolylineProblem(state.context.vertices, FLOOR)).toBeNull();
  };
  const changed = (state: Snapshot) =>
    state.context.name.trim() !== state.context.saved?.name ||
    state.context.material !== state.context.saved?.material;
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
      const finishes = count >= 2 && wallPolylineProblem(state.context.vertices, FLOOR) === null;
      expect(sut.snapshot().can({ type: 'pointer.dblclick' })).toBe(finishes);
      expect(sut.snapshot().can({ type: 'draw.finish' })).toBe(finishes);
      expect(sut.snapshot().can({ type: 'draw.undo' })).toBe(count > 0);
      expect(sut.snapshot().can({ type: 'name.submit' })).toBe(false);
      expect(sut.snapshot().can({ type: 'wall.select', wall: WALL, floor: FLOOR })).toBe(false);
    },
    naming: (state: Snapshot) => {
      agrees(state);
      expect(wallPolylineProblem(state.context.vertices, FLOOR)).toBeNull();
      expect(sut.snapshot().can({ type: 'name.submit' })).toBe(state.context.name.trim() !== '');
      expect(sut.snapshot().can({ type: 'pointer.click', point: E })).toBe(false);
    },
    saving: (state: Snapshot) => {
      agrees(state);
      expect(sut.effects.at(-1)).toEqual({
        type: 'requestSave',
        params: {
          name: state.context.name.trim(),
          material: state.context.material,
          points: state.context.vertices,
        },
      });
      expect(sut.snapshot().can({ type: 'name.submit' })).toBe(false);
    },
    selected: (state: Snapshot) => {
      agrees(state);
      validWall(state);
      expect(state.context.grab).toBeNull();
      expect(state.context.pending).toBeNull();
      expect(sut.snapshot().can({ type: 'edit.submit' })).toBe(
        state.context.name.trim() !== '' && changed(state),
      );
      expect(sut.snapshot().can({ type: 'delete.request' })).toBe(true);
      expect(sut.snapshot().can({ type: 'pointer.click', point: E })).toBe(false);
    },
    moving: (state: Snapshot) => {
      agrees(state);
      validWall(state);
      expect(state.context.grab).not.toBeNull();
      expect(sut.snapshot().can({ type: 'delete.request' })).toBe(false);
    },
    updating: (state: Snapshot) => {
      agrees(state);
      expect(state.context.pending).not.toBeNull();
      expect(sut.effects.at(-1)).toEqual({ type: 'requestUpdate', params: state.context.pending });
      expect(sut.snapshot().can({ type: 'edit.submit' })).toBe(false);
      expect(sut.snapshot().can({ type: 'move.start', point: A })).toBe(false);
    },
    confirming: (state: Snapshot) => {
      agrees(state);
      expect(sut.snapshot().can({ type: 'delete.confirm' })).toBe(true);
      expect(sut.snapshot().can({ type: 'move.start', point: A })).toBe(false);
    },
    deleting: (state: Snapshot) => {
      agrees(state);
      expect(sut.effects.at(-1)).toEqual({ type: 'requestDelete', params: { id: WALL.id } });
      expect(sut.snapshot().can({ type: 'delete.confirm' })).toBe(false);
    },
  };
}

/** Sends each event and checks the effects it alone must cause. */
function eventExecutors(sut: WallDrawingHarness) {
  const step =
    (
      check?: (
        effects: ReturnType<WallDrawingHarness['send']>,
        before: WallDrawingState,
        event: Event,
      ) => void,
    ) =>
    (step: { event: { type: string } }) => {
      const event = step.event as Event;
      const before = wallDrawingStateOf(sut.snapshot());
      const { vertices, grab } = sut.snapshot().context;
      const effects = sut.send(event);
      const after = wallDrawingStateOf(sut.snapshot());
      if (check) check(effects, before, event);
      else expect(effects).toEqual([]);
      if (event.type === 'pointer.click' && before === 'drawing') {
        const added = !sameVertex(vertices.at(-1), event.point) && event.point !== OUT;
        expect(sut.snapshot().context.vertices).toEqual(added ? [...vertices, event.point] : vertices);
      }
      if (event.type === 'draw.cancel' && before === 'moving') {
        // Escape puts a dragged wall back where the drag began.
        expect(after).toBe('selected');
        expect(sut.snapshot().context.vertices).toEqual(grab?.points);
      }
    };
  const noEffects = step();
  const aborts = (effects: ReturnType<WallDrawingHarness['send']>, before: WallDrawingState) =>
    expect(effects).toEqual(BUSY.includes(before) ? [{ type: 'abortRequest' }] : []);
  return {
    'draw.start': noEffects,
    'pointer.click': noEffects,
    'vertex.drag': noEffects,
    'draw.undo': noEffects,
    'pointer.dblclick': noEffects,
    'draw.finish': noEffects,
    'draw.resume': noEffects,
    'name.change': noEffects,
    'material.change': noEffects,
    'name.submit': step((effects, before) => {
      const saved = before === 'naming' && wallDrawingStateOf(sut.snapshot()) === 'saving';
      expect(effects.map((effect) => effect.type)).toEqual(saved ? ['requestSave'] : []);
    }),
    'save.succeeded': noEffects,
    'save.failed': step((effects, before) => {
      expect(effects).toEqual([]);
      if (before === 'saving' || before === 'updating') expect(sut.snapshot().context.error).toBe(DUPLICATE);
      if (before === 'updating') {
        // The wall shows where it is stored.
        expect(sut.snapshot().context.vertices).toEqual(sut.snapshot().context.saved?.points);
      }
    }),
    'wall.select': noEffects,
    'wall.deselect': noEffects,
    'move.start': noEffects,
    'vertex.grab': noEffects,
    'pointer.move': noEffects,
    'move.end': step((effects, before) => {
      const sent = before === 'moving' && wallDrawingStateOf(sut.snapshot()) === 'updating';
      expect(effects).toEqual(
        sent
          ? [{ type: 'requestUpdate', params: { id: WALL.id, points: sut.snapshot().context.vertices } }]
          : [],
      );
    }),
    'edit.submit': step((effects, before) => {
      const sent = before === 'selected' && wallDrawingStateOf(sut.snapshot()) === 'updating';
      expect(effects.map((effect) => effect.type)).toEqual(sent ? ['requestUpdate'] : []);
    }),
    'delete.request': noEffects,
    'delete.confirm': step((effects, before) => {
      expect(effects).toEqual(
        before === 'confirming' ? [{ type: 'requestDelete', params: { id: WALL.id } }] : [],
      );
    }),
    'delete.dismiss': noEffects,
    'delete.succeeded': noEffects,
    'delete.failed': step((effects, before) => {
      expect(effects).toEqual([]);
      if (before === 'deleting') expect(sut.snapshot().context.error).toBe(DELETE_FAILED);
    }),
    'draw.cancel': step((effects, before) => {
      aborts(effects, before);
      const after = wallDrawingStateOf(sut.snapshot());
      expect(after).toBe(before === 'moving' || before === 'confirming' ? 'selected' : 'idle');
    }),
    'draw.interrupt': step((effects, before) => {
      aborts(effects, before);
      expect(wallDrawingStateOf(sut.snapshot())).toBe('idle');
    }),
  };
}

function pathName(path: { steps: { event: Event | { type: string } }[] }): string {
  return path.steps
    .map(({ event }) => {
      const e = event as Event;
      if (e.type === 'pointer.click')
        return `click ${e.point === OUT ? 'outside' : 'ABC'[POINTS.indexOf(e.point as (typeof POINTS)[number])]}`;
      if (e.type === 'vertex.drag') return `drag ${e.index}${e.point === OUT ? ' outside' : ''}`;
      if (e.type === 'vertex.grab') return `grab ${e.index}`;
      if (e.type === 'pointer.move') return `move${e.point === OUT ? ' outside' : ''}`;
      if (e.type === 'name.change') return `name "${e.name}"`;
      return e.type;
    })
    .join(' → ');
}

describe('wall drawing model', () => {
  const shortest = model.getShortestPaths({ serializeState: byTransition });

  it('reaches every state and takes every event type', () => {
    const reached = new Set(shortest.flatMap((path) => path.steps.map((s) => wallDrawingStateOf(s.state))));
    expect([...reached].sort()).toEqual(
      [
        'confirming',
        'deleting',
        'drawing',
        'idle',
        'moving',
        'naming',
        'saving',
        'selected',
        'updating',
      ].sort(),
    );
    const events = new Set(
      shortest
        .flatMap((path) => path.steps.map((s): string => s.event.type))
        .filter((type) => type !== 'xstate.init'),
    );
    expect([...events].sort()).toEqual([...new Set(sampleEvents.map((e) => e.type))].sort());
    const named = shortest.map((path) => path.state).filter((state) => state.value === 'naming');
    expect(new Set(named.map((state) => state.context.vertices.length))).toEqual(new Set([2, 3]));
    expect(named.some((state) => state.context.error === DUPLICATE)).toBe(true);
    // A whole-wall move and a vertex move both reach a stored wall.
    const stored = shortest
      .map((path) => path.state)
      .filter((state) => state.value === 'selected' && !sameVertex(state.context.saved?.points[0], A));
    expect(stored.length).toBeGreaterThan(0);
    // The second click of a double-click never adds a vertex.
    expect(
      shortest.every((path) => path.state.context.vertices.every((v, i, all) => !sameVertex(all[i - 1], v))),
    ).toBe(true);
  });

  it.each(shortest.map((path) => [pathName(path), path] as const))('%s', async (_name, path) => {
    const sut = startWallDrawing();
    await path.test({ states: stateChecks(sut), events: eventExecutors(sut) });
  });
});
