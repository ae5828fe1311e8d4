// The canvas harness's playback mode (`canvas.html?mode=playback`), for bench/playbackFrames.bench.ts:
// a synthetic 10-hour day of helmets at 1 Hz replayed through the real clock machine, history
// stream and animation-frame ticker, drawn as markers on the workers layer and a trailing window
// on the trails layer (built by the playback screen's own `trailsOf`), while the page measures
// requestAnimationFrame deltas.
import { BehaviorSubject, defer, from, map, type Subscription, startWith } from 'rxjs';
import { createActor } from 'xstate';
import type { Floor } from '../../../src/domain/floor';
import { floorTransform, imagePoint } from '../../../src/domain/geo';
import type { WorkerOnMap } from '../../../src/domain/inventory';
import { HISTORY_ACTIVE, HISTORY_ONLINE } from '../../../src/domain/schemas/analytics';
import {
  isPlaybackTicking,
  type PlaybackSpeed,
  playbackMachine,
  playbackStateOf,
  selectPlaybackSpeed,
  selectPlayheadMs,
} from '../../../src/machines/playback.machine';
import {
  type PlaybackFrame,
  type PlaybackProgress,
  playbackStream,
  type SampleWindow,
} from '../../../src/streams/playback.stream';
import { playbackTicks$ } from '../../../src/streams/playbackClock';
import type { WorkerMap } from '../../../src/streams/workerMapState';
import { trailsOf as screenTrailsOf } from '../../../src/views/analytics/PlaybackFrame';
import type { CanvasStats } from '../../../src/views/canvas/frameStatistics';
import { layerDataSource } from '../../../src/views/canvas/layers/layerInputs';
import { TRAILS, type TrailsData, trailColour } from '../../../src/views/canvas/layers/TrailsLayer';
import { CORNERS, IMAGE } from './fixture';

/** What the bench asks the page to replay (serialisable: it crosses page.evaluate). */
export interface PlaybackRunOptions {
  workerCount: number;
  speed: PlaybackSpeed;
  /** Span of the trailing trails behind the playhead. */
  trailMs: number;
  /** Where in the day the playhead starts, ms after the day's start. */
  startOffsetMs: number;
  /** Frames played before measuring (prefetch settles, JIT warms up). */
  warmupFrames: number;
  frames: number;
}

/** What one measured replay did (serialisable). */
export interface PlaybackRunResult {
  /** requestAnimationFrame deltas over the measured frames, ms. */
  deltas: number[];
  /** The engine's counters over exactly the measured frames. */
  engine: { renderedFrames: number; renderMs: number; frameMs: number };
  /** Main-thread ms of `clock.tick` handling (machine → snapshot → stream frame → markers and trails). */
  tickMs: number;
  ticks: number;
  /** Of tickMs: turning stream frames into markers and trails. */
  buildMs: number;
  framesBuilt: number;
  /** Generating the synthetic windows (what a real fetch would spend decoding), ms in total. */
  fetchMs: number;
  windowsFetched: number;
  /** Measured frames during which the machine waited for history (loading). */
  bufferingFrames: number;
  playedMs: number;
  realMs: number;
  /** Markers and trail points of the last frame built. */
  markers: number;
  trailPoints: number;
  trailPolylines: number;
  endState: string;
  progress: PlaybackProgress | null;
}

/** Columns a trail can be drawn from without regrouping samples per frame. */
export interface SyntheticPayload {
  /** Entity e's samples (id e + 1) are [trackStart[e], trackStart[e + 1]) of the track arrays, in time
   * order, led by its last sample of the previous window so polylines join across windows. */
  readonly trackStart: Uint32Array;
  readonly trackTimes: Float64Array;
  readonly trackLat: Float64Array;
  readonly trackLong: Float64Array;
  readonly trackStatus: Uint8Array;
  /** Sample i of the window (time order) → its place in the track arrays. */
  readonly trackIndex: Uint32Array;
  /** Sample i's position (time order), as the screen's history windows carry it: what `trailsOf` reads. */
  readonly lat: Float64Array;
  readonly long: Float64Array;
}

type Window = SampleWindow<SyntheticPayload>;

const DAY_START_MS = Date.UTC(2026, 10, 23, 6, 0, 0);
const DAY_MS = 10 * 3600_000;
const SAMPLE_MS = 1000;

