import { assign, type SnapshotFrom, setup } from 'xstate';

/**
 * The playback clock of a recorded time range (issue 16): the analytics replay of a floor's helmets
 * and the maintenance map's replay of anchor nodes both run on it, so it knows nothing of either.
 * Pure: no timers, no fetching. The screen sends `clock.tick` from an animation-frame ticker
 * (src/streams/playbackClock.ts) while `isPlaybackRunning`, and feeds the history stream's
 * `buffering$` back as `stream.buffering` / `stream.buffered`.
 *
 * idle ──playback.load──▶ loading.held ⇄ loading.resuming (play/pause/toggle while buffering)
 *                          │ stream.buffered: resuming → playing, held → paused, at the end → ended
 *              paused ◀────┴────▶ playing ──clock.tick reaching range.toMs──▶ ended
 *                 ▲ pause/toggle/step │                                          │ play/toggle:
 *                 └───────────────────┘ ◀──────────── seek/step back ────────────┘ from range.fromMs
 * paused, playing and ended go to loading on `stream.buffering` (the playhead is past what the
 * stream holds) and remember whether to play on. `playback.seek` clamps to the range everywhere;
 * `playback.load` starts over with a new range from any state, `playback.unload` is the interrupt
 * (the floor or node changed) and returns to idle.
 */

/** Speeds the player offers: 600× plays a 10-hour shift in one minute. */
export const PLAYBACK_SPEEDS = [1, 2, 5, 10, 30, 60, 120, 300, 600] as const;
export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];

/** One `playback.step` without an explicit size moves the playhead this far. */
export const PLAYBACK_STEP_MS = 1_000;

/** The recorded span in absolute milliseconds; the playhead stays within [fromMs, toMs]. */
export interface PlaybackRange {
  fromMs: number;
  toMs: number;
}

export interface PlaybackContext {
  range: PlaybackRange | null;
  playheadMs: number;
  speed: PlaybackSpeed;
}

export type PlaybackEvent =
  /** A new range; the playhead starts at `playheadMs` (clamped) or the range's start. */
  | { type: 'playback.load'; range: PlaybackRange; playheadMs?: number }
  /** Interrupt: the floor, node or range went away. */
  | { type: 'playback.unload' }
  | { type: 'playback.play' }
  | { type: 'playback.pause' }
  | { type: 'playback.toggle' }
  /** Scrub or "jump to a clock time": clamped to the range. */
  | { type: 'playback.seek'; ms: number }
  /** One step back or forward; `ms` defaults to PLAYBACK_STEP_MS. A step while playing pauses. */
  | { type: 'playback.step'; direction: 1 | -1; ms?: number }
  | { type: 'playback.speed'; speed: number }
  /** Real milliseconds since the last animation frame; moves the playhead by elapsed × speed. */
  | { type: 'clock.tick'; elapsedMs: number }
  /** The stream does not hold the history at the playhead: wait without advancing. */
  | { type: 'stream.buffering' }
  | { type: 'stream.buffered' };

export function isPlaybackSpeed(speed: number): speed is PlaybackSpeed {
  return (PLAYBACK_SPEEDS as readonly number[]).includes(speed);
}

export function isValidRange(range: PlaybackRange): boolean {
  return Number.isFinite(range.fromMs) && Number.isFinite(range.toMs) && range.toMs > range.fromMs;
}

export function clampToRange(range: PlaybackRange, ms: number): number {
  return Math.min(range.toMs, Math.max(range.fromMs, ms));
}

/** Where a step from the playhead lands, or null when there is no range or it would not move. */
function steppedPlayhead(context: PlaybackContext, direction: number, ms = PLAYBACK_STEP_MS): number | null {
  if (!context.range || !Number.isFinite(ms) || ms <= 0) return null;
  const next = clampToRange(context.range, context.playheadMs + Math.sign(direction) * ms);
  return next === context.playheadMs ? null : next;
}

const atEnd = (context: PlaybackContext) =>
  context.range !== null && context.playheadMs >= context.range.toMs;

const INITIAL: PlaybackContext = { range: null, playheadMs: 0, speed: 1 };

