// The installation planner's coverage simulation (src/domain/radio/coverage.ts): 200 anchors and
// 100 walls on a 100 m × 60 m floor at 0.5 m cells (24,000 cells, 4.8 M anchor–cell rays) against
// the same grid and anchors with no walls, measured alternately in the same run. Target: walls cost
// at most 3× the no-wall time (walls indexed, not scanned per ray).
// Usage: npx tsx bench/coverageSimulation.bench.ts [--rounds 7] [--anchors 200] [--walls 100] [--seed 19] [--scan]
//   (--scan also times, once, the walls found by scanning every segment for every ray in range)
import { performance } from 'node:perf_hooks';
import {
  type CoverageInput,
  predictLinkRssi,
  type SimWall,
  simulateCoverage,
  wallLossDb,
} from '../src/domain/radio/coverage';
import { DEFAULT_RADIO_MODEL, freeSpaceRangeM, WALL_MATERIALS } from '../src/domain/radio/radioModel';
import { between, pick, seededRandom } from '../src/domain/seededRandom';
import { machine } from './measure';

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? Number.NaN : Number(process.argv[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const rounds = option('rounds', 7);
const anchorCount = option('anchors', 200);
const wallCount = option('walls', 100);
const seed = option('seed', 19);

const WIDTH_M = 100;
const HEIGHT_M = 60;
const CELL_M = 0.5;
const model = DEFAULT_RADIO_MODEL;
const random = seededRandom(seed);

const anchors = Array.from({ length: anchorCount }, (_, i) => ({
  key: `ANC-${i}`,
  x: between(random, 0, WIDTH_M),
  y: between(random, 0, HEIGHT_M),
}));

/** Walls as a building has them: mostly along the floor's axes, one to three segments of 3–15 m. */
function randomWall(): SimWall {
  const segments = 1 + Math.floor(random() * 3);
  let x = between(random, 0, WIDTH_M);
  let y = between(random, 0, HEIGHT_M);
  const points = [{ x, y }];
  let alongX = random() < 0.5;
  for (let s = 0; s < segments; s++) {
    const length = between(random, 3, 15) * (random() < 0.5 ? -1 : 1);
    if (random() < 0.15) {
      // Now and then a slanted one.
      x += length * Math.SQRT1_2;
      y += length * Math.SQRT1_2;
    } else if (alongX) x += length;
    else y += length;
    x = Math.min(WIDTH_M, Math.max(0, x));
    y = Math.min(HEIGHT_M, Math.max(0, y));
    points.push({ x, y });
    alongX = !alongX;
  }
  return { material: pick(random, WALL_MATERIALS), points };
}
const walls = Array.from({ length: wallCount }, randomWall);
const segmentCount = walls.reduce((sum, wall) => sum + wall.points.length - 1, 0);

const withWalls: CoverageInput = {
  widthM: WIDTH_M,
  heightM: HEIGHT_M,
  cellSizeM: CELL_M,
  anchors,
  walls,
  model,
};
const noWalls: CoverageInput = { ...withWalls, walls: [] };

/** Wall-clock and CPU time of one simulation (CPU time moves less when other jobs share the cores). */
function time(input: CoverageInput): { ms: number; cpuMs: number; coveredPercent: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const grid = simulateCoverage(input);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, coveredPercent: grid.coveredPercent };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

// Warm-up: both cases once, so the JIT has compiled the loops before anything is timed.
time(noWalls);
time(withWalls);
const baselineMs: number[] = [];
const wallsMs: number[] = [];
const baselineCpuMs: number[] = [];
const wallsCpuMs: number[] = [];
let covered = { noWalls: 0, withWalls: 0 };
for (let round = 0; round < rounds; round++) {
  // Alternate which goes first, so a slow moment on a shared machine does not land on one case only.
  const order = round % 2 === 0 ? ['none', 'walls'] : ['walls', 'none'];
  for (const which of order) {
    const result = time(which === 'none' ? noWalls : withWalls);
    if (which === 'none') {
      baselineMs.push(result.ms);
      baselineCpuMs.push(result.cpuMs);
      covered.noWalls = result.coveredPercent;
    } else {
      wallsMs.push(result.ms);
      wallsCpuMs.push(result.cpuMs);
      covered.withWalls = result.coveredPercent;
    }
  }
}
covered = {
  noWalls: Number(covered.noWalls.toFixed(1)),
  withWalls: Number(covered.withWalls.toFixed(1)),
};

// What the walls cost per ray: rays inside the free-space range are traced (the rest are skipped
// before any wall is looked at); of those, how many segments a full scan would test, and how many
// segments a ray actually crosses (from a sample, by the scan).
const columns = Math.ceil(WIDTH_M / CELL_M);
const rows = Math.ceil(HEIGHT_M / CELL_M);
const range = freeSpaceRangeM(model);
let traced = 0;
for (const anchor of anchors)
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < columns; c++)
      if (Math.hypot((c + 0.5) * CELL_M - anchor.x, (r + 0.5) * CELL_M - anchor.y) <= range) traced++;
const sampleRandom = seededRandom(seed + 1);
let sampledCrossings = 0;
const SAMPLE = 2_000;
for (let i = 0; i < SAMPLE; i++) {
  const anchor = pick(sampleRandom, anchors);
  const cell = {
    x: (Math.floor(sampleRandom() * columns) + 0.5) * CELL_M,
    y: (Math.floor(sampleRandom() * rows) + 0.5) * CELL_M,
  };
  const loss = wallLossDb(anchor, cell, walls, {
    ...model,
    wallAttenuationDb: { drywall: 1, brick: 1, concrete: 1, glass: 1, metal: 1 },
  });
  sampledCrossings += loss;
}

/** The alternative the index replaces: every ray in range tests every segment (predictLinkRssi's scan). */
function scanEveryRay(): { ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let heard = 0;
  for (const anchor of anchors)
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < columns; c++) {
        const cell = { x: (c + 0.5) * CELL_M, y: (r + 0.5) * CELL_M };
        if (Math.hypot(cell.x - anchor.x, cell.y - anchor.y) > range) continue;
        if (predictLinkRssi(anchor, cell, walls, model) >= model.rxSensitivityDbm) heard++;
      }
  if (heard < 0) throw new Error('unreachable');
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}
const scan = process.argv.includes('--scan') ? scanEveryRay() : undefined;

