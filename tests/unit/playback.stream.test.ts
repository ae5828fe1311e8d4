import { BehaviorSubject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  type PlaybackFrame,
  type PlaybackProgress,
  type PlaybackStreamOptions,
  playbackStream,
  type SampleWindow,
} from '../../src/streams/playback.stream';
import { slicesBetween } from '../../src/streams/playbackWindows';

const T0 = Date.UTC(2025, 2, 1, 6);
const MINUTE = 60_000;
const STALE = 30_000;

/** The recorded history: entity 1 every second, entity 2 every 10 s, entity 3 only the first 20 s. */
function samplesOf(fromMs: number, toMs: number): SampleWindow<Float64Array> {
  const times: number[] = [];
  const entities: number[] = [];
  for (let t = Math.ceil(fromMs / 1_000) * 1_000; t < toMs; t += 1_000) {
    const second = (t - T0) / 1_000;
    for (const entity of [1, 2, 3]) {
      if (entity === 2 && second % 10 !== 0) continue;
      if (entity === 3 && second >= 20) continue;
      times.push(t);
      entities.push(entity);
    }
  }
  // The payload is opaque to the player: here, each sample's own time and entity again.
  const payload = Float64Array.from(times, (t, i) => t * 10 + entities[i]);
  return { fromMs, toMs, times: Float64Array.from(times), entities: Uint32Array.from(entities), payload };
}

interface Request {
  fromMs: number;
  toMs: number;
  signal: AbortSignal;
  resolve(): void;
  reject(error: Error): void;
}

