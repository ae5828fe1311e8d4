import type { FloorCorners, LatLong } from '../../../domain/floor';
import { type FloorGrid, floorGrid } from '../../../domain/geo';
import type { Heatmap } from '../../../domain/schemas/analytics';
import { heatmapColour } from './heatmapRamp';

/**
 * A heatmap reply laid out on its floor's grid: one slot per cell (row-major, y * columns + x)
 * holding the worker-seconds there, ready for the layer's texture and the hover's look-up alike.
 */
export interface HeatmapCells {
  readonly floorId: number;
  readonly grid: FloorGrid;
  readonly columns: number;
  readonly rows: number;
  readonly seconds: Float64Array;
  readonly maxSeconds: number;
}

/**
 * The reply's cells on the floor's grid (`floorGrid(corners, cellSizeMetres)`, the rule the
 * server's rollups use); cells outside the grid are dropped, never wrapped onto another row.
 */
export function heatmapCells(heatmap: Heatmap, corners: FloorCorners): HeatmapCells {
  const grid = floorGrid(corners, heatmap.cellSizeMetres);
  const { columns, rows } = heatmap;
  const seconds = new Float64Array(columns * rows);
  let maxSeconds = 0;
  const count = Math.min(heatmap.x.length, heatmap.y.length, heatmap.workerSeconds.length);
  for (let i = 0; i < count; i++) {
    const x = heatmap.x[i];
    const y = heatmap.y[i];
    if (x < 0 || y < 0 || x >= columns || y >= rows) continue;
    const value = heatmap.workerSeconds[i];
    seconds[y * columns + x] += value;
    maxSeconds = Math.max(maxSeconds, seconds[y * columns + x]);
  }
  return { floorId: heatmap.floorId, grid, columns, rows, seconds, maxSeconds };
}

/** Worker-seconds in the cell holding `point`; null outside the floor. */
export function heatmapSecondsAt(cells: HeatmapCells, point: LatLong): number | null {
  const cell = cells.grid.cellOf(point);
  if (!cell || cell.x >= cells.columns || cell.y >= cells.rows) return null;
  return cells.seconds[cell.y * cells.columns + cell.x];
}

/**
 * The cells as RGBA texels through the colour ramp: opaque where anyone was, fully transparent
 * (and black, so premultiplied or not reads the same) where nobody was.
 */
export function heatmapTexels(cells: HeatmapCells): Uint8Array {
  const texels = new Uint8Array(cells.columns * cells.rows * 4);
  const max = cells.maxSeconds;
  if (max <= 0) return texels;
  for (let i = 0; i < cells.seconds.length; i++) {
    const value = cells.seconds[i];
    if (value <= 0) continue;
    const [r, g, b] = heatmapColour(value / max);
    texels[4 * i] = r;
    texels[4 * i + 1] = g;
    texels[4 * i + 2] = b;
    texels[4 * i + 3] = 255;
  }
  return texels;
}
