import { type ActorRefFrom, assign, type SnapshotFrom, sendTo, setup } from 'xstate';
import { isValidRange, type PlaybackEvent, type PlaybackRange, playbackMachine } from './playback.machine';

/**
 * The maintenance map's modes (issue "Maintenance kit and nodes", spec §2): full screen,
 * presentation, anchor graph view and playback. Three regions side by side:
 *
 *   fullscreen:   off ⇄ on            mode.fullscreen toggles; fullscreen.exited (the browser left
 *                                      full screen itself: Esc, a refused request) turns it off
 *   presentation: off ⇄ on            mode.presentation toggles
 *   view:         live ⇄ graph ⇄ playback ⇄ live
 *                 mode.graph and mode.playback toggle their own mode; entering one leaves the
 *                 other, so the anchor graph and playback never show together
 *
 * `mode.reset` clears presentation and full screen, and only those: it is about how the map is
 * shown, not what it shows, so a replay or the anchor graph stays as it was (an engineer who
 * leaves the wall display keeps the replay where it is). With neither on, reset is refused, so
 * `snapshot.can({ type: 'mode.reset' })` enables the button.
 *
 * The playback mode owns the clock: the analytics playback machine (playback.machine.ts) invoked
 * as the child `clock` while in playback, loaded with the map's range on entry and again on every
 * `range.set`, stopped on leaving (a replay left is a replay over). The player's controls and the
 * history stream's feedback (`playback.play`, `clock.tick`, `stream.buffered`, …) are sent to this
 * machine, which passes them on to the clock; outside playback they are refused.
 *
 * Full screen's effects are the named actions `enterFullscreen` and `leaveFullscreen` that the
 * screen provides (the Fullscreen API needs the user's click, so they run inside the send); the
 * machine stays pure otherwise: no timers, no fetching, no clock of its own.
 */

export type MapView = 'live' | 'graph' | 'playback';

export interface MaintenanceMapContext {
  /** The range a replay covers (the screen's "last 24 h" unless another is picked). */
  range: PlaybackRange;
}

export interface MaintenanceMapInput {
  range: PlaybackRange;
}

/** The clock's events the map passes on while replaying; loading and unloading are the map's own. */
export type ClockControlEvent = Exclude<PlaybackEvent, { type: 'playback.load' | 'playback.unload' }>;

export type MaintenanceMapEvent =
  | { type: 'mode.fullscreen' }
  | { type: 'mode.presentation' }
  | { type: 'mode.graph' }
  | { type: 'mode.playback' }
  | { type: 'mode.reset' }
  /** The document left full screen without the map asking (Esc, F11, a refused request). */
  | { type: 'fullscreen.exited' }
  /** A new replay range: kept, and loaded into the clock when replaying. */
  | { type: 'range.set'; range: PlaybackRange }
  | ClockControlEvent;

const CLOCK_EVENTS: readonly ClockControlEvent['type'][] = [
  'playback.play',
  'playback.pause',
  'playback.toggle',
  'playback.seek',
  'playback.step',
  'playback.speed',
  'clock.tick',
  'stream.buffering',
  'stream.buffered',
];

const copyRange = (range: PlaybackRange): PlaybackRange => ({ fromMs: range.fromMs, toMs: range.toMs });