/** The harness's trails data: bound to the canvas in playback mode only (a stable array). */
export const playbackTrails$ = new BehaviorSubject<TrailsData>({ trails: [] });
export const playbackLayerData = [layerDataSource(TRAILS, playbackTrails$)];

/**
 * A day of 1 Hz samples of `count` helmets, produced a window at a time: each helmet walks a
 * Lissajous loop (40–80 px, i.e. 4–8 m, at about 1 m/s) around a home on a grid over the floor,
 * reporting at its own sub-second phase, so a window's times interleave every helmet.
 */
class SyntheticDay {
  private readonly phase: Float64Array;
  /** Entity indexes by phase: the order of samples within one second. */
  private readonly order: Uint32Array;
  private readonly home: Float64Array;
  private readonly motion: Float64Array;
  private readonly status: Uint8Array;
  private readonly geo: {
    lat0: number;
    long0: number;
    latX: number;
    latY: number;
    longX: number;
    longY: number;
  };

  constructor(private readonly count: number) {
    this.phase = new Float64Array(count);
    this.home = new Float64Array(2 * count);
    this.motion = new Float64Array(6 * count);
    this.status = new Uint8Array(count);
    const columns = Math.ceil(Math.sqrt((count * IMAGE.width) / IMAGE.height));
    const rows = Math.ceil(count / columns);
    const w = IMAGE.width / columns;
    const h = IMAGE.height / rows;
    const flags = [HISTORY_ONLINE | HISTORY_ACTIVE, HISTORY_ONLINE, 0];
    for (let e = 0; e < count; e++) {
      this.phase[e] = (e * 7919) % 1000;
      this.home[2 * e] = ((e % columns) + 0.5) * w;
      this.home[2 * e + 1] = (Math.floor(e / columns) + 0.5) * h;
      const r = 40 + ((e * 37) % 41);
      const speed = 0.08 + ((e * 13) % 17) / 100; // rad/s: 0.08 … 0.24
      this.motion.set([r, r * 0.7, speed, speed * 1.31, e * 0.7, e * 1.3], 6 * e);
      this.status[e] = flags[e % 3];
    }
    this.order = Uint32Array.from({ length: count }, (_, e) => e).sort(
      (a, b) => this.phase[a] - this.phase[b],
    );
    // The harness floor is small: an affine fit of its projective transform is exact enough.
    const t = floorTransform(CORNERS, IMAGE);
    const o = t.toGeo(imagePoint(0, 0));
    const x = t.toGeo(imagePoint(1000, 0));
    const y = t.toGeo(imagePoint(0, 1000));
    this.geo = {
      lat0: o.lat,
      long0: o.long,
      latX: (x.lat - o.lat) / 1000,
      latY: (y.lat - o.lat) / 1000,
      longX: (x.long - o.long) / 1000,
      longY: (y.long - o.long) / 1000,
    };
  }

  /** Samples with fromMs ≤ time < toMs (both on whole seconds of the day). */
  window(fromMs: number, toMs: number): Window {
    const n = this.count;
    const k0 = Math.max(0, Math.ceil((fromMs - DAY_START_MS) / SAMPLE_MS));
    const k1 = Math.min(DAY_MS / SAMPLE_MS, Math.ceil((toMs - DAY_START_MS) / SAMPLE_MS)); // exclusive
    const seconds = Math.max(0, k1 - k0);
    const lead = k0 > 0 ? 1 : 0;
    const perEntity = seconds + lead;
    const samples = seconds * n;
    const trackStart = new Uint32Array(n + 1);
    const trackTimes = new Float64Array(perEntity * n);
    const trackLat = new Float64Array(perEntity * n);
    const trackLong = new Float64Array(perEntity * n);
    const trackStatus = new Uint8Array(perEntity * n);
    const { lat0, long0, latX, latY, longX, longY } = this.geo;
    for (let e = 0; e < n; e++) {
      const base = e * perEntity;
      trackStart[e] = base;
      const hx = this.home[2 * e];
      const hy = this.home[2 * e + 1];
      const m = 6 * e;
      const [rx, ry, wx, wy, ax, ay] = this.motion.subarray(m, m + 6);
      for (let j = 0; j < perEntity; j++) {
        const k = k0 - lead + j;
        const px = Math.min(IMAGE.width, Math.max(0, hx + rx * Math.sin(ax + wx * k)));
        const py = Math.min(IMAGE.height, Math.max(0, hy + ry * Math.sin(ay + wy * k)));
        trackTimes[base + j] = DAY_START_MS + k * SAMPLE_MS + this.phase[e];
        trackLat[base + j] = lat0 + px * latX + py * latY;
        trackLong[base + j] = long0 + px * longX + py * longY;
        trackStatus[base + j] = this.status[e];
      }
    }
    trackStart[n] = n * perEntity;
    const times = new Float64Array(samples);
    const entities = new Uint32Array(samples);
    const trackIndex = new Uint32Array(samples);
    const lat = new Float64Array(samples);
    const long = new Float64Array(samples);
    let i = 0;
    for (let s = 0; s < seconds; s++) {
      for (let o = 0; o < n; o++) {
        const e = this.order[o];
        const at = e * perEntity + lead + s;
        times[i] = trackTimes[at];
        entities[i] = e + 1;
        trackIndex[i] = at;
        lat[i] = trackLat[at];
        long[i] = trackLong[at];
        i++;
      }
    }
    return {
      fromMs,
      toMs,
      times,
      entities,
      payload: { trackStart, trackTimes, trackLat, trackLong, trackStatus, trackIndex, lat, long },
    };
  }
}

