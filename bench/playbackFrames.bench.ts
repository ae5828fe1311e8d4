// Issue 16's playback frame-time goal: frame time while replaying 1,000 workers at 600× vs the live
// canvas with 1,000 workers moving, in the same page, browser and run (goal ≤ 1.2×).
// The replay runs the real clock machine, history stream and animation-frame ticker over a
// synthetic 10-hour day of 1 Hz samples generated in the page a window at a time
// (tests/e2e/harness/playbackFixture.ts): markers on the workers layer from each frame and a
// trailing 60 s of trails on the trails layer. The live case moves every marker every frame, as
// canvasWorkers does; a third case replays without trails, to show what the trails layer costs.
// The cases alternate for `--rounds` rounds; each case's figures pool its rounds.
// Usage: npx tsx bench/playbackFrames.bench.ts [frames] [--rounds 2] [--reuse]

import type { PlaybackRunResult } from '../tests/e2e/harness/playbackFixture';
import type { FrameTimes } from './canvasBenchPage';
import { benchFrames as frames, frameTimes, openCanvasBenchPage } from './canvasBenchPage';
import { machine } from './measure';

const WORKERS = 1000;
const SPEED = 600;
const TRAIL_MS = 60_000;
const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 2;

const { page, browser, close } = await openCanvasBenchPage('?mode=playback');

interface LiveRun {
  renderer: string | null;
  deltas: number[];
  renderedFrames: number;
  frameMs: number;
  renderMs: number;
}

async function live(n: number): Promise<LiveRun> {
  const renderer = await page.evaluate(
    (count) => window.canvasHarness.mount({ workerCount: count }),
    WORKERS,
  );
  const before = await page.evaluate(() => window.canvasHarness.stats());
  const deltas = await page.evaluate((count) => window.canvasHarness.measureMovingWorkers(count), n);
  const after = await page.evaluate(() => window.canvasHarness.stats());
  return {
    renderer,
    deltas,
    renderedFrames: after.renderedFrames - before.renderedFrames,
    frameMs: after.frameMs - before.frameMs,
    renderMs: after.renderMs - before.renderMs,
  };
}

type PlaybackRun = PlaybackRunResult & { renderer: string | null };

async function playback(n: number, startOffsetMs: number, trailMs = TRAIL_MS): Promise<PlaybackRun> {
  const renderer = await page.evaluate(() => window.canvasHarness.mount({}));
  const result = await page.evaluate((options) => window.canvasHarness.measurePlayback(options), {
    workerCount: WORKERS,
    speed: SPEED,
    trailMs,
    startOffsetMs,
    warmupFrames: 10,
    frames: n,
  } as const);
  return { ...result, renderer };
}

const round3 = (x: number) => Number(x.toFixed(3));
const perFrame = (ms: number, count: number) => round3(ms / Math.max(1, count));
const sum = <T>(list: T[], f: (x: T) => number) => list.reduce((s, x) => s + f(x), 0);
const ratio = (a: number, b: number) => Number((a / b).toFixed(2));

// A throwaway round of each first: shader compilation and JIT warm-up land in no measurement.
await live(20);
await playback(10, 30 * 60_000);

const liveRuns: LiveRun[] = [];
const playbackRuns: PlaybackRun[] = [];
// The same replay without trails: how much of the playback's frame is the trails layer.
const markersOnlyRuns: PlaybackRun[] = [];
for (let r = 0; r < rounds; r++) {
  liveRuns.push(await live(frames));
  // Different hours of the day each round, never near its end (a replay that ends stops working):
  // with trails from 3 h, 7 h… (they play slowly), without from 0.5 h, 4.5 h… (up to ~3.5 h per run).
  const hour = (h: number) => (h % 8) * 3600_000;
  playbackRuns.push(await playback(frames, hour(3 + 4 * r)));
  markersOnlyRuns.push(await playback(frames, hour(0.5 + 4 * r), 0));
}