/** A player over a fake history source whose answers the test releases one by one. */
function setup(minutes = 10, options: Partial<PlaybackStreamOptions<Float64Array>> = {}) {
  const requests: Request[] = [];
  const playhead = new BehaviorSubject(T0);
  const speed = new BehaviorSubject(1);
  const clock = new VirtualTimeScheduler();
  const player = playbackStream<Float64Array>({
    range: { fromMs: T0, toMs: T0 + minutes * MINUTE },
    windowMs: MINUTE,
    staleMs: STALE,
    playhead$: playhead,
    speed$: speed,
    scheduler: clock,
    fetchWindow: (fromMs, toMs, signal) =>
      new Promise((resolve, reject) => {
        requests.push({ fromMs, toMs, signal, resolve: () => resolve(samplesOf(fromMs, toMs)), reject });
      }),
    ...options,
  });
  const frames: PlaybackFrame<Float64Array>[] = [];
  const buffering: boolean[] = [];
  let progress: PlaybackProgress | null = null;
  player.frames$.subscribe((frame) => frames.push(frame));
  player.buffering$.subscribe((b) => buffering.push(b));
  player.progress$.subscribe((p) => {
    progress = p;
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    requests,
    frames,
    buffering,
    clock,
    progress: () => progress!,
    /** Window indexes asked for, in order. */
    asked: () => requests.map((r) => (r.fromMs - T0) / MINUTE),
    pending: () => requests.filter((r) => !r.signal.aborted),
    seek: (ms: number) => playhead.next(T0 + ms),
    speed: (value: number) => speed.next(value),
    /** Answers every request not yet answered nor aborted, until none is left. */
    async answerAll() {
      const answered = new Set<Request>();
      for (let round = 0; round < 50; round++) {
        const open = requests.filter((r) => !r.signal.aborted && !answered.has(r));
        if (open.length === 0) return;
        for (const request of open) {
          answered.add(request);
          request.resolve();
        }
        await settle();
      }
    },
    settle,
  };
}

/** What the frame must say: each entity's latest sample at or before the playhead, within STALE. */
function expectedEntities(playheadMs: number): Map<number, number> {
  const all = samplesOf(playheadMs - STALE - 1_000, playheadMs + 1);
  const latest = new Map<number, number>();
  for (let i = 0; i < all.times.length; i++)
    if (all.times[i] <= playheadMs && all.times[i] > playheadMs - STALE)
      latest.set(all.entities[i], all.times[i]);
  return latest;
}

const entityTimes = (frame: PlaybackFrame<Float64Array>) =>
  new Map([...frame.entities].map(([id, sample]) => [id, sample.timeMs]));

describe('playback stream', () => {
  it('fetches the playhead window first, then the windows ahead in order', async () => {
    const sut = setup(10, { concurrency: 1, prefetchWindows: 3 });
    // The needed window and one prefetch at a time (concurrency 1), in playing order.
    expect(sut.asked()).toEqual([0, 1]);
    expect(sut.requests[0]).toMatchObject({ fromMs: T0, toMs: T0 + MINUTE });
    await sut.answerAll();
    expect(sut.asked()).toEqual([0, 1, 2, 3]);
    expect(sut.progress()).toMatchObject({
      windowsLoaded: 4,
      windowsTotal: 10,
      wantedLoaded: 4,
      wantedTotal: 4,
    });
    sut.seek(MINUTE + 40_000);
    await sut.answerAll();
    expect(sut.asked()).toEqual([0, 1, 2, 3, 4]);
    // The range's last window is cut at its end, and nothing is asked beyond it.
    sut.seek(9 * MINUTE + 59_000);
    await sut.answerAll();
    expect(sut.requests.at(-1)).toMatchObject({ fromMs: T0 + 9 * MINUTE, toMs: T0 + 10 * MINUTE });
    expect(Math.max(...sut.asked())).toBe(9);
  });

  it('a seek far away aborts fetches no longer wanted and asks for the new window first', async () => {
    const sut = setup(20);
    expect(sut.asked()).toEqual([0, 1, 2]);
    const before = [...sut.requests];
    sut.seek(12 * MINUTE + 45_000);
    expect(before.every((r) => r.signal.aborted)).toBe(true);
    expect(sut.asked().slice(3)).toEqual([12, 13, 14]);
    // An answer that comes after its abort is dropped, not cached.
    before[0].resolve();
    await sut.settle();
    expect(sut.progress().cachedRanges).toEqual([]);
    expect(sut.progress().buffering).toBe(true);
    await sut.answerAll();
    expect(sut.progress().cachedRanges).toEqual([{ fromMs: T0 + 12 * MINUTE, toMs: T0 + 15 * MINUTE }]);
    // A seek to a window still wanted (just ahead) aborts nothing.
    sut.seek(13 * MINUTE + 45_000);
    expect(sut.requests.filter((r) => r.signal.aborted)).toHaveLength(3);
    expect(sut.asked().at(-1)).toBe(15);
  });

  it('a seek just past a window start also fetches the window before, for the entities there', async () => {
    const sut = setup(10);
    sut.seek(5 * MINUTE + 5_000);
    expect(sut.asked().slice(3, 5)).toEqual([5, 4]);
    sut.pending()[0].resolve();
    await sut.settle();
    expect(sut.progress().buffering).toBe(true);
    await sut.answerAll();
    expect(sut.progress().buffering).toBe(false);
    expect(entityTimes(sut.frames.at(-1)!)).toEqual(expectedEntities(5 * MINUTE + 5_000 + T0));
  });

  it('prefetches deeper at higher speed, up to its limit', async () => {
    const sut = setup(60, { concurrency: 4 });
    expect(sut.progress().wantedTotal).toBe(3);
    sut.speed(60);
    // 10 s of playing at 60× is 10 minutes: ten windows ahead.
    expect(sut.progress().wantedTotal).toBe(11);
    await sut.answerAll();
    expect(sut.asked()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    sut.speed(600);
    expect(sut.progress().wantedTotal).toBe(17);
    await sut.answerAll();
    expect(sut.asked()).toEqual(Array.from({ length: 17 }, (_, i) => i));
    // Slowing down again asks for nothing new and aborts nothing already loaded.
    sut.speed(1);
    expect(sut.progress().wantedTotal).toBe(3);
    expect(sut.progress().cachedRanges).toEqual([{ fromMs: T0, toMs: T0 + 17 * MINUTE }]);
  });

  it('frames show each entity at its latest sample at or before the playhead, never a later one', async () => {
    const sut = setup(10, { prefetchWindows: 9, concurrency: 10 });
    await sut.answerAll();
    // Forward in frame-sized steps across window boundaries, then jumps both ways.
    const playheads = [
      ...Array.from({ length: 200 }, (_, i) => 50_000 + i * 367),
      ...Array.from({ length: 40 }, (_, i) => 2 * MINUTE + i * 9_600),
      4 * MINUTE + 30,
      MINUTE + 1,
      19_999,
      20_000,
      0,
      // The range is [from, to): its last sample is just before the end.
      10 * MINUTE - 1,
    ];
    for (const at of playheads) {
      sut.seek(at);
      const frame = sut.frames.at(-1)!;
      expect(frame.playheadMs).toBe(T0 + at);
      expect(entityTimes(frame)).toEqual(expectedEntities(T0 + at));
      for (const sample of frame.entities.values())
        expect(sample.window.payload[sample.index]).toBe(
          sample.timeMs * 10 + sample.window.entities[sample.index],
        );
    }
    // Entity 3 stopped reporting at 19 s: gone once its last sample is older than the stale limit.
    sut.seek(19_000 + STALE - 1);
    expect(sut.frames.at(-1)!.entities.has(3)).toBe(true);
    sut.seek(19_000 + STALE);
    expect(sut.frames.at(-1)!.entities.has(3)).toBe(false);
  });

  it('buffering$ is true while the playhead window is missing and false once it is in', async () => {
    const sut = setup(10);
    expect(sut.buffering).toEqual([true]);
    expect(sut.frames).toEqual([]);
    sut.requests[1].resolve();
    await sut.settle();
    expect(sut.buffering).toEqual([true]);
    sut.requests[0].resolve();
    await sut.settle();
    expect(sut.buffering).toEqual([true, false]);
    expect(sut.frames.map((f) => f.playheadMs)).toEqual([T0]);
    sut.seek(7 * MINUTE + 30_000);
    expect(sut.buffering).toEqual([true, false, true]);
    // No frame while buffering: the canvas keeps the last one.
    expect(sut.frames).toHaveLength(1);
    await sut.answerAll();
    expect(sut.buffering).toEqual([true, false, true, false]);
    expect(sut.frames.at(-1)!.playheadMs).toBe(T0 + 7 * MINUTE + 30_000);
  });

  it('keeps at most cacheWindows windows, evicting the least recently used', async () => {
    const sut = setup(30, { cacheWindows: 4, prefetchWindows: 1, maxPrefetchWindows: 1 });
    for (let minute = 0; minute < 30; minute++) {
      sut.seek(minute * MINUTE + 40_000);
      await sut.answerAll();
      const cached = sut.progress().cachedRanges.reduce((n, r) => n + (r.toMs - r.fromMs) / MINUTE, 0);
      expect(cached).toBeLessThanOrEqual(4);
      expect(sut.frames.at(-1)!.playheadMs).toBe(T0 + minute * MINUTE + 40_000);
    }
    expect(sut.progress()).toMatchObject({ windowsLoaded: 30, windowsTotal: 30 });
    expect(sut.progress().cachedRanges).toEqual([{ fromMs: T0 + 26 * MINUTE, toMs: T0 + 30 * MINUTE }]);
    // Going back fetches again what was evicted.
    sut.seek(40_000);
    expect(sut.progress().buffering).toBe(true);
    expect(sut.asked().at(-2)).toBe(0);
  });

  it('gives the trail behind the playhead as slices across windows', async () => {
    const sut = setup(10, { trailMs: 90_000, prefetchWindows: 1 });
    sut.seek(2 * MINUTE + 20_000);
    await sut.answerAll();
    const frame = sut.frames.at(-1)!;
    const trail = frame.trail.flatMap(({ window, start, end }) => [...window.times.subarray(start, end)]);
    expect(trail[0]).toBe(T0 + 50_000);
    expect(trail.at(-1)).toBe(T0 + 2 * MINUTE + 20_000);
    expect(trail).toEqual([...trail].sort((a, b) => a - b));
    expect(frame.trail.map((s) => (s.window.fromMs - T0) / MINUTE)).toEqual([0, 1, 2]);
    // The frame's windows serve any other sliding span, e.g. a heatmap of the last 30 s.
    const heat = slicesBetween(frame.windows, frame.playheadMs - 30_000, frame.playheadMs);
    expect(heat.reduce((n, s) => n + s.end - s.start, 0)).toBe(31 + 4);
  });

  it('retries a failed window after retryMs and reports the failure meanwhile', async () => {
    const sut = setup(10, { retryMs: 2_000 });
    sut.requests[0].reject(new Error('Service unavailable'));
    await sut.settle();
    expect(sut.progress()).toMatchObject({ buffering: true, error: 'Service unavailable' });
    expect(sut.asked()).toEqual([0, 1, 2]);
    sut.clock.flush();
    expect(sut.asked()).toEqual([0, 1, 2, 0]);
    await sut.answerAll();
    expect(sut.progress()).toMatchObject({ buffering: false, error: null });
  });

  it('aborts what is in flight when the last subscriber leaves', () => {
    const requests: AbortSignal[] = [];
    const player = playbackStream<null>({
      range: { fromMs: T0, toMs: T0 + 10 * MINUTE },
      playhead$: new BehaviorSubject(T0),
      fetchWindow: (_from, _to, signal) => {
        requests.push(signal);
        return new Promise(() => {});
      },
    });
    const frames = player.frames$.subscribe();
    const buffering = player.buffering$.subscribe();
    // Both share one player: one set of fetches.
    expect(requests).toHaveLength(3);
    frames.unsubscribe();
    expect(requests.some((s) => s.aborted)).toBe(false);
    buffering.unsubscribe();
    expect(requests.every((s) => s.aborted)).toBe(true);
  });
});
