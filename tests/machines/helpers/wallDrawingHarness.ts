import { createActor, type EventFrom } from 'xstate';
import type { LongLat } from '../../../src/domain/floor';
import {
  type WallChange,
  type WallDraft,
  type WallShape,
  wallDrawingMachine,
} from '../../../src/machines/wallDrawing.machine';

export type WallDrawingEffect =
  | { type: 'requestSave'; params: WallDraft }
  | { type: 'requestUpdate'; params: WallChange }
  | { type: 'requestDelete'; params: { id: number } }
  | { type: 'abortRequest' };

/** Points inside the floor, in [long, lat]; E is where a dragged vertex or wall goes. */
export const A: LongLat = [55.27, 25.2];
export const B: LongLat = [55.271, 25.2];
export const C: LongLat = [55.271, 25.201];
export const E: LongLat = [55.2705, 25.1995];
export const POINTS = [A, B, C] as const;
/** Beyond the floor's east edge. */
export const OUT: LongLat = [55.28, 25.2005];
/** The floor's corner ring a → b → c → d around all of the points above but OUT. */
export const FLOOR: LongLat[] = [
  [55.269, 25.202],
  [55.272, 25.202],
  [55.272, 25.199],
  [55.269, 25.199],
];

/** A stored wall from A to B. */
export const WALL: WallShape = { id: 7, name: 'North wall', material: 'brick', points: [A, B] };

export const EMPTY_CONTEXT = {
  floor: [],
  saved: null,
  vertices: [],
  name: '',
  material: 'drywall',
  error: null,
  grab: null,
  pending: null,
};

/** The wall machine with its four effects recorded instead of calling a server. */
export function startWallDrawing() {
  const effects: WallDrawingEffect[] = [];
  const machine = wallDrawingMachine.provide({
    actions: {
      requestSave: (_, params) => {
        effects.push({ type: 'requestSave', params });
      },
      requestUpdate: (_, params) => {
        effects.push({ type: 'requestUpdate', params });
      },
      requestDelete: (_, params) => {
        effects.push({ type: 'requestDelete', params });
      },
      abortRequest: () => {
        effects.push({ type: 'abortRequest' });
      },
    },
  });
  const actor = createActor(machine).start();
  return {
    actor,
    effects,
    snapshot: () => actor.getSnapshot(),
    /** Sends one event and answers the effects it caused. */
    send(event: EventFrom<typeof wallDrawingMachine>): WallDrawingEffect[] {
      const before = effects.length;
      actor.send(event);
      return effects.slice(before);
    },
  };
}

export type WallDrawingHarness = ReturnType<typeof startWallDrawing>;
