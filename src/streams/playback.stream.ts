import {
  asyncScheduler,
  distinctUntilChanged,
  filter,
  map,
  Observable,
  of,
  ReplaySubject,
  type SchedulerLike,
  type Subscription,
  share,
} from 'rxjs';
import {
  type EntitySample,
  latestSamples,
  neededWindows,
  prefetchDepth,
  type SampleSlice,
  type SampleWindow,
  slicesBetween,
  wantedWindows,
  windowCount,
  windowSpan,
} from './playbackWindows';

/**
 * A generic history player (issue 16): frames of "where was every entity at the playhead" from
 * windows of recorded samples fetched ahead of the playhead. The analytics playback replays
 * helmets with it and the maintenance map anchor nodes; it knows neither.
 *
 * Usage (the clock is src/machines/playback.machine.ts, the ticker src/streams/playbackClock.ts):
 *
 *   const actor = createActor(playbackMachine).start();
 *   const snapshot$ = defer(() => from(actor).pipe(startWith(actor.getSnapshot()))); // current one first
 *   const frames$ = snapshot$.pipe(map(selectPlaybackRange), distinctUntilChanged(), // a new player per load
 *     switchMap((range) => { if (!range) return EMPTY;
 *       const player = playbackStream({ range, trailMs: 5 * 60_000,
 *         fetchWindow: (from, to, signal) => fetchHistoryWindow(floorId, from, to, signal), // → SampleWindow
 *         playhead$: snapshot$.pipe(map(selectPlayheadMs)), speed$: snapshot$.pipe(map(selectPlaybackSpeed)) });
 *       const feedback$ = player.buffering$.pipe(tap((b) => actor.send({ type: b ? 'stream.buffering' : 'stream.buffered' })));
 *       return merge(player.frames$, feedback$.pipe(ignoreElements())); }));
 *   frames$.subscribe((frame) => markersLayer.draw(frame.entities)); // entity id → worker, by the screen
 *   actor.send({ type: 'playback.load', range: { fromMs, toMs } });
 * `player.progress$` gives "chunks fetched of total" for the loading overlay (never a bare spinner).
 */

export type { EntitySample, SampleSlice, SampleWindow } from './playbackWindows';

/** Fetches the samples with fromMs ≤ time < toMs; aborted through `signal` when no longer wanted. */
export type FetchWindow<T> = (fromMs: number, toMs: number, signal: AbortSignal) => Promise<SampleWindow<T>>;

export interface PlaybackStreamOptions<T> {
  /** The recorded span, as the machine's `playback.load` range. */
  readonly range: { readonly fromMs: number; readonly toMs: number };
  readonly fetchWindow: FetchWindow<T>;
  /** The machine's playhead, absolute ms. */
  readonly playhead$: Observable<number>;
  /** The machine's speed: more windows are prefetched at higher speeds. Default 1×. */
  readonly speed$?: Observable<number>;
  /** History per fetch. Default 60 s. */
  readonly windowMs?: number;
  /** Windows fetched ahead of the playhead at 1× (the least at any speed). Default 2. */
  readonly prefetchWindows?: number;
  /** Real ms of playing the windows ahead should cover at the current speed. Default 10 s. */
  readonly leadMs?: number;
  readonly maxPrefetchWindows?: number;
  /** Windows kept in memory (least recently used ones go first). Default 32. */
  readonly cacheWindows?: number;
  /** Prefetches in flight at once; the windows the frame needs are fetched regardless. Default 2. */
  readonly concurrency?: number;
  /** An entity whose latest sample is older than this at the playhead is left out. Default 30 s. */
  readonly staleMs?: number;
  /** Span of `frame.trail` behind the playhead. Default 0 (no trail). */
  readonly trailMs?: number;
  /** `frame.windows` cover at least this far behind the playhead (e.g. a sliding heatmap). */
  readonly lookbackMs?: number;
  /** Wait before fetching a failed window again. Default 2 s. */
  readonly retryMs?: number;
  /** Whose clock times retries; tests pass a virtual one. */
  readonly scheduler?: SchedulerLike;
}

export interface PlaybackProgress {
  /** Windows of the whole range fetched so far, of all of them: "chunks fetched of total". */
  readonly windowsLoaded: number;
  readonly windowsTotal: number;
  /** The windows the playhead needs and prefetches, and how many of them are in memory. */
  readonly wantedLoaded: number;
  readonly wantedTotal: number;
  /** The windows the frame at the playhead reads, and how many are in: the buffering overlay's count. */
  readonly neededLoaded: number;
  readonly neededTotal: number;
  /** A window the frame at the playhead reads is still missing (neededLoaded < neededTotal). */
  readonly buffering: boolean;
  /** Spans in memory, merged, in time order: the scrubber's buffered bar. */
  readonly cachedRanges: readonly { readonly fromMs: number; readonly toMs: number }[];
  /** The last failed fetch's message, until a fetch succeeds (it is retried after retryMs). */
  readonly error: string | null;
}

