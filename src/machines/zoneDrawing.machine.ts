import { assign, type SnapshotFrom, setup } from 'xstate';
import type { LongLat, ZoneKind } from '../domain/floor';
import { containsPoint, polygonProblem } from '../domain/polygon';
import { isNewVertex, isVertexIndex, validShapeName, withVertexAdded, withVertexMoved } from './vertexDraft';

/**
 * Drawing a zone on the floor canvas (issue 3). Pure: it never calls the server. Saving is the
 * named action `requestSave`, which the view provides (`machine.provide`) and answers with
 * `save.succeeded` or `save.failed`; `abortSave` drops a save still in flight.
 *
 * idle ──draw.start (the floor)──▶ drawing ──pointer.dblclick | draw.close (a valid polygon)──▶ naming
 *   ▲                    ▲  └ pointer.click adds, vertex.drag moves, draw.undo removes
 *   │                    └──────────draw.resume──────────┘
 *   │                                               naming ──name.submit──▶ saving (busy)
 *   └──── save.succeeded ◀──────────────────────────────────────────────────────┘
 *
 * Every state takes `draw.cancel` (Escape: the drawing is discarded) and `draw.interrupt` (the
 * floor changed, the canvas went away: discarded too). A failed save returns to naming with the
 * server's message, so a duplicate name can be changed without redrawing.
 */

export interface ZoneDraft {
  name: string;
  kind: ZoneKind;
  coordinates: LongLat[];
}

export interface ZoneDrawingContext {
  /** The floor's corner ring a → b → c → d in [long, lat]: vertices must stay inside it. */
  floor: LongLat[];
  vertices: LongLat[];
  name: string;
  kind: ZoneKind;
  /** The last failed save's message ("Zone name already exists!"). */
  error: string | null;
}

export type ZoneDrawingEvent =
  | { type: 'draw.start'; floor: LongLat[] }
  | { type: 'pointer.click'; point: LongLat }
  | { type: 'vertex.drag'; index: number; point: LongLat }
  | { type: 'draw.undo' }
  | { type: 'pointer.dblclick' }
  /** The keyboard's way to close the ring (Enter, or the Finish button). */
  | { type: 'draw.close' }
  | { type: 'draw.resume' }
  | { type: 'name.change'; name: string }
  | { type: 'kind.change'; kind: ZoneKind }
  | { type: 'name.submit' }
  | { type: 'save.succeeded' }
  | { type: 'save.failed'; message: string }
  | { type: 'draw.cancel' }
  | { type: 'draw.interrupt' };

/** The fewest vertices a zone's polygon has. */
export const MIN_ZONE_VERTICES = 3;

const EMPTY: ZoneDrawingContext = { floor: [], vertices: [], name: '', kind: 'work', error: null };

export const zoneDrawingMachine = setup({
  types: {
    context: {} as ZoneDrawingContext,
    events: {} as ZoneDrawingEvent,
  },
  actions: {
    reset: assign(() => ({ ...EMPTY })),
    begin: assign(({ event }) => ({ ...EMPTY, floor: event.type === 'draw.start' ? event.floor : [] })),
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
    setKind: assign({
      kind: ({ context, event }) => (event.type === 'kind.change' ? event.kind : context.kind),
    }),
    setError: assign({
      error: ({ event }) => (event.type === 'save.failed' ? event.message : null),
    }),
    clearError: assign({ error: null }),
    /** Provided by the view: sends the draft to the server, answers save.succeeded / save.failed. */
    requestSave: (_, _params: ZoneDraft) => {},
    /** Provided by the view: aborts the save in flight, whose answer then never comes. */
    abortSave: () => {},
  },
  guards: {
    isNewVertex: ({ context, event }) =>
      event.type === 'pointer.click' && isNewVertex(context.floor, context.vertices, event.point),
    isVertexMove: ({ context, event }) =>
      event.type === 'vertex.drag' &&
      isVertexIndex(context.vertices, event.index) &&
      containsPoint(context.floor, event.point),
    hasVertices: ({ context }) => context.vertices.length > 0,
    /** The server's own rule (src/domain/polygon): ≥3 points, not crossing, inside the floor. */
    canClose: ({ context }) =>
      context.vertices.length >= MIN_ZONE_VERTICES &&
      polygonProblem(context.vertices, context.floor) === null,
    canSave: ({ context }) => validShapeName(context.name),
  },
}).createMachine({
  id: 'zoneDrawing',
  context: { ...EMPTY },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'draw.start': { target: 'drawing', actions: 'begin' },
        // Nothing is being drawn: there is nothing to cancel or interrupt.
        'draw.cancel': {},
        'draw.interrupt': {},
      },
    },
    drawing: {
      tags: ['editing'],
      on: {
        'pointer.click': { guard: 'isNewVertex', actions: 'addVertex' },
        'vertex.drag': { guard: 'isVertexMove', actions: 'moveVertex' },
        'draw.undo': { guard: 'hasVertices', actions: 'removeLastVertex' },
        'pointer.dblclick': { guard: 'canClose', target: 'naming' },
        'draw.close': { guard: 'canClose', target: 'naming' },
        'draw.cancel': { target: 'idle', actions: 'reset' },
        'draw.interrupt': { target: 'idle', actions: 'reset' },
      },
    },
    naming: {
      tags: ['editing'],
      on: {
        'name.change': { actions: 'setName' },
        'kind.change': { actions: 'setKind' },
        'name.submit': {
          guard: 'canSave',
          target: 'saving',
          actions: [
            'clearError',
            {
              type: 'requestSave',
              params: ({ context }) => ({
                name: context.name.trim(),
                kind: context.kind,
                coordinates: context.vertices,
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
      tags: ['editing', 'busy'],
      on: {
        'save.succeeded': { target: 'idle', actions: 'reset' },
        'save.failed': { target: 'naming', actions: 'setError' },
        'draw.cancel': { target: 'idle', actions: ['abortSave', 'reset'] },
        'draw.interrupt': { target: 'idle', actions: ['abortSave', 'reset'] },
      },
    },
  },
});

export type ZoneDrawingSnapshot = SnapshotFrom<typeof zoneDrawingMachine>;
export type ZoneDrawingState = 'idle' | 'drawing' | 'naming' | 'saving';

export function zoneDrawingStateOf(snapshot: ZoneDrawingSnapshot): ZoneDrawingState {
  return snapshot.value as ZoneDrawingState;
}
