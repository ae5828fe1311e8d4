import { assign, type SnapshotFrom, setup } from 'xstate';
import type { LongLat } from '../domain/floor';
import { containsPoint } from '../domain/polygon';
import {
  MAX_WALL_POINTS,
  samePoint,
  translatePolyline,
  type WallMaterial,
  wallPolylineProblem,
} from '../domain/wallGeometry';
import { isNewVertex, isVertexIndex, validShapeName, withVertexAdded, withVertexMoved } from './vertexDraft';

/**
 * Drawing, moving, renaming and deleting a wall on the installation canvas (issue 19), after the
 * zone drawing machine. Pure: it never calls the server. The view provides three actions and
 * answers them: `requestSave` (a new wall) and `requestUpdate` (an edit) with save.succeeded /
 * save.failed, `requestDelete` with delete.succeeded / delete.failed; `abortRequest` drops a
 * request still in flight.
 *
 * A new wall:
 * idle ──draw.start──▶ drawing ──pointer.dblclick | draw.finish (≥ 2 vertices)──▶ naming
 *                        └ pointer.click adds, vertex.drag moves, draw.undo removes; draw.resume ◀┘
 * naming ──name.submit──▶ saving ──save.succeeded──▶ idle; save.failed ──▶ naming with the message
 *
 * An existing wall:
 * idle | selected ──wall.select──▶ selected ──move.start | vertex.grab──▶ moving
 * moving ──pointer.move (stays a valid polyline inside the floor)──▶ moving
 * moving ──move.end──▶ updating (it moved) | selected (it did not)
 * selected ──edit.submit (name or material changed)──▶ updating
 * updating ──save.succeeded──▶ selected; save.failed ──▶ selected with the message, points as stored
 * selected ──delete.request──▶ confirming ──delete.confirm──▶ deleting ──delete.succeeded──▶ idle
 *
 * Every state takes `draw.cancel` (Escape) and `draw.interrupt` (the floor changed, the canvas
 * went away). Interrupt always discards everything and returns to idle. Cancel discards a new
 * wall and deselects a selected one; while a wall is being dragged it puts it back where it was
 * and keeps it selected, and a delete confirmation is closed, the wall still selected. A
 * request in flight is aborted by either.
 */

/** A wall as the machine edits it: the stored wall's fields it can change. */
export interface WallShape {
  id: number;
  name: string;
  material: WallMaterial;
  points: LongLat[];
}

/** What `requestSave` sends for a new wall. */
export interface WallDraft {
  name: string;
  material: WallMaterial;
  points: LongLat[];
}

/** What `requestUpdate` sends: the wall's id and only what changed. */
export interface WallChange {
  id: number;
  name?: string;
  material?: WallMaterial;
  points?: LongLat[];
}

/** A drag in progress: of one vertex (`index`), or of the whole wall (`index` null) from `from`. */
export interface WallGrab {
  index: number | null;
  from: LongLat | null;
  /** The points when the drag began, put back by a cancel. */
  points: LongLat[];
}

export interface WallDrawingContext {
  /** The floor's corner ring a → b → c → d in [long, lat]: every vertex stays inside it. */
  floor: LongLat[];
  /** The selected wall as stored; null while drawing a new one. */
  saved: WallShape | null;
  /** The polyline being drawn, or the selected wall's points as shown (moved while dragging). */
  vertices: LongLat[];
  name: string;
  material: WallMaterial;
  /** The last failed request's message ("Wall name already exists!"). */
  error: string | null;
  grab: WallGrab | null;
  /** The update in flight, merged into `saved` when it succeeds. */
  pending: WallChange | null;
}

export type WallDrawingEvent =
  | { type: 'draw.start'; floor: LongLat[]; material?: WallMaterial }
  | { type: 'pointer.click'; point: LongLat }
  | { type: 'vertex.drag'; index: number; point: LongLat }
  | { type: 'draw.undo' }
  | { type: 'pointer.dblclick' }
  /** The keyboard's way to end the polyline (Enter, or the Finish button). */
  | { type: 'draw.finish' }
  | { type: 'draw.resume' }
  | { type: 'name.change'; name: string }
  | { type: 'material.change'; material: WallMaterial }
  | { type: 'name.submit' }
  | { type: 'save.succeeded' }
  | { type: 'save.failed'; message: string }
  | { type: 'wall.select'; wall: WallShape; floor: LongLat[] }
  | { type: 'wall.deselect' }
  /** A press on the selected wall's line: the whole wall follows the pointer from `point`. */
  | { type: 'move.start'; point: LongLat }
  /** A press on one of the selected wall's vertices. */
  | { type: 'vertex.grab'; index: number }
  | { type: 'pointer.move'; point: LongLat }
  | { type: 'move.end' }
  | { type: 'edit.submit' }
  | { type: 'delete.request' }
  | { type: 'delete.confirm' }
  | { type: 'delete.dismiss' }
  | { type: 'delete.succeeded' }
  | { type: 'delete.failed'; message: string }
  | { type: 'draw.cancel' }
  | { type: 'draw.interrupt' };

