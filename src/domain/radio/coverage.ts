import {
  freeSpaceRangeM,
  MIN_ANCHORS_FOR_POSITIONING,
  MIN_PATH_LOSS_DISTANCE_M,
  pathLossDb,
  type RadioModel,
  type WallMaterial,
} from './radioModel';

/**
 * The coverage simulation of installation planning: per grid cell of a floor, the anchors heard,
 * the strongest signal, the DOP of the anchors heard and whether 2-D positioning works there.
 * All geometry is in floor metres: x along corner a→b, y along a→d, origin at corner a.
 */

export interface MetrePoint {
  x: number;
  y: number;
}
/** A wall as a polyline: every segment the line anchor→cell crosses takes off its material's loss. */
export interface SimWall {
  points: MetrePoint[];
  material: WallMaterial;
}
export interface SimAnchor {
  key: string;
  x: number;
  y: number;
}
export interface CoverageInput {
  widthM: number;
  heightM: number;
  cellSizeM: number;
  anchors: SimAnchor[];
  walls: SimWall[];
  model: RadioModel;
}
export interface CoverageGrid {
  /** Cell (c, r) has its centre at ((c + .5)·s, (r + .5)·s); row-major index r·columns + c. */
  columns: number;
  rows: number;
  cellSizeM: number;
  /** Anchors heard per cell. */
  heard: Uint16Array;
  /** The strongest predicted RSSI of the anchors heard (-Infinity where none is heard). */
  bestRssiDbm: Float32Array;
  /** DOP of the anchors heard (Infinity when fewer than 3 are heard or they are in one line). */
  dop: Float32Array;
  /** 1 where at least 4 anchors are heard and the DOP is at most the model's maxDop. */
  positioned: Uint8Array;
  /** Share of cells positioned, 0..100. */
  coveredPercent: number;
}

/** More cells than this is a request no screen can show (a 1 km × 1 km floor at 1 m). */
export const MAX_COVERAGE_CELLS = 1_000_000;
/** The heard counts are 16-bit. */
export const MAX_COVERAGE_ANCHORS = 65_535;
/** suggestPlacements tries at most this many candidate points per round (the step grows to fit). */
export const MAX_PLACEMENT_CANDIDATES = 400;
export const MAX_SUGGESTED_PLACEMENTS = 50;

const positiveFinite = (value: number) => Number.isFinite(value) && value > 0;

/** The grid's size for a floor; throws a RangeError for sizes that are not positive or too many cells. */
export function coverageGridSize(
  widthM: number,
  heightM: number,
  cellSizeM: number,
): { columns: number; rows: number } {
  if (!positiveFinite(widthM) || !positiveFinite(heightM))
    throw new RangeError('The floor size must be a positive number of metres');
  if (!positiveFinite(cellSizeM)) throw new RangeError('The cell size must be a positive number of metres');
  // 1.1 / 0.1 is 11.000000000000002 in floating point: that is 11 cells, not 12.
  const columns = Math.max(1, Math.ceil(widthM / cellSizeM - 1e-9));
  const rows = Math.max(1, Math.ceil(heightM / cellSizeM - 1e-9));
  if (columns * rows > MAX_COVERAGE_CELLS)
    throw new RangeError(`The simulation grid may have at most ${MAX_COVERAGE_CELLS} cells`);
  return { columns, rows };
}

// ---------------------------------------------------------------------------------------------
// Wall crossings

/** Which side of the segment's line a point is on ("left" is strictly positive: half-open). */
function leftOfSegment(x1: number, y1: number, x2: number, y2: number, px: number, py: number): boolean {
  return (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1) > 0;
}

/**
 * Whether the line from (ax, ay) to (px, py) crosses the segment, given which side of the segment
 * the start is on. Sides are half-open (a point on a line is "not left"), so a line through the
 * shared vertex of two segments of a polyline that passes through it counts one crossing, not two.
 * The brute-force scan and the index both call this, so they agree to the bit.
 */