export const playbackMachine = setup({
  types: {
    context: {} as PlaybackContext,
    events: {} as PlaybackEvent,
  },
  actions: {
    load: assign(({ context, event }) => {
      if (event.type !== 'playback.load') return {};
      const range = { fromMs: event.range.fromMs, toMs: event.range.toMs };
      const start = event.playheadMs ?? range.fromMs;
      return { ...context, range, playheadMs: clampToRange(range, Number.isFinite(start) ? start : 0) };
    }),
    unload: assign(({ context }) => ({ ...INITIAL, speed: context.speed })),
    seek: assign({
      playheadMs: ({ context, event }) =>
        event.type === 'playback.seek' && context.range
          ? clampToRange(context.range, event.ms)
          : context.playheadMs,
    }),
    step: assign({
      playheadMs: ({ context, event }) =>
        event.type === 'playback.step'
          ? (steppedPlayhead(context, event.direction, event.ms) ?? context.playheadMs)
          : context.playheadMs,
    }),
    setSpeed: assign({
      speed: ({ context, event }) =>
        event.type === 'playback.speed' && isPlaybackSpeed(event.speed) ? event.speed : context.speed,
    }),
    advance: assign({
      playheadMs: ({ context, event }) =>
        event.type === 'clock.tick' && context.range
          ? clampToRange(context.range, context.playheadMs + event.elapsedMs * context.speed)
          : context.playheadMs,
    }),
    rewind: assign({ playheadMs: ({ context }) => context.range?.fromMs ?? context.playheadMs }),
  },
  guards: {
    validLoad: ({ event }) =>
      event.type === 'playback.load' &&
      isValidRange(event.range) &&
      (event.playheadMs === undefined || Number.isFinite(event.playheadMs)),
    validSeek: ({ event }) => event.type === 'playback.seek' && Number.isFinite(event.ms),
    /** Seeking to the range's end (or past it) ends the playback. */
    seekEnds: ({ context, event }) =>
      event.type === 'playback.seek' && context.range !== null && event.ms >= context.range.toMs,
    canStep: ({ context, event }) =>
      event.type === 'playback.step' && steppedPlayhead(context, event.direction, event.ms) !== null,
    stepEnds: ({ context, event }) =>
      event.type === 'playback.step' &&
      context.range !== null &&
      steppedPlayhead(context, event.direction, event.ms) === context.range.toMs,
    validSpeed: ({ event }) => event.type === 'playback.speed' && isPlaybackSpeed(event.speed),
    validTick: ({ event }) =>
      event.type === 'clock.tick' && Number.isFinite(event.elapsedMs) && event.elapsedMs > 0,
    tickEnds: ({ context, event }) =>
      event.type === 'clock.tick' &&
      context.range !== null &&
      context.playheadMs + event.elapsedMs * context.speed >= context.range.toMs,
    atEnd: ({ context }) => atEnd(context),
  },
}).createMachine({
  id: 'playback',
  context: { ...INITIAL },
  initial: 'idle',
  on: {
    // From every state: a new range starts over (held: it plays once the user says so).
    'playback.load': { guard: 'validLoad', target: '.loading.held', actions: 'load' },
    'playback.speed': { guard: 'validSpeed', actions: 'setSpeed' },
  },
  states: {
    idle: {
      on: {
        // Nothing is loaded: there is nothing to unload, and the stream has nothing to say.
        'playback.unload': {},
      },
    },
    loading: {
      tags: ['busy'],
      initial: 'held',
      on: {
        'playback.unload': { target: 'idle', actions: 'unload' },
        'playback.seek': { guard: 'validSeek', actions: 'seek' },
        'playback.step': { guard: 'canStep', actions: 'step' },
        'stream.buffering': {},
      },
      states: {
        held: {
          on: {
            'playback.play': [
              { guard: 'atEnd', target: 'resuming', actions: 'rewind' },
              { target: 'resuming' },
            ],
            'playback.toggle': [
              { guard: 'atEnd', target: 'resuming', actions: 'rewind' },
              { target: 'resuming' },
            ],
            'stream.buffered': [
              { guard: 'atEnd', target: '#playback.ended' },
              { target: '#playback.paused' },
            ],
          },
        },
        resuming: {
          tags: ['running'],
          on: {
            'playback.pause': { target: 'held' },
            'playback.toggle': { target: 'held' },
            'playback.step': { guard: 'canStep', target: 'held', actions: 'step' },
            'stream.buffered': [
              { guard: 'atEnd', target: '#playback.ended' },
              { target: '#playback.playing' },
            ],
          },
        },
      },
    },
    paused: {
      on: {
        'playback.unload': { target: 'idle', actions: 'unload' },
        'playback.play': { target: 'playing' },
        'playback.toggle': { target: 'playing' },
        'playback.seek': [
          { guard: 'seekEnds', target: 'ended', actions: 'seek' },
          { guard: 'validSeek', actions: 'seek' },
        ],
        'playback.step': [
          { guard: 'stepEnds', target: 'ended', actions: 'step' },
          { guard: 'canStep', actions: 'step' },
        ],
        'stream.buffering': { target: 'loading.held' },
      },
    },
    playing: {
      tags: ['running'],
      on: {
        'playback.unload': { target: 'idle', actions: 'unload' },
        'playback.pause': { target: 'paused' },
        'playback.toggle': { target: 'paused' },
        'playback.seek': [
          { guard: 'seekEnds', target: 'ended', actions: 'seek' },
          { guard: 'validSeek', actions: 'seek' },
        ],
        // Stepping is frame by frame: it pauses where it lands.
        'playback.step': [
          { guard: 'stepEnds', target: 'ended', actions: 'step' },
          { guard: 'canStep', target: 'paused', actions: 'step' },
        ],
        'clock.tick': [
          { guard: 'tickEnds', target: 'ended', actions: 'advance' },
          { guard: 'validTick', actions: 'advance' },
        ],
        'stream.buffering': { target: 'loading.resuming' },
      },
    },
    ended: {
      on: {
        'playback.unload': { target: 'idle', actions: 'unload' },
        // Playing again starts from the range's start.
        'playback.play': { target: 'playing', actions: 'rewind' },
        'playback.toggle': { target: 'playing', actions: 'rewind' },
        'playback.seek': [
          { guard: 'seekEnds', actions: 'seek' },
          { guard: 'validSeek', target: 'paused', actions: 'seek' },
        ],
        'playback.step': { guard: 'canStep', target: 'paused', actions: 'step' },
        'stream.buffering': { target: 'loading.held' },
      },
    },
  },
});