/** The markers of a frame, with the live canvas's fields (so the same colours and tooltips). */
function markersOf(frame: PlaybackFrame<SyntheticPayload>, floor: Pick<Floor, 'id' | 'name'>): WorkerMap {
  const out = new Map<number, WorkerOnMap>();
  for (const [id, sample] of frame.entities) {
    const p = sample.window.payload;
    const t = p.trackIndex[sample.index];
    const status = p.trackStatus[t];
    out.set(id, {
      id,
      inventory_id: id,
      wnt_inventory_id: `HLM-${id}`,
      coordinates: { lat: p.trackLat[t], long: p.trackLong[t] },
      name: `Worker ${id}`,
      worker_tag_id: `WT-${id}`,
      contact_number: null,
      role_name: 'Steel fixer',
      subcontractor_name: id % 3 ? 'Gulf Rebar LLC' : null,
      last_seen: new Date(sample.timeMs).toISOString(),
      is_online: (status & HISTORY_ONLINE) !== 0,
      is_active: (status & HISTORY_ACTIVE) !== 0,
      profile_picture_path: null,
      helmet_color: null,
      zone_id: null,
      zone_name: null,
      blueprint_id: floor.id,
      blueprint_name: floor.name,
    });
  }
  return out;
}

/**
 * The frame's trail as the playback screen draws it: PlaybackFrame.ts's `trailsOf` (pieces per
 * window and colour, the passed ones the same objects every frame); a helmet's colour is
 * `trailColour(helmet)`.
 */
function trailsOf(frame: PlaybackFrame<SyntheticPayload>): { data: TrailsData; points: number } {
  const trails = screenTrailsOf(frame.trail, trailColour);
  let points = 0;
  for (const trail of trails) for (const [start, end] of trail.ranges ?? []) points += end - start;
  return { data: { trails }, points };
}

function nextFrame(): Promise<number> {
  return new Promise((resolve) => requestAnimationFrame(resolve));
}

export interface PlaybackSinks {
  workers$: BehaviorSubject<WorkerMap>;
  floor: Pick<Floor, 'id' | 'name'>;
  stats(): CanvasStats;
}

/**
 * Replays the synthetic day from `startOffsetMs` at `speed` through playbackMachine,
 * playbackStream and playbackTicks$ (wired as playback.stream.ts's usage example), waits for
 * the prefetch to fill, plays `warmupFrames`, then measures `frames` frames.
 */