export const maintenanceMapMachine = setup({
  types: {
    context: {} as MaintenanceMapContext,
    events: {} as MaintenanceMapEvent,
    input: {} as MaintenanceMapInput,
  },
  actors: { clock: playbackMachine },
  actions: {
    /** The screen's: request the Fullscreen API on the map (or fall back to a full-viewport class). */
    enterFullscreen: () => {},
    /** The screen's: leave the Fullscreen API's full screen if the document is in it. */
    leaveFullscreen: () => {},
    setRange: assign({
      range: ({ context, event }) => (event.type === 'range.set' ? copyRange(event.range) : context.range),
    }),
    loadClock: sendTo('clock', ({ context }) => ({ type: 'playback.load', range: context.range }) as const),
    forwardToClock: sendTo('clock', ({ event }) => event as PlaybackEvent),
  },
  guards: {
    validRange: ({ event }) => event.type === 'range.set' && isValidRange(event.range),
  },
}).createMachine({
  id: 'maintenanceMap',
  type: 'parallel',
  context: ({ input }) => ({ range: copyRange(input.range) }),
  states: {
    fullscreen: {
      initial: 'off',
      states: {
        off: {
          on: { 'mode.fullscreen': { target: 'on', actions: 'enterFullscreen' } },
        },
        on: {
          on: {
            'mode.fullscreen': { target: 'off', actions: 'leaveFullscreen' },
            'mode.reset': { target: 'off', actions: 'leaveFullscreen' },
            // Already out: nothing to leave.
            'fullscreen.exited': { target: 'off' },
          },
        },
      },
    },
    presentation: {
      initial: 'off',
      states: {
        off: { on: { 'mode.presentation': { target: 'on' } } },
        on: { on: { 'mode.presentation': { target: 'off' }, 'mode.reset': { target: 'off' } } },
      },
    },
    view: {
      initial: 'live',
      states: {
        live: {
          on: {
            'mode.graph': { target: 'graph' },
            'mode.playback': { target: 'playback' },
            'range.set': { guard: 'validRange', actions: 'setRange' },
          },
        },
        graph: {
          on: {
            'mode.graph': { target: 'live' },
            'mode.playback': { target: 'playback' },
            'range.set': { guard: 'validRange', actions: 'setRange' },
          },
        },
        playback: {
          tags: ['replaying'],
          invoke: { id: 'clock', src: 'clock' },
          entry: 'loadClock',
          on: {
            'mode.playback': { target: 'live' },
            'mode.graph': { target: 'graph' },
            'range.set': { guard: 'validRange', actions: ['setRange', 'loadClock'] },
            ...Object.fromEntries(CLOCK_EVENTS.map((type) => [type, { actions: 'forwardToClock' }])),
          },
        },
      },
    },
  },
});

export type MaintenanceMapSnapshot = SnapshotFrom<typeof maintenanceMapMachine>;
export type MaintenanceMapActor = ActorRefFrom<typeof maintenanceMapMachine>;
export type ClockActor = ActorRefFrom<typeof playbackMachine>;

export const isFullscreen = (snapshot: MaintenanceMapSnapshot): boolean =>
  snapshot.matches({ fullscreen: 'on' });
export const isPresentation = (snapshot: MaintenanceMapSnapshot): boolean =>
  snapshot.matches({ presentation: 'on' });

export function mapViewOf(snapshot: MaintenanceMapSnapshot): MapView {
  if (snapshot.matches({ view: 'playback' })) return 'playback';
  return snapshot.matches({ view: 'graph' }) ? 'graph' : 'live';
}

/** The links between nodes are drawn: the anchor graph, or a replay (its links come and go). */
export const showsLinks = (snapshot: MaintenanceMapSnapshot): boolean => mapViewOf(snapshot) !== 'live';

/** The replay's clock while in playback; undefined otherwise. */
export function selectClock(snapshot: MaintenanceMapSnapshot): ClockActor | undefined {
  return snapshot.children.clock as ClockActor | undefined;
}

export const selectRange = (snapshot: MaintenanceMapSnapshot): PlaybackRange => snapshot.context.range;

/** The four modes as the toolbar shows them pressed. */
export interface PressedModes {
  fullscreen: boolean;
  presentation: boolean;
  graph: boolean;
  playback: boolean;
}

export function pressedModes(snapshot: MaintenanceMapSnapshot): PressedModes {
  const view = mapViewOf(snapshot);
  return {
    fullscreen: isFullscreen(snapshot),
    presentation: isPresentation(snapshot),
    graph: view === 'graph',
    playback: view === 'playback',
  };
}