export interface PlaybackFrame<T> {
  readonly playheadMs: number;
  /** Entity id → its latest sample at or before the playhead, within staleMs. */
  readonly entities: ReadonlyMap<number, EntitySample<T>>;
  /** Samples in [playhead − trailMs, playhead], as slices of windows in time order. */
  readonly trail: readonly SampleSlice<T>[];
  /** The windows covering [playhead − lookback, playhead] in time order, for `slicesBetween`. */
  readonly windows: readonly SampleWindow<T>[];
  readonly progress: PlaybackProgress;
}

export interface PlaybackStream<T> {
  /** A frame per playhead move once its windows are in; none while buffering. */
  readonly frames$: Observable<PlaybackFrame<T>>;
  /** Feed back to the machine: true → `stream.buffering`, false → `stream.buffered`. */
  readonly buffering$: Observable<boolean>;
  readonly progress$: Observable<PlaybackProgress>;
}

interface PlayerState<T> {
  readonly frame: PlaybackFrame<T> | null;
  readonly progress: PlaybackProgress;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sameProgress(a: PlaybackProgress, b: PlaybackProgress): boolean {
  return (
    a.windowsLoaded === b.windowsLoaded &&
    a.windowsTotal === b.windowsTotal &&
    a.wantedLoaded === b.wantedLoaded &&
    a.wantedTotal === b.wantedTotal &&
    a.neededLoaded === b.neededLoaded &&
    a.neededTotal === b.neededTotal &&
    a.buffering === b.buffering &&
    a.error === b.error &&
    a.cachedRanges.length === b.cachedRanges.length &&
    a.cachedRanges.every((r, i) => r.fromMs === b.cachedRanges[i].fromMs && r.toMs === b.cachedRanges[i].toMs)
  );
}

function player$<T>(options: PlaybackStreamOptions<T>): Observable<PlayerState<T>> {
  const grid = { ...options.range, windowMs: Math.max(1, options.windowMs ?? 60_000) };
  const policy = {
    prefetchWindows: Math.max(0, options.prefetchWindows ?? 2),
    leadMs: options.leadMs ?? 10_000,
    maxPrefetchWindows: Math.max(options.prefetchWindows ?? 2, options.maxPrefetchWindows ?? 16),
  };
  const staleMs = options.staleMs ?? 30_000;
  const trailMs = options.trailMs ?? 0;
  const lookbackMs = Math.max(staleMs, trailMs, options.lookbackMs ?? 0);
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const retryMs = options.retryMs ?? 2_000;
  const scheduler = options.scheduler ?? asyncScheduler;
  const total = windowCount(grid);
  // Never fewer than one playhead's needs plus the deepest prefetch, or it would evict what it wants.
  const capacity = Math.max(
    options.cacheWindows ?? 32,
    policy.maxPrefetchWindows + Math.ceil(lookbackMs / grid.windowMs) + 2,
  );

  return new Observable<PlayerState<T>>((subscriber) => {
    /** Windows in memory, least recently used first. */
    const cache = new Map<number, SampleWindow<T>>();
    const inFlight = new Map<number, AbortController>();
    const retries = new Map<number, Subscription>();
    const fetched = new Set<number>();
    let playheadMs: number | null = null;
    let speed = 1;
    let error: string | null = null;
    let frame: PlaybackFrame<T> | null = null;
    let progress: PlaybackProgress | null = null;

    const touch = (index: number) => {
      const window = cache.get(index);
      if (!window) return;
      cache.delete(index);
      cache.set(index, window);
    };

    const evict = (wanted: ReadonlySet<number>) => {
      for (const index of cache.keys()) {
        if (cache.size <= capacity) return;
        if (!wanted.has(index)) cache.delete(index);
      }
    };

    const cachedRanges = () => {
      const ranges: { fromMs: number; toMs: number }[] = [];
      for (const index of [...cache.keys()].sort((a, b) => a - b)) {
        const span = windowSpan(grid, index);
        const last = ranges.at(-1);
        if (last && last.toMs === span.fromMs) last.toMs = span.toMs;
        else ranges.push(span);
      }
      return ranges;
    };

    const start = (index: number) => {
      const controller = new AbortController();
      inFlight.set(index, controller);
      const span = windowSpan(grid, index);
      let request: Promise<SampleWindow<T>>;
      try {
        request = Promise.resolve(options.fetchWindow(span.fromMs, span.toMs, controller.signal));
      } catch (thrown) {
        request = Promise.reject(thrown);
      }
      request.then(
        (window) => {
          if (controller.signal.aborted || subscriber.closed) return;
          inFlight.delete(index);
          cache.set(index, window);
          fetched.add(index);
          error = null;
          update();
        },
        (failure: unknown) => {
          if (controller.signal.aborted || subscriber.closed) return;
          inFlight.delete(index);
          error = messageOf(failure);
          retries.set(
            index,
            scheduler.schedule(() => {
              retries.delete(index);
              update();
            }, retryMs),
          );
          update();
        },
      );
    };

    const frameAt = (at: number, windows: SampleWindow<T>[], next: PlaybackProgress): PlaybackFrame<T> => {
      const previous = frame;
      let entities: Map<number, EntitySample<T>>;
      if (previous && at >= previous.playheadMs && at - previous.playheadMs < staleMs) {
        // Playing forward: only the samples since the last frame are read, then the stale dropped.
        entities = latestSamples(new Map(previous.entities), windows, previous.playheadMs, at);
        for (const [entity, sample] of entities) if (sample.timeMs <= at - staleMs) entities.delete(entity);
      } else {
        entities = latestSamples(new Map(), windows, at - staleMs, at);
      }
      const trail = trailMs > 0 ? slicesBetween(windows, at - trailMs, at) : [];
      return { playheadMs: at, entities, trail, windows, progress: next };
    };

    const update = () => {
      if (playheadMs === null) return;
      const at = playheadMs;
      const depth = prefetchDepth(policy, grid.windowMs, speed);
      const needed = neededWindows(grid, at, lookbackMs);
      const wanted = wantedWindows(grid, at, lookbackMs, depth);
      const wantedSet = new Set(wanted);
      for (const [index, controller] of inFlight) {
        if (wantedSet.has(index)) continue;
        controller.abort();
        inFlight.delete(index);
      }
      for (const [index, retry] of retries) {
        if (wantedSet.has(index)) continue;
        retry.unsubscribe();
        retries.delete(index);
      }
      let prefetching = 0;
      for (const index of inFlight.keys()) if (!needed.includes(index)) prefetching++;
      for (const [position, index] of wanted.entries()) {
        if (cache.has(index) || inFlight.has(index) || retries.has(index)) continue;
        // The windows the frame needs start at once; the ones ahead wait for a free slot, in order.
        const isNeeded = position < needed.length;
        if (!isNeeded && prefetching >= concurrency) break;
        if (!isNeeded) prefetching++;
        start(index);
      }
      evict(wantedSet);
      const neededLoaded = needed.filter((index) => cache.has(index)).length;
      const buffering = neededLoaded < needed.length;
      const next: PlaybackProgress = {
        windowsLoaded: fetched.size,
        windowsTotal: total,
        wantedLoaded: wanted.filter((index) => cache.has(index)).length,
        wantedTotal: wanted.length,
        neededLoaded,
        neededTotal: needed.length,
        buffering,
        cachedRanges: cachedRanges(),
        error,
      };
      const progressChanged = !progress || !sameProgress(progress, next);
      if (progressChanged) progress = next;
      // A window arriving ahead changes the progress only; the frame changes with the playhead.
      const frameChanged = !buffering && (!frame || frame.playheadMs !== at);
      if (frameChanged) {
        for (const index of needed) touch(index);
        const windows = needed
          .slice()
          .sort((a, b) => a - b)
          .map((index) => cache.get(index)!);
        frame = frameAt(at, windows, progress!);
      }
      if (progressChanged || frameChanged) subscriber.next({ frame, progress: progress! });
    };

    const speeds = (options.speed$ ?? of(1)).subscribe({
      next: (next) => {
        if (!Number.isFinite(next) || next <= 0 || next === speed) return;
        speed = next;
        update();
      },
      error: (failure: unknown) => subscriber.error(failure),
    });
    const playheads = options.playhead$.subscribe({
      next: (next) => {
        if (!Number.isFinite(next) || next === playheadMs) return;
        playheadMs = Math.min(grid.toMs, Math.max(grid.fromMs, next));
        update();
      },
      error: (failure: unknown) => subscriber.error(failure),
    });

    return () => {
      speeds.unsubscribe();
      playheads.unsubscribe();
      for (const controller of inFlight.values()) controller.abort();
      inFlight.clear();
      for (const retry of retries.values()) retry.unsubscribe();
      retries.clear();
    };
  });
}

/**
 * One history player over `options.range`: its three observables share one set of fetches and
 * one cache while any is subscribed, and a late subscriber gets the current value first.
 */
export function playbackStream<T>(options: PlaybackStreamOptions<T>): PlaybackStream<T> {
  const state$ = player$(options).pipe(share({ connector: () => new ReplaySubject<PlayerState<T>>(1) }));
  const progress$ = state$.pipe(
    map((state) => state.progress),
    distinctUntilChanged(),
  );
  return {
    frames$: state$.pipe(
      map((state) => state.frame),
      filter((frame): frame is PlaybackFrame<T> => frame !== null),
      distinctUntilChanged(),
    ),
    buffering$: progress$.pipe(
      map((progress) => progress.buffering),
      distinctUntilChanged(),
    ),
    progress$,
  };
}
