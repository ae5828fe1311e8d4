import { createActor, type EventFrom } from 'xstate';
import type { LongLat } from '../../../src/domain/floor';
import { type ZoneDraft, zoneDrawingMachine } from '../../../src/machines/zoneDrawing.machine';

export type ZoneDrawingEffect = { type: 'requestSave'; params: ZoneDraft } | { type: 'abortSave' };

/** Points inside a floor, in [long, lat]; E is where a dragged vertex goes. */
export const A: LongLat = [55.27, 25.2];
export const B: LongLat = [55.271, 25.2];
export const C: LongLat = [55.271, 25.201];
export const D: LongLat = [55.27, 25.201];
export const E: LongLat = [55.2705, 25.1995];
export const POINTS = [A, B, C, D] as const;
/** Beyond the floor's east edge. */
export const OUT: LongLat = [55.28, 25.2005];
/** The floor's corner ring a → b → c → d around all of the points above but OUT. */
export const FLOOR: LongLat[] = [
  [55.269, 25.202],
  [55.272, 25.202],
  [55.272, 25.199],
  [55.269, 25.199],
];
export const EMPTY_CONTEXT = { floor: [], vertices: [], name: '', kind: 'work', error: null };

/** The drawing machine with its two effects recorded instead of calling a server. */
export function startZoneDrawing() {
  const effects: ZoneDrawingEffect[] = [];
  const machine = zoneDrawingMachine.provide({
    actions: {
      requestSave: (_, params) => {
        effects.push({ type: 'requestSave', params });
      },
      abortSave: () => {
        effects.push({ type: 'abortSave' });
      },
    },
  });
  const actor = createActor(machine).start();
  return {
    actor,
    effects,
    snapshot: () => actor.getSnapshot(),
    /** Sends one event and answers the effects it caused. */
    send(event: EventFrom<typeof zoneDrawingMachine>): ZoneDrawingEffect[] {
      const before = effects.length;
      actor.send(event);
      return effects.slice(before);
    },
  };
}

export type ZoneDrawingHarness = ReturnType<typeof startZoneDrawing>;
