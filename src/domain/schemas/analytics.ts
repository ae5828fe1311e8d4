import { type Static, Type } from 'typebox';

/**
 * The analytics fast paths of the main API (issue "Analytics: the site's time machine"). Both
 * travel as columns of numbers, not one JSON object per cell or position: a 10-hour day of
 * 1,000 helmets is 36 M positions.
 */

const Iso = Type.String({ format: 'date-time' });
const Ints = Type.Array(Type.Integer());

/**
 * GET /api/floors/{id}/heatmap?from&to[&crewId&subcontractorId&workerRoleId]
 * Worker-seconds per grid cell of the floor over [from, to). Cells with nothing are left out;
 * `x[i]`, `y[i]`, `workerSeconds[i]` describe one cell. The grid is `floorGrid(corners,
 * cellSizeMetres)` of src/domain/geo.ts.
 */
export const HeatmapSchema = Type.Object({
  floorId: Type.Integer(),
  from: Iso,
  to: Iso,
  cellSizeMetres: Type.Number({ exclusiveMinimum: 0 }),
  columns: Type.Integer({ minimum: 1 }),
  rows: Type.Integer({ minimum: 1 }),
  x: Ints,
  y: Ints,
  workerSeconds: Ints,
  maxWorkerSeconds: Type.Integer({ minimum: 0 }),
  /** `rollup`: read from the minute rollups; `raw`: computed from positions (a filter was given). */
  source: Type.Union([Type.Literal('rollup'), Type.Literal('raw')]),
});
export type Heatmap = Static<typeof HeatmapSchema>;

/** Status bits of a history position. */
export const HISTORY_ONLINE = 1;
export const HISTORY_ACTIVE = 2;

/**
 * GET /api/floors/{id}/history?from&to[&workerIds=1,2][&cursor]
 * One chunk of the floor's positions in [from, to), ordered by time then helmet. A chunk holds
 * at most HISTORY_CHUNK_POSITIONS positions; `nextCursor` fetches the rest of the same window
 * (null when the window is complete). Columns, one entry per position:
 * - `t`: milliseconds after `startMs` (the chunk's first position, or `from`),
 * - `h`: index into `helmets`,
 * - `lat`, `long`: offsets from `origin` in units of 1e-7 degree (about 1 cm),
 * - `zone`: zone id, 0 outside every zone,
 * - `status`: HISTORY_ONLINE | HISTORY_ACTIVE bits.
 */
export const HistoryChunkSchema = Type.Object({
  floorId: Type.Integer(),
  from: Iso,
  to: Iso,
  startMs: Type.Number(),
  origin: Type.Object({ lat: Type.Number(), long: Type.Number() }),
  helmets: Type.Array(
    Type.Object({
      inventoryItemId: Type.Integer(),
      workerId: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
  t: Ints,
  h: Ints,
  lat: Ints,
  long: Ints,
  zone: Ints,
  status: Ints,
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type HistoryChunk = Static<typeof HistoryChunkSchema>;

/** 1e-7 degree: the unit of a history chunk's lat/long offsets. */
export const HISTORY_COORDINATE_UNIT = 1e-7;