export async function measurePlayback(
  options: PlaybackRunOptions,
  sinks: PlaybackSinks,
): Promise<PlaybackRunResult> {
  const day = new SyntheticDay(options.workerCount);
  const range = { fromMs: DAY_START_MS, toMs: DAY_START_MS + DAY_MS };
  let fetchMs = 0;
  let windowsFetched = 0;
  let tickMs = 0;
  let ticks = 0;
  let buildMs = 0;
  let framesBuilt = 0;
  let markers = 0;
  let trailPoints = 0;
  let trailPolylines = 0;
  let progress: PlaybackProgress | null = null;

  const fetchWindow = (fromMs: number, toMs: number, signal: AbortSignal): Promise<Window> =>
    new Promise((resolve, reject) => {
      // A macrotask, as a response would arrive; generating stands in for decoding it.
      setTimeout(() => {
        if (signal.aborted) {
          reject(new Error('aborted'));
          return;
        }
        const started = performance.now();
        const window = day.window(fromMs, toMs);
        fetchMs += performance.now() - started;
        windowsFetched++;
        resolve(window);
      }, 0);
    });

  // As the screen does: the player is made for the range the machine loaded.
  const actor = createActor(playbackMachine).start();
  actor.send({ type: 'playback.speed', speed: options.speed });
  actor.send({ type: 'playback.load', range, playheadMs: range.fromMs + options.startOffsetMs });
  const snapshot$ = defer(() => from(actor).pipe(startWith(actor.getSnapshot())));
  const player = playbackStream<SyntheticPayload>({
    range,
    trailMs: options.trailMs,
    fetchWindow,
    playhead$: snapshot$.pipe(map(selectPlayheadMs)),
    speed$: snapshot$.pipe(map(selectPlaybackSpeed)),
  });
  const subscriptions: Subscription[] = [
    player.frames$.subscribe((frame) => {
      const started = performance.now();
      const workers = markersOf(frame, sinks.floor);
      const trails = trailsOf(frame);
      sinks.workers$.next(workers);
      playbackTrails$.next(trails.data);
      buildMs += performance.now() - started;
      framesBuilt++;
      markers = workers.size;
      trailPoints = trails.points;
      trailPolylines = trails.data.trails.reduce((s, t) => s + (t.ranges?.length ?? 1), 0);
    }),
    player.buffering$.subscribe((b) => actor.send({ type: b ? 'stream.buffering' : 'stream.buffered' })),
    player.progress$.subscribe((p) => {
      progress = p;
    }),
    playbackTicks$(snapshot$.pipe(map(isPlaybackTicking))).subscribe((elapsedMs) => {
      const started = performance.now();
      actor.send({ type: 'clock.tick', elapsedMs });
      tickMs += performance.now() - started;
      ticks++;
    }),
  ];

  try {
    const settled = () => {
      const p: PlaybackProgress | null = progress;
      return (
        playbackStateOf(actor.getSnapshot()) === 'paused' && p !== null && p.wantedLoaded === p.wantedTotal
      );
    };
    const deadline = performance.now() + 30_000;
    while (!settled()) {
      if (performance.now() > deadline)
        throw new Error(`playback never settled: ${JSON.stringify(progress)}`);
      await nextFrame();
    }
    actor.send({ type: 'playback.play' });
    for (let i = 0; i < options.warmupFrames; i++) await nextFrame();

    tickMs = 0;
    ticks = 0;
    buildMs = 0;
    framesBuilt = 0;
    fetchMs = 0;
    windowsFetched = 0;
    let bufferingFrames = 0;
    const deltas: number[] = [];
    const playedFrom = selectPlayheadMs(actor.getSnapshot());
    const before = sinks.stats();
    const startedAt = performance.now();
    let last = startedAt;
    for (let i = 0; i < options.frames; i++) {
      const now = await nextFrame();
      deltas.push(now - last);
      last = now;
      if (playbackStateOf(actor.getSnapshot()) === 'loading') bufferingFrames++;
    }
    const after = sinks.stats();
    const realMs = performance.now() - startedAt;
    const playedMs = selectPlayheadMs(actor.getSnapshot()) - playedFrom;
    return {
      deltas,
      engine: {
        renderedFrames: after.renderedFrames - before.renderedFrames,
        renderMs: after.renderMs - before.renderMs,
        frameMs: after.frameMs - before.frameMs,
      },
      tickMs,
      ticks,
      buildMs,
      framesBuilt,
      fetchMs,
      windowsFetched,
      bufferingFrames,
      playedMs,
      realMs,
      markers,
      trailPoints,
      trailPolylines,
      endState: playbackStateOf(actor.getSnapshot()),
      progress,
    };
  } finally {
    actor.send({ type: 'playback.pause' });
    for (const s of subscriptions) s.unsubscribe();
    actor.stop();
    sinks.workers$.next(new Map());
    playbackTrails$.next({ trails: [] });
  }
}