export const DEFAULT_WALL_MATERIAL: WallMaterial = 'drywall';

const EMPTY: WallDrawingContext = {
  floor: [],
  saved: null,
  vertices: [],
  name: '',
  material: DEFAULT_WALL_MATERIAL,
  error: null,
  grab: null,
  pending: null,
};

/** Where the grabbed wall (or vertex) goes with the pointer at `point`. */
function dragged(grab: WallGrab, point: LongLat): LongLat[] {
  if (grab.index === null) return grab.from ? translatePolyline(grab.points, grab.from, point) : grab.points;
  return grab.points.map((vertex, index) => (index === grab.index ? point : vertex));
}

function samePolyline(a: readonly LongLat[], b: readonly LongLat[]): boolean {
  return a.length === b.length && a.every((point, index) => samePoint(point, b[index]));
}

/** What the selected wall's fields changed from the stored ones (the name trimmed). */
function fieldChanges(context: WallDrawingContext): WallChange | null {
  const saved = context.saved;
  if (!saved) return null;
  const change: WallChange = { id: saved.id };
  const name = context.name.trim();
  if (name !== saved.name) change.name = name;
  if (context.material !== saved.material) change.material = context.material;
  return change.name === undefined && change.material === undefined ? null : change;
}

export const wallDrawingMachine = setup({
  types: {
    context: {} as WallDrawingContext,
    events: {} as WallDrawingEvent,
  },
  actions: {
    reset: assign(() => ({ ...EMPTY })),
    begin: assign(({ event }) =>
      event.type === 'draw.start'
        ? { ...EMPTY, floor: event.floor, material: event.material ?? DEFAULT_WALL_MATERIAL }
        : {},
    ),
    selectWall: assign(({ event }) =>
      event.type === 'wall.select'
        ? {
            ...EMPTY,
            floor: event.floor,
            saved: event.wall,
            vertices: event.wall.points,
            name: event.wall.name,
            material: event.wall.material,
          }
        : {},
    ),
    addVertex: assign({
      vertices: ({ context, event }) =>
        event.type === 'pointer.click' ? withVertexAdded(context.vertices, event.point) : context.vertices,
    }),
    moveVertex: assign({
      vertices: ({ context, event }) =>
        event.type === 'vertex.drag'
          ? withVertexMoved(context.vertices, event.index, event.point)
          : context.vertices,
    }),
    removeLastVertex: assign({ vertices: ({ context }) => context.vertices.slice(0, -1) }),
    setName: assign({
      name: ({ context, event }) => (event.type === 'name.change' ? event.name : context.name),
      error: null,
    }),
    setMaterial: assign({
      material: ({ context, event }) =>
        event.type === 'material.change' ? event.material : context.material,
      error: null,
    }),
    setError: assign({
      error: ({ event }) =>
        event.type === 'save.failed' || event.type === 'delete.failed' ? event.message : null,
    }),
    clearError: assign({ error: null }),
    grabWall: assign({
      grab: ({ context, event }) =>
        event.type === 'move.start' ? { index: null, from: event.point, points: context.vertices } : null,
      error: null,
    }),
    grabVertex: assign({
      grab: ({ context, event }) =>
        event.type === 'vertex.grab' ? { index: event.index, from: null, points: context.vertices } : null,
      error: null,
    }),
    drag: assign({
      vertices: ({ context, event }) =>
        event.type === 'pointer.move' && context.grab ? dragged(context.grab, event.point) : context.vertices,
    }),
    dropGrab: assign({ grab: null }),
    /** Puts the dragged wall back where the drag began. */
    undoGrab: assign({
      vertices: ({ context }) => context.grab?.points ?? context.vertices,
      grab: null,
    }),
    rememberPointsChange: assign({
      pending: ({ context }) => (context.saved ? { id: context.saved.id, points: context.vertices } : null),
      grab: null,
    }),
    rememberFieldChange: assign({ pending: ({ context }) => fieldChanges(context) }),
    /** The update is stored: what it sent is now the wall's. */
    commitPending: assign(({ context }) => {
      const { saved, pending } = context;
      if (!saved || !pending) return { pending: null };
      return {
        pending: null,
        saved: {
          ...saved,
          name: pending.name ?? saved.name,
          material: pending.material ?? saved.material,
          points: pending.points ?? saved.points,
        },
      };
    }),
    /** A refused update leaves the wall where it is stored; edited fields stay to be corrected. */
    dropPending: assign(({ context }) => ({
      pending: null,
      vertices: context.pending?.points && context.saved ? context.saved.points : context.vertices,
    })),
    /** Provided by the view: sends a new wall to the server, answers save.succeeded / save.failed. */
    requestSave: (_, _params: WallDraft) => {},
    /** Provided by the view: sends a change to the server, answers save.succeeded / save.failed. */
    requestUpdate: (_, _params: WallChange) => {},
    /** Provided by the view: deletes the wall, answers delete.succeeded / delete.failed. */
    requestDelete: (_, _params: { id: number }) => {},
    /** Provided by the view: aborts the request in flight, whose answer then never comes. */
    abortRequest: () => {},
  },
  guards: {
    /** Inside the floor, not where the last vertex is (a double-click's second click), room for more. */
    isNewVertex: ({ context, event }) =>
      event.type === 'pointer.click' &&
      context.vertices.length < MAX_WALL_POINTS &&
      isNewVertex(context.floor, context.vertices, event.point),
    isVertexMove: ({ context, event }) => {
      if (event.type !== 'vertex.drag') return false;
      const { index, point } = event;
      if (!isVertexIndex(context.vertices, index)) return false;
      if (!containsPoint(context.floor, point)) return false;
      const before = context.vertices[index - 1];
      const after = context.vertices[index + 1];
      return !(before && samePoint(before, point)) && !(after && samePoint(after, point));
    },
    hasVertices: ({ context }) => context.vertices.length > 0,
    canFinish: ({ context }) => wallPolylineProblem(context.vertices, context.floor) === null,
    canSave: ({ context }) => validShapeName(context.name),
    isVertexIndex: ({ context, event }) =>
      event.type === 'vertex.grab' && isVertexIndex(context.vertices, event.index),
    /** The dragged polyline stays a wall inside the floor; a move that would not is ignored. */
    canDragTo: ({ context, event }) =>
      event.type === 'pointer.move' &&
      context.grab !== null &&
      wallPolylineProblem(dragged(context.grab, event.point), context.floor) === null,
    moved: ({ context }) => context.grab !== null && !samePolyline(context.grab.points, context.vertices),
    canSubmitEdit: ({ context }) => validShapeName(context.name) && fieldChanges(context) !== null,
  },
}).createMachine({
  id: 'wallDrawing',
  context: { ...EMPTY },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'draw.start': { target: 'drawing', actions: 'begin' },
        'wall.select': { target: 'selected', actions: 'selectWall' },
        // Nothing is being drawn or edited: there is nothing to cancel or interrupt.
        'draw.cancel': {},
        'draw.interrupt': {},
      },
    },
    drawing: {
      tags: ['editing', 'drafting'],
      on: {
        'pointer.click': { guard: 'isNewVertex', actions: 'addVertex' },
        'vertex.drag': { guard: 'isVertexMove', actions: 'moveVertex' },
        'draw.undo': { guard: 'hasVertices', actions: 'removeLastVertex' },
        'pointer.dblclick': { guard: 'canFinish', target: 'naming' },
        'draw.finish': { guard: 'canFinish', target: 'naming' },
        'material.change': { actions: 'setMaterial' },
        'draw.cancel': { target: 'idle', actions: 'reset' },
        'draw.interrupt': { target: 'idle', actions: 'reset' },
      },
    },
    naming: {
      tags: ['editing', 'drafting'],
      on: {
        'name.change': { actions: 'setName' },
        'material.change': { actions: 'setMaterial' },
        'name.submit': {
          guard: 'canSave',
          target: 'saving',
          actions: [
            'clearError',
            {
              type: 'requestSave',
              params: ({ context }) => ({
                name: context.name.trim(),
                material: context.material,
                points: context.vertices,
              }),
            },
          ],
        },
        'draw.resume': { target: 'drawing', actions: 'clearError' },
        'draw.cancel': { target: 'idle', actions: 'reset' },
        'draw.interrupt': { target: 'idle', actions: 'reset' },
      },
    },
    saving: {
      tags: ['editing', 'drafting', 'busy'],
      on: {
        'save.succeeded': { target: 'idle', actions: 'reset' },
        'save.failed': { target: 'naming', actions: 'setError' },
        'draw.cancel': { target: 'idle', actions: ['abortRequest', 'reset'] },
        'draw.interrupt': { target: 'idle', actions: ['abortRequest', 'reset'] },
      },
    },
    selected: {
      tags: ['editing'],
      on: {
        'wall.select': { target: 'selected', actions: 'selectWall' },
        'wall.deselect': { target: 'idle', actions: 'reset' },
        'move.start': { target: 'moving', actions: 'grabWall' },
        'vertex.grab': { guard: 'isVertexIndex', target: 'moving', actions: 'grabVertex' },
        'name.change': { actions: 'setName' },
        'material.change': { actions: 'setMaterial' },
        'edit.submit': {
          guard: 'canSubmitEdit',
          target: 'updating',
          actions: [
            'clearError',
            'rememberFieldChange',
            { type: 'requestUpdate', params: ({ context }) => fieldChanges(context) ?? { id: -1 } },
          ],
        },
        'delete.request': { target: 'confirming', actions: 'clearError' },
        'draw.cancel': { target: 'idle', actions: 'reset' },
        'draw.interrupt': { target: 'idle', actions: 'reset' },
      },
    },
    moving: {
      tags: ['editing'],
      on: {
        'pointer.move': { guard: 'canDragTo', actions: 'drag' },
        'move.end': [
          {
            guard: 'moved',
            target: 'updating',
            actions: [
              'rememberPointsChange',
              {
                type: 'requestUpdate',
                params: ({ context }) => ({ id: context.saved?.id ?? -1, points: context.vertices }),
              },
            ],
          },
          { target: 'selected', actions: 'dropGrab' },
        ],
        'draw.cancel': { target: 'selected', actions: 'undoGrab' },
        'draw.interrupt': { target: 'idle', actions: 'reset' },
      },
    },
    updating: {
      tags: ['editing', 'busy'],
      on: {
        'save.succeeded': { target: 'selected', actions: 'commitPending' },
        'save.failed': { target: 'selected', actions: ['setError', 'dropPending'] },
        'draw.cancel': { target: 'idle', actions: ['abortRequest', 'reset'] },
        'draw.interrupt': { target: 'idle', actions: ['abortRequest', 'reset'] },
      },
    },
    confirming: {
      tags: ['editing'],
      on: {
        'delete.confirm': {
          target: 'deleting',
          actions: { type: 'requestDelete', params: ({ context }) => ({ id: context.saved?.id ?? -1 }) },
        },
        'delete.dismiss': { target: 'selected' },
        'draw.cancel': { target: 'selected' },
        'draw.interrupt': { target: 'idle', actions: 'reset' },
      },
    },
    deleting: {
      tags: ['editing', 'busy'],
      on: {
        'delete.succeeded': { target: 'idle', actions: 'reset' },
        'delete.failed': { target: 'selected', actions: 'setError' },
        'draw.cancel': { target: 'idle', actions: ['abortRequest', 'reset'] },
        'draw.interrupt': { target: 'idle', actions: ['abortRequest', 'reset'] },
      },
    },
  },
});

export type WallDrawingSnapshot = SnapshotFrom<typeof wallDrawingMachine>;
export type WallDrawingState =
  | 'idle'
  | 'drawing'
  | 'naming'
  | 'saving'
  | 'selected'
  | 'moving'
  | 'updating'
  | 'confirming'
  | 'deleting';

export function wallDrawingStateOf(snapshot: WallDrawingSnapshot): WallDrawingState {
  return snapshot.value as WallDrawingState;
}

/** The id of the wall being edited (selected, moved, saved or deleted), or null. */
export function selectedWallIdOf(snapshot: WallDrawingSnapshot): number | null {
  return snapshot.context.saved?.id ?? null;
}