const baseline = median(baselineMs);
const walled = median(wallsMs);
console.log(
  JSON.stringify(
    {
      bench: 'coverageSimulation',
      machine: machine(),
      floor: `${WIDTH_M} m × ${HEIGHT_M} m at ${CELL_M} m cells`,
      cells: columns * rows,
      anchors: anchorCount,
      walls: wallCount,
      segments: segmentCount,
      rays: anchorCount * columns * rows,
      raysTraced: traced,
      raysSkippedOutOfRange: anchorCount * columns * rows - traced,
      segmentsCrossedPerRay: Number((sampledCrossings / SAMPLE).toFixed(2)),
      rounds,
      noWallsMs: { median: Number(baseline.toFixed(1)), all: baselineMs.map((ms) => Number(ms.toFixed(1))) },
      withWallsMs: { median: Number(walled.toFixed(1)), all: wallsMs.map((ms) => Number(ms.toFixed(1))) },
      ratio: Number((walled / baseline).toFixed(2)),
      cpuMs: {
        noWalls: Number(median(baselineCpuMs).toFixed(1)),
        withWalls: Number(median(wallsCpuMs).toFixed(1)),
        ratio: Number((median(wallsCpuMs) / median(baselineCpuMs)).toFixed(2)),
      },
      ...(scan === undefined
        ? {}
        : {
            scanEverySegment: {
              ms: Number(scan.ms.toFixed(1)),
              cpuMs: Number(scan.cpuMs.toFixed(1)),
              cpuRatio: Number((scan.cpuMs / median(baselineCpuMs)).toFixed(2)),
            },
          }),
      target: 'with walls ≤ 3× the no-wall time',
      met: walled / baseline <= 3,
      coveredPercent: covered,
    },
    null,
    2,
  ),
);
