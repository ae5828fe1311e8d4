import { createActor, type EventFrom, type Snapshot } from 'xstate';
import {
  type MaintenanceMapSnapshot,
  maintenanceMapMachine,
  selectClock,
} from '../../../src/machines/maintenanceMap.machine';

export type MapEffect = 'enterFullscreen' | 'leaveFullscreen';
export type MapEvent = EventFrom<typeof maintenanceMapMachine>;

/** The last 24 hours before 1 March 2025 06:00 UTC: the screen's default range. */
export const T0 = Date.UTC(2025, 2, 1, 6);
export const RANGE = { fromMs: T0 - 24 * 3_600_000, toMs: T0 };
/** Another range the user picks: the last 6 hours. */
export const OTHER_RANGE = { fromMs: T0 - 6 * 3_600_000, toMs: T0 };

/**
 * The map machine with its two full-screen effects recorded instead of reaching the document;
 * from `snapshot` (a persisted one, its clock included) when given.
 */
export function startMaintenanceMap(snapshot?: Snapshot<unknown>) {
  const effects: MapEffect[] = [];
  const machine = maintenanceMapMachine.provide({
    actions: {
      enterFullscreen: () => {
        effects.push('enterFullscreen');
      },
      leaveFullscreen: () => {
        effects.push('leaveFullscreen');
      },
    },
  });
  const actor = createActor(machine, { input: { range: RANGE }, snapshot }).start();
  return {
    actor,
    effects,
    snapshot: (): MaintenanceMapSnapshot => actor.getSnapshot(),
    clock: () => selectClock(actor.getSnapshot()),
    /** Sends one event and answers the effects it caused. */
    send(event: MapEvent): MapEffect[] {
      const before = effects.length;
      actor.send(event);
      return effects.slice(before);
    },
    persisted: () => actor.getPersistedSnapshot(),
    stop: () => actor.stop(),
  };
}

export type MaintenanceMapHarness = ReturnType<typeof startMaintenanceMap>;