export type PlaybackSnapshot = SnapshotFrom<typeof playbackMachine>;
export type PlaybackStateName = 'idle' | 'loading' | 'paused' | 'playing' | 'ended';

export function playbackStateOf(snapshot: PlaybackSnapshot): PlaybackStateName {
  return (typeof snapshot.value === 'string' ? snapshot.value : 'loading') as PlaybackStateName;
}

/** The play/pause button shows "pause": playing, or waiting for history to play on. */
export const isPlaybackRunning = (snapshot: PlaybackSnapshot): boolean => snapshot.hasTag('running');
/** History is loading at the playhead: show the stream's progress (chunks fetched of total). */
export const isPlaybackBuffering = (snapshot: PlaybackSnapshot): boolean => snapshot.hasTag('busy');
/** The animation-frame ticker runs only here: ticks anywhere else are ignored anyway. */
export const isPlaybackTicking = (snapshot: PlaybackSnapshot): boolean => snapshot.matches('playing');
export const selectPlayheadMs = (snapshot: PlaybackSnapshot): number => snapshot.context.playheadMs;
export const selectPlaybackRange = (snapshot: PlaybackSnapshot): PlaybackRange | null =>
  snapshot.context.range;
export const selectPlaybackSpeed = (snapshot: PlaybackSnapshot): PlaybackSpeed => snapshot.context.speed;

/** How far through the range the playhead is, 0 … 1 (0 with no range): the scrubber's position. */
export function playbackFraction(snapshot: PlaybackSnapshot): number {
  const { range, playheadMs } = snapshot.context;
  if (!range) return 0;
  return (playheadMs - range.fromMs) / (range.toMs - range.fromMs);
}

/** The next faster (+1) or slower (−1) offered speed, staying at the ends. */
export function adjacentSpeed(speed: PlaybackSpeed, direction: 1 | -1): PlaybackSpeed {
  const index = PLAYBACK_SPEEDS.indexOf(speed);
  return PLAYBACK_SPEEDS[Math.min(PLAYBACK_SPEEDS.length - 1, Math.max(0, index + direction))];
}