const liveRendered = sum(liveRuns, (r) => r.renderedFrames);
const liveFigures = {
  ...frameTimes(liveRuns.flatMap((r) => r.deltas)),
  renderCpuMs: perFrame(
    sum(liveRuns, (r) => r.renderMs),
    liveRendered,
  ),
  engineFrameMs: perFrame(
    sum(liveRuns, (r) => r.frameMs),
    liveRendered,
  ),
  renderedFrames: liveRendered,
};

function playbackFigures(runs: PlaybackRun[]) {
  const rendered = sum(runs, (r) => r.engine.renderedFrames);
  const last = runs.at(-1)!;
  const times: FrameTimes = frameTimes(runs.flatMap((r) => r.deltas));
  const engineFrameMs = perFrame(
    sum(runs, (r) => r.engine.frameMs),
    rendered,
  );
  const tickMs = perFrame(
    sum(runs, (r) => r.tickMs),
    sum(runs, (r) => r.ticks),
  );
  const fetchMsPerFrame = perFrame(
    sum(runs, (r) => r.fetchMs),
    sum(runs, (r) => r.deltas.length),
  );
  return {
    ...times,
    renderCpuMs: perFrame(
      sum(runs, (r) => r.engine.renderMs),
      rendered,
    ),
    engineFrameMs,
    renderedFrames: rendered,
    // Main-thread work outside the engine's frame: per tick (machine → stream → markers and
    // trails), of which building markers and trails per built frame, and generating windows.
    tickMs,
    buildMs: perFrame(
      sum(runs, (r) => r.buildMs),
      sum(runs, (r) => r.framesBuilt),
    ),
    fetchMsPerFrame,
    windowsFetched: sum(runs, (r) => r.windowsFetched),
    bufferingFrames: sum(runs, (r) => r.bufferingFrames),
    // Below 600 when frames take longer than MAX_TICK_MS (one tick carries at most 250 ms).
    effectiveSpeed: Number((sum(runs, (r) => r.playedMs) / sum(runs, (r) => r.realMs)).toFixed(1)),
    markers: last.markers,
    trailPoints: last.trailPoints,
    trailPolylines: last.trailPolylines,
    endStates: runs.map((r) => r.endState),
    ratio: {
      p50: ratio(times.p50Ms, liveFigures.p50Ms),
      p95: ratio(times.p95Ms, liveFigures.p95Ms),
      mean: ratio(times.meanMs, liveFigures.meanMs),
      // The main thread alone: engine frame + tick handling + window generation vs the live engine frame.
      mainThread: ratio(engineFrameMs + tickMs + fetchMsPerFrame, liveFigures.engineFrameMs),
    },
  };
}

const playbackCase = playbackFigures(playbackRuns);
const markersOnlyCase = playbackFigures(markersOnlyRuns);
const meanOf = (deltas: number[]) => frameTimes(deltas).meanMs;

console.log(
  JSON.stringify(
    {
      bench: 'playbackFrames',
      renderer: liveRuns[0].renderer,
      playbackRenderer: playbackRuns[0].renderer,
      antialias: (await page.evaluate(() => window.canvasHarness.stats())).antialias,
      chromium: browser.version(),
      viewport: '1280×800 @1x',
      machine: machine(),
      workers: WORKERS,
      speed: SPEED,
      trailMs: TRAIL_MS,
      rounds,
      framesPerRound: frames,
      live: liveFigures,
      playback: playbackCase,
      playbackWithoutTrails: markersOnlyCase,
      perRoundMeanMs: liveRuns.map((l, i) => ({
        live: meanOf(l.deltas),
        playback: meanOf(playbackRuns[i].deltas),
        playbackWithoutTrails: meanOf(markersOnlyRuns[i].deltas),
      })),
      goal: 'playback/live frame time ≤ 1.2 (p50 and mean)',
      goalMet: playbackCase.ratio.p50 <= 1.2 && playbackCase.ratio.mean <= 1.2,
    },
    null,
    2,
  ),
);
await close();