function crossesSegment(
  startLeft: boolean,
  ax: number,
  ay: number,
  px: number,
  py: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): boolean {
  if (leftOfSegment(x1, y1, x2, y2, px, py) === startLeft) return false;
  // Measure the segment's ends against the line drawn from its lower end (by x, then y), so a
  // link loses the same through a wall end lying exactly on it whichever way it is traced.
  const forward = ax < px || (ax === px && ay <= py);
  const ox = forward ? ax : px;
  const oy = forward ? ay : py;
  const rx = forward ? px - ax : ax - px;
  const ry = forward ? py - ay : ay - py;
  return rx * (y1 - oy) - ry * (x1 - ox) > 0 !== rx * (y2 - oy) - ry * (x2 - ox) > 0;
}

/** The walls as flat segments: x1, y1, x2, y2 per segment, and each one's loss (lossless ones left out). */
interface Segments {
  count: number;
  coordinates: Float64Array;
  lossDb: Float64Array;
}

function flattenWalls(walls: readonly SimWall[], model: RadioModel): Segments {
  const coordinates: number[] = [];
  const lossDb: number[] = [];
  for (const wall of walls) {
    const loss = model.wallAttenuationDb[wall.material];
    if (!(loss > 0)) continue;
    for (let i = 0; i + 1 < wall.points.length; i++) {
      const from = wall.points[i];
      const to = wall.points[i + 1];
      if (from.x === to.x && from.y === to.y) continue;
      coordinates.push(from.x, from.y, to.x, to.y);
      lossDb.push(loss);
    }
  }
  return {
    count: lossDb.length,
    coordinates: Float64Array.from(coordinates),
    lossDb: Float64Array.from(lossDb),
  };
}

/** The attenuation of every wall segment the straight line `from`→`to` crosses, by scanning them all. */
export function wallLossDb(
  from: MetrePoint,
  to: MetrePoint,
  walls: readonly SimWall[],
  model: RadioModel,
): number {
  let loss = 0;
  for (const wall of walls) {
    const segmentLoss = model.wallAttenuationDb[wall.material];
    for (let i = 0; i + 1 < wall.points.length; i++) {
      const s = wall.points[i];
      const e = wall.points[i + 1];
      const startLeft = leftOfSegment(s.x, s.y, e.x, e.y, from.x, from.y);
      if (crossesSegment(startLeft, from.x, from.y, to.x, to.y, s.x, s.y, e.x, e.y)) loss += segmentLoss;
    }
  }
  return loss;
}

/** The predicted RSSI (dBm) of the link between two points: path loss plus every wall crossed. */
export function predictLinkRssi(a: MetrePoint, b: MetrePoint, walls: SimWall[], model: RadioModel): number {
  const distance = Math.hypot(b.x - a.x, b.y - a.y);
  return model.txPowerDbm - pathLossDb(model, distance) - wallLossDb(a, b, walls, model);
}

/**
 * Bins of direction around one anchor: each wall segment is listed in the bins its angle (as seen
 * from the anchor) spans, nearest first, so a cell tests only the segments in its own direction
 * that are closer than itself. Built once per anchor, in O(segments · bins spanned).
 */
const DIRECTION_BINS = 1024;

/** A monotone stand-in for atan2 in [0, 4) (the "diamond angle"): no trigonometry per cell. */
function diamondAngle(dx: number, dy: number): number {
  const sum = Math.abs(dx) + Math.abs(dy);
  if (sum === 0) return 0;
  const p = dy / sum;
  return dx < 0 ? 2 - p : dy < 0 ? 4 + p : p;
}

function directionBin(dx: number, dy: number): number {
  const bin = (diamondAngle(dx, dy) * (DIRECTION_BINS / 4)) | 0;
  return bin >= DIRECTION_BINS ? DIRECTION_BINS - 1 : bin;
}

