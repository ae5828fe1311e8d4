import { greatCircleDistance } from './distance';
import type { FloorCorners, LongLat } from './floor';
import { floorTransform } from './geo';

/**
 * A grid field (spec §7 "Work permits and grid"; docs/decisions.md "Grid fields"): a floor's
 * structural grid, the lettered and numbered axis lines of the construction drawings. Column
 * lines run across the floor at offsets in metres from corner a along a→b; row lines at offsets
 * from a along a→d. A place is named by the nearest column line and the nearest row line, as a
 * site names a spot "at grid C-4".
 */

export interface GridAxis {
  label: string;
  offset_m: number;
}

export interface GridAxes {
  columns: GridAxis[];
  rows: GridAxis[];
}

export interface GridField {
  id: number;
  floor_id: number;
  name: string;
  axes: GridAxes;
  created_at: string;
  updated_at: string;
}

export const GRID_FIELD_MESSAGES = {
  noAxes: 'A grid needs at least one column line and one row line',
  labelsUnique: 'Axis labels must be unique',
  offsetsIncreasing: 'Axis offsets must increase from one line to the next',
  offsetsInside: 'Axis offsets must be inside the floor',
} as const;

/** The floor's size in metres: a→b wide, a→d deep. */
export function floorSizeMetres(corners: FloorCorners): { width: number; depth: number } {
  return {
    width: greatCircleDistance(corners.a, corners.b),
    depth: greatCircleDistance(corners.a, corners.d),
  };
}

function axisProblem(lines: readonly GridAxis[], lengthMetres: number): string | null {
  if (lines.length === 0) return GRID_FIELD_MESSAGES.noAxes;
  const labels = new Set(lines.map((line) => line.label.trim().toLowerCase()));
  if (labels.size !== lines.length) return GRID_FIELD_MESSAGES.labelsUnique;
  for (let i = 1; i < lines.length; i++)
    if (!(lines[i].offset_m > lines[i - 1].offset_m)) return GRID_FIELD_MESSAGES.offsetsIncreasing;
  // 1 % of slack: a line on the floor's edge, measured off the drawing, may pass the length the
  // corners give (the corners' own earth model differs from ours by ~0.1 %).
  const slack = Math.max(0.01, lengthMetres * 0.01);
  if (lines.some((line) => line.offset_m < 0 || line.offset_m > lengthMetres + slack))
    return GRID_FIELD_MESSAGES.offsetsInside;
  return null;
}

/** Field → message for axes that are not a grid of this floor; empty when they are. */
export function gridAxesProblems(axes: GridAxes, corners: FloorCorners): Record<string, string> {
  const { width, depth } = floorSizeMetres(corners);
  const problems: Record<string, string> = {};
  const columns = axisProblem(axes.columns, width);
  const rows = axisProblem(axes.rows, depth);
  if (columns) problems['axes.columns'] = columns;
  if (rows) problems['axes.rows'] = rows;
  return problems;
}

/** The line nearest the offset (the first of two equally near). */
function nearestLine(lines: readonly GridAxis[], offset: number): GridAxis {
  let best = lines[0];
  for (const line of lines)
    if (Math.abs(line.offset_m - offset) < Math.abs(best.offset_m - offset)) best = line;
  return best;
}

/**
 * The grid reference of a point ("C-4": nearest column line, then nearest row line), or null when
 * the point is off the floor or the grid has no lines.
 */
export function gridReference(axes: GridAxes, corners: FloorCorners, [long, lat]: LongLat): string | null {
  if (axes.columns.length === 0 || axes.rows.length === 0) return null;
  const { x: u, y: v } = floorTransform(corners, { width: 1, height: 1 }).toImage({ lat, long });
  if (!(u >= -1e-9 && u <= 1 + 1e-9 && v >= -1e-9 && v <= 1 + 1e-9)) return null;
  const { width, depth } = floorSizeMetres(corners);
  return `${nearestLine(axes.columns, u * width).label}-${nearestLine(axes.rows, v * depth).label}`;
}