class DirectionIndex {
  /** Bin b lists segments[order[start[b]] .. order[start[b + 1] - 1]]. */
  readonly start = new Int32Array(DIRECTION_BINS + 1);
  list = new Int32Array(0);
  /** Per segment: the squared distance from the anchor (shaved a little so float error never skips one). */
  readonly nearestSquared: Float64Array;
  /** Per segment: whether the anchor is on its left (the half-open side of crossesSegment). */
  readonly anchorLeft: Uint8Array;
  private readonly firstBin: Int32Array;
  private readonly binCount: Int32Array;
  private readonly byDistance: Int32Array;
  private readonly fill = new Int32Array(DIRECTION_BINS);

  constructor(private readonly segments: Segments) {
    this.nearestSquared = new Float64Array(segments.count);
    this.anchorLeft = new Uint8Array(segments.count);
    this.firstBin = new Int32Array(segments.count);
    this.binCount = new Int32Array(segments.count);
    this.byDistance = new Int32Array(segments.count);
  }

  /** Re-index the segments around the anchor at (ax, ay). */
  build(ax: number, ay: number): void {
    const { count, coordinates } = this.segments;
    const { nearestSquared, anchorLeft, firstBin, binCount, byDistance, start, fill } = this;
    start.fill(0);
    let total = 0;
    for (let s = 0; s < count; s++) {
      const x1 = coordinates[4 * s];
      const y1 = coordinates[4 * s + 1];
      const x2 = coordinates[4 * s + 2];
      const y2 = coordinates[4 * s + 3];
      anchorLeft[s] = leftOfSegment(x1, y1, x2, y2, ax, ay) ? 1 : 0;
      const ex = x2 - x1;
      const ey = y2 - y1;
      const lengthSquared = ex * ex + ey * ey;
      // A segment so short its length underflows is taken at its first end (no NaN in the sort).
      const t =
        lengthSquared > 0 ? Math.min(1, Math.max(0, ((ax - x1) * ex + (ay - y1) * ey) / lengthSquared)) : 0;
      const nx = x1 + t * ex - ax;
      const ny = y1 + t * ey - ay;
      nearestSquared[s] = (nx * nx + ny * ny) * (1 - 1e-9) - 1e-12;
      const ux = x1 - ax;
      const uy = y1 - ay;
      const vx = x2 - ax;
      const vy = y2 - ay;
      const turn = ux * vy - uy * vx;
      if (Math.abs(turn) <= 1e-9 * (ux * ux + uy * uy + vx * vx + vy * vy)) {
        // The anchor is (nearly) on the segment's line: any direction may cross it; the exact test decides.
        firstBin[s] = 0;
        binCount[s] = DIRECTION_BINS;
      } else {
        // The segment spans less than half a turn; widen by a bin each way for float error.
        const [from, to] =
          turn > 0
            ? [directionBin(ux, uy), directionBin(vx, vy)]
            : [directionBin(vx, vy), directionBin(ux, uy)];
        const spanned = ((to - from + DIRECTION_BINS) % DIRECTION_BINS) + 3;
        firstBin[s] = (from - 1 + DIRECTION_BINS) % DIRECTION_BINS;
        binCount[s] = Math.min(DIRECTION_BINS, spanned);
      }
      for (let k = 0; k < binCount[s]; k++) start[((firstBin[s] + k) % DIRECTION_BINS) + 1]++;
      total += binCount[s];
      byDistance[s] = s;
    }
    for (let b = 0; b < DIRECTION_BINS; b++) start[b + 1] += start[b];
    if (this.list.length < total) this.list = new Int32Array(total);
    byDistance.sort((p, q) => nearestSquared[p] - nearestSquared[q]);
    fill.set(start.subarray(0, DIRECTION_BINS));
    const list = this.list;
    for (let i = 0; i < count; i++) {
      const s = byDistance[i];
      for (let k = 0; k < binCount[s]; k++) {
        const bin = (firstBin[s] + k) % DIRECTION_BINS;
        list[fill[bin]++] = s;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// One anchor's contribution

/** What the shared per-cell sums need from a floor, its walls and the model. */
class CoverageContext {
  readonly columns: number;
  readonly rows: number;
  readonly cellSizeM: number;
  readonly model: RadioModel;
  private readonly segments: Segments;
  private readonly index: DirectionIndex | null;
  private readonly rangeSquared: number;
  private readonly frequencyLossDb: number;
  /** The cells one anchor is heard in, with the RSSI and its row of HᵀH (ux², ux·uy, uy²). */
  readonly cells: Int32Array;
  readonly rssi: Float64Array;
  readonly hxx: Float64Array;
  readonly hxy: Float64Array;
  readonly hyy: Float64Array;

  constructor(input: CoverageInput) {
    const { columns, rows } = coverageGridSize(input.widthM, input.heightM, input.cellSizeM);
    this.columns = columns;
    this.rows = rows;
    this.cellSizeM = input.cellSizeM;
    this.model = input.model;
    this.segments = flattenWalls(input.walls, input.model);
    this.index = this.segments.count > 0 ? new DirectionIndex(this.segments) : null;
    const range = freeSpaceRangeM(input.model);
    this.rangeSquared = range * range * (1 + 1e-9);
    this.frequencyLossDb = 20 * Math.log10(input.model.frequencyMHz);
    const cellCount = columns * rows;
    this.cells = new Int32Array(cellCount);
    this.rssi = new Float64Array(cellCount);
    this.hxx = new Float64Array(cellCount);
    this.hxy = new Float64Array(cellCount);
    this.hyy = new Float64Array(cellCount);
  }

  /** Fills `cells` … `hyy` with the cells that hear an anchor at (ax, ay); returns how many. */
  heardCells(ax: number, ay: number): number {
    const { columns, rows, cellSizeM: size, model, index, rangeSquared, cells, rssi, hxx, hxy, hyy } = this;
    const coordinates = this.segments.coordinates;
    const lossDb = this.segments.lossDb;
    const sensitivity = model.rxSensitivityDbm;
    const tx = model.txPowerDbm;
    const n = model.distancePowerLossCoefficient;
    const frequencyLoss = this.frequencyLossDb;
    const range = Math.sqrt(rangeSquared);
    const c0 = Math.max(0, Math.floor((ax - range) / size - 0.5));
    const c1 = Math.min(columns - 1, Math.ceil((ax + range) / size - 0.5));
    const r0 = Math.max(0, Math.floor((ay - range) / size - 0.5));
    const r1 = Math.min(rows - 1, Math.ceil((ay + range) / size - 0.5));
    if (c0 > c1 || r0 > r1) return 0;
    if (index) index.build(ax, ay);
    let heard = 0;
    for (let r = r0; r <= r1; r++) {
      const py = (r + 0.5) * size;
      const dy = py - ay;
      const dy2 = dy * dy;
      if (dy2 > rangeSquared) continue;
      for (let c = c0; c <= c1; c++) {
        const px = (c + 0.5) * size;
        const dx = px - ax;
        const d2 = dx * dx + dy2;
        if (d2 > rangeSquared) continue;
        // As pathLossDb computes it, so predictLinkRssi gives the same number.
        const metres = Math.max(MIN_PATH_LOSS_DISTANCE_M, Math.sqrt(d2));
        let signal = tx - (frequencyLoss + n * Math.log10(metres) - 28);
        if (signal < sensitivity) continue;
        if (index) {
          const { start, list, nearestSquared, anchorLeft } = index;
          const bin = directionBin(dx, dy);
          for (let k = start[bin], end = start[bin + 1]; k < end; k++) {
            const s = list[k];
            if (nearestSquared[s] > d2) break;
            const o = 4 * s;
            if (
              crossesSegment(
                anchorLeft[s] === 1,
                ax,
                ay,
                px,
                py,
                coordinates[o],
                coordinates[o + 1],
                coordinates[o + 2],
                coordinates[o + 3],
              )
            ) {
              signal -= lossDb[s];
              // Walls only take away: once below the sensitivity the cell cannot hear this anchor.
              if (signal < sensitivity) break;
            }
          }
          if (signal < sensitivity) continue;
        }
        cells[heard] = r * columns + c;
        rssi[heard] = signal;
        if (d2 > 0) {
          const inverse = 1 / d2;
          hxx[heard] = dx * dx * inverse;
          hxy[heard] = dx * dy * inverse;
          hyy[heard] = dy * dy * inverse;
        } else {
          // A cell centre on the anchor has no direction to it: heard, but no help to the geometry.
          hxx[heard] = 0;
          hxy[heard] = 0;
          hyy[heard] = 0;
        }
        heard++;
      }
    }
    return heard;
  }
}

/**
 * 2-D geometric DOP from the sums of HᵀH (rows of H: unit vectors cell→anchor):
 * sqrt(trace((HᵀH)⁻¹)) = sqrt((xx + yy) / det); Infinity with fewer than 3 anchors or in one line.
 */
function dopOf(heard: number, xx: number, xy: number, yy: number): number {
  if (heard < 3) return Number.POSITIVE_INFINITY;
  const trace = xx + yy;
  const det = xx * yy - xy * xy;
  // Relative to the sums' size: anchors in one line leave a det of rounding noise, not 0.
  if (!(det > 1e-10 * trace * trace)) return Number.POSITIVE_INFINITY;
  return Math.sqrt(trace / det);
}

function isPositioned(heard: number, dop: number, maxDop: number): boolean {
  return heard >= MIN_ANCHORS_FOR_POSITIONING && dop <= maxDop;
}

/** The running per-cell sums of a plan: heard counts, best RSSI and HᵀH. */
class CoverageSums {
  readonly heard: Uint16Array;
  readonly best: Float32Array;
  readonly xx: Float64Array;
  readonly xy: Float64Array;
  readonly yy: Float64Array;
  readonly positioned: Uint8Array;
  positionedCount = 0;

  constructor(
    private readonly context: CoverageContext,
    cellCount: number,
  ) {
    this.heard = new Uint16Array(cellCount);
    this.best = new Float32Array(cellCount).fill(Number.NEGATIVE_INFINITY);
    this.xx = new Float64Array(cellCount);
    this.xy = new Float64Array(cellCount);
    this.yy = new Float64Array(cellCount);
    this.positioned = new Uint8Array(cellCount);
  }

  /** Adds the anchor whose cells `context.heardCells` just filled (`count` of them). */
  add(count: number): void {
    const { cells, rssi, hxx, hxy, hyy, model } = this.context;
    const { heard, best, xx, xy, yy, positioned } = this;
    for (let k = 0; k < count; k++) {
      const i = cells[k];
      heard[i]++;
      const signal = Math.fround(rssi[k]);
      if (signal > best[i]) best[i] = signal;
      xx[i] += hxx[k];
      xy[i] += hxy[k];
      yy[i] += hyy[k];
      if (!positioned[i] && isPositioned(heard[i], dopOf(heard[i], xx[i], xy[i], yy[i]), model.maxDop)) {
        positioned[i] = 1;
        this.positionedCount++;
      }
    }
  }
}

function checkAnchors(anchors: readonly MetrePoint[]): void {
  if (anchors.length > MAX_COVERAGE_ANCHORS)
    throw new RangeError(`A simulation may have at most ${MAX_COVERAGE_ANCHORS} anchors`);
  for (const anchor of anchors)
    if (!Number.isFinite(anchor.x) || !Number.isFinite(anchor.y))
      throw new RangeError('Anchor positions must be finite numbers of metres');
}

function checkWalls(walls: readonly SimWall[]): void {
  for (const wall of walls)
    for (const point of wall.points)
      if (!Number.isFinite(point.x) || !Number.isFinite(point.y))
        throw new RangeError('Wall points must be finite numbers of metres');
}

/** The coverage of a plan: every anchor against every cell, walls and all. Throws RangeError on bad sizes. */
export function simulateCoverage(input: CoverageInput): CoverageGrid {
  checkAnchors(input.anchors);
  checkWalls(input.walls);
  const context = new CoverageContext(input);
  const { columns, rows } = context;
  const cellCount = columns * rows;
  const sums = new CoverageSums(context, cellCount);
  for (const anchor of input.anchors) sums.add(context.heardCells(anchor.x, anchor.y));
  const dop = new Float32Array(cellCount);
  for (let i = 0; i < cellCount; i++) dop[i] = dopOf(sums.heard[i], sums.xx[i], sums.xy[i], sums.yy[i]);
  return {
    columns,
    rows,
    cellSizeM: input.cellSizeM,
    heard: sums.heard,
    bestRssiDbm: sums.best,
    dop,
    positioned: sums.positioned,
    coveredPercent: (sums.positionedCount / cellCount) * 100,
  };
}

// ---------------------------------------------------------------------------------------------
// Suggested placements

export interface SuggestedPlacement {
  x: number;
  y: number;
  /** The floor's coveredPercent once this and every earlier suggestion are accepted. */
  coveredPercentAfter: number;
}

/** The candidate points: a regular grid over the floor, cell-centred, at most MAX_PLACEMENT_CANDIDATES. */
function candidatePoints(widthM: number, heightM: number, stepM: number): MetrePoint[] {
  let step = stepM;
  const spacing = () => ({
    across: Math.max(1, Math.round(widthM / step)),
    down: Math.max(1, Math.round(heightM / step)),
  });
  let { across, down } = spacing();
  while (across * down > MAX_PLACEMENT_CANDIDATES) {
    step *= Math.sqrt((across * down) / MAX_PLACEMENT_CANDIDATES) * 1.01;
    ({ across, down } = spacing());
  }
  const points: MetrePoint[] = [];
  for (let j = 0; j < down; j++)
    for (let i = 0; i < across; i++)
      points.push({ x: ((i + 0.5) * widthM) / across, y: ((j + 0.5) * heightM) / down });
  return points;
}

/**
 * Candidates are judged on a grid of at most this many cells (coarser than the plan's when the
 * plan's is finer), each candidate's cells worked out once and kept: the rounds then only add.
 * 400 candidates × 5,000 cells bounds the kept rows at 2 M (32 MB).
 */
const EVALUATION_CELLS = 5_000;

/** The cells each candidate is heard in, with its rows of HᵀH, one run per candidate. */
interface CandidateCells {
  start: Int32Array;
  cells: Int32Array;
  hxx: Float32Array;
  hxy: Float32Array;
  hyy: Float32Array;
}

function candidateCells(context: CoverageContext, candidates: readonly MetrePoint[]): CandidateCells {
  const capacity = candidates.length * context.columns * context.rows;
  const kept: CandidateCells = {
    start: new Int32Array(candidates.length + 1),
    cells: new Int32Array(capacity),
    hxx: new Float32Array(capacity),
    hxy: new Float32Array(capacity),
    hyy: new Float32Array(capacity),
  };
  let next = 0;
  candidates.forEach((candidate, index) => {
    const heard = context.heardCells(candidate.x, candidate.y);
    kept.cells.set(context.cells.subarray(0, heard), next);
    kept.hxx.set(context.hxx.subarray(0, heard), next);
    kept.hxy.set(context.hxy.subarray(0, heard), next);
    kept.hyy.set(context.hyy.subarray(0, heard), next);
    next += heard;
    kept.start[index + 1] = next;
  });
  return kept;
}

/**
 * Where `count` more anchors raise coverage most, chosen greedily: each round the candidate that
 * positions the most cells, then (ties) the one heard in the most cells, then the one adding the most
 * det(HᵀH) (anchors seen at wider angles, which is what the first rounds, with nothing positioned
 * yet, need), then the first in the scan. Each suggestion assumes the earlier ones were accepted;
 * its coveredPercentAfter is on the plan's own grid, whatever grid the candidates were judged on.
 */
export function suggestPlacements(
  input: CoverageInput & { count: number; candidateStepM?: number },
): SuggestedPlacement[] {
  const { count } = input;
  if (!Number.isInteger(count) || count < 0 || count > MAX_SUGGESTED_PLACEMENTS)
    throw new RangeError(
      `The number of placements must be a whole number from 0 to ${MAX_SUGGESTED_PLACEMENTS}`,
    );
  checkAnchors(input.anchors);
  checkWalls(input.walls);
  const stepM = input.candidateStepM ?? Math.max(2, 4 * input.cellSizeM);
  if (!positiveFinite(stepM)) throw new RangeError('The candidate step must be a positive number of metres');
  const context = new CoverageContext(input);
  const cellCount = context.columns * context.rows;
  const sums = new CoverageSums(context, cellCount);
  for (const anchor of input.anchors) sums.add(context.heardCells(anchor.x, anchor.y));
  if (count === 0) return [];

  const judging =
    cellCount <= EVALUATION_CELLS
      ? context
      : new CoverageContext({
          ...input,
          cellSizeM: Math.max(input.cellSizeM, Math.sqrt((input.widthM * input.heightM) / EVALUATION_CELLS)),
        });
  const judged = judging === context ? sums : new CoverageSums(judging, judging.columns * judging.rows);
  if (judged !== sums) for (const anchor of input.anchors) judged.add(judging.heardCells(anchor.x, anchor.y));
  const candidates = candidatePoints(input.widthM, input.heightM, stepM);
  const kept = candidateCells(judging, candidates);
  const taken = new Uint8Array(candidates.length);
  const maxDop = input.model.maxDop;
  const suggestions: SuggestedPlacement[] = [];
  for (let round = 0; round < count; round++) {
    let bestIndex = -1;
    let bestGain = -1;
    let bestHeard = -1;
    let bestDet = Number.NEGATIVE_INFINITY;
    for (let index = 0; index < candidates.length; index++) {
      if (taken[index]) continue;
      let gain = 0;
      let detGain = 0;
      const from = kept.start[index];
      const to = kept.start[index + 1];
      for (let k = from; k < to; k++) {
        const i = kept.cells[k];
        const heard = judged.heard[i] + 1;
        const xx = judged.xx[i] + kept.hxx[k];
        const xy = judged.xy[i] + kept.hxy[k];
        const yy = judged.yy[i] + kept.hyy[k];
        if (!judged.positioned[i] && isPositioned(heard, dopOf(heard, xx, xy, yy), maxDop)) gain++;
        detGain += xx * yy - xy * xy - (judged.xx[i] * judged.yy[i] - judged.xy[i] * judged.xy[i]);
      }
      const heardCount = to - from;
      const better =
        gain > bestGain ||
        (gain === bestGain &&
          (heardCount > bestHeard || (heardCount === bestHeard && detGain > bestDet * (1 + 1e-9) + 1e-9)));
      if (better) {
        bestIndex = index;
        bestGain = gain;
        bestHeard = heardCount;
        bestDet = detGain;
      }
    }
    if (bestIndex < 0) break;
    taken[bestIndex] = 1;
    const chosen = candidates[bestIndex];
    sums.add(context.heardCells(chosen.x, chosen.y));
    if (judged !== sums) judged.add(judging.heardCells(chosen.x, chosen.y));
    suggestions.push({
      x: chosen.x,
      y: chosen.y,
      coveredPercentAfter: (sums.positionedCount / cellCount) * 100,
    });
  }
  return suggestions;
}
