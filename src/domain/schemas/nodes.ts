import { type Static, Type } from 'typebox';
import { IdSchema } from './sites';

/**
 * Anchors and sinks (issue "Maintenance kit and nodes"): their reports, health, battery forecast,
 * history and replay. Node ids are the WNT inventory ids the network reports (`ANC-0001`).
 */

const Iso = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const LatLongSchema = Type.Object({ lat: Type.Number(), long: Type.Number() });

export const NodeTypeSchema = Type.Union([Type.Literal('anchor'), Type.Literal('sink')]);
const HealthStateSchema = Type.Union([Type.Literal('ok'), Type.Literal('warning'), Type.Literal('bad')]);

/** A radio link the node hears (DESIGN §5 `neighbors`). */
export const NodeNeighborSchema = Type.Object({
  nodeId: Type.String(),
  /** 0–100. */
  linkQuality: Type.Number(),
  rssi: Type.Optional(Type.Number()),
});
export type NodeNeighbor = Static<typeof NodeNeighborSchema>;

/** src/domain/nodeHealth.ts `NodeHealth`. */
export const NodeHealthSchema = Type.Object({
  state: HealthStateSchema,
  score: Type.Number(),
  problems: Type.Array(
    Type.Object({
      kind: Type.Union([
        Type.Literal('silent'),
        Type.Literal('lowBattery'),
        Type.Literal('weakLink'),
        Type.Literal('bufferFilling'),
        Type.Literal('moved'),
      ]),
      state: Type.Union([Type.Literal('warning'), Type.Literal('bad')]),
      /** Seconds silent (null: never reported), volts, quality, percent or metres. */
      value: Nullable(Type.Number()),
    }),
  ),
});

/** One diagnostics report as stored: the computed position and the measures. */
export const NodeReadingSchema = Type.Object({
  ts: Iso,
  /** The position the network computed for the node. */
  lat: Type.Number(),
  long: Type.Number(),
  /** Percent. */
  bufferUsage: Type.Number(),
  /** 0–100. */
  linkQuality: Type.Number(),
  /** Volts. */
  batteryVoltage: Type.Number(),
  /** Metres between the configured and the computed position (null for a node not placed). */
  displacementError: Nullable(Type.Number()),
  neighbors: Type.Array(NodeNeighborSchema),
});
export type NodeReading = Static<typeof NodeReadingSchema>;

/** A node as it was at a time: its placement, its latest report at or before then, its health then. */
export const NodeInformationSchema = Type.Object({
  /** The inventory item's id. */
  id: IdSchema,
  nodeId: Type.String(),
  networkId: Nullable(Type.Integer()),
  type: NodeTypeSchema,
  floorId: Nullable(Type.Integer()),
  isApproved: Type.Boolean(),
  /** Where it was placed (installation or approval); null when not placed. */
  configured: Nullable(LatLongSchema),
  reading: Nullable(NodeReadingSchema),
  health: NodeHealthSchema,
});
export type NodeInformation = Static<typeof NodeInformationSchema>;

/**
 * When a node's battery reaches its type's cut-off voltage, from the least-squares line of its
 * voltage over the last days. `reachesCutoffAt` is null unless `basis` is `trend`.
 * - `trend`: the line falls and crosses the cut-off at `reachesCutoffAt`;
 * - `belowCutoff`: the latest reading is already at or below the cut-off;
 * - `flat`: the line does not fall measurably (or rises);
 * - `tooShort`: too few readings, or over too short a span, to tell.
 */
export const BatteryForecastSchema = Type.Object({
  basis: Type.Union([
    Type.Literal('trend'),
    Type.Literal('belowCutoff'),
    Type.Literal('flat'),
    Type.Literal('tooShort'),
  ]),
  reachesCutoffAt: Nullable(Iso),
  /** The fitted slope (negative: draining); null when tooShort. */
  voltsPerDay: Nullable(Type.Number()),
  cutoffVolts: Type.Number(),
});
export type BatteryForecast = Static<typeof BatteryForecastSchema>;

/** GET /api/floors/{id}/node-information?timestamp: every node of the floor at that time. */
export const FloorNodeInformationSchema = Type.Object({
  floorId: IdSchema,
  at: Iso,
  nodes: Type.Array(NodeInformationSchema),
});
export type FloorNodeInformation = Static<typeof FloorNodeInformationSchema>;

export const NodeInformationQuerySchema = Type.Object({
  /** ISO-8601 instant; now when left out. */
  timestamp: Type.Optional(Type.String({ maxLength: 40 })),
});

/** A node of the site-wide list (/nodes, /maintenance): now, with where it is and its forecast. */
export const SiteNodeSchema = Type.Object({
  ...NodeInformationSchema.properties,
  buildingId: Nullable(Type.Integer()),
  buildingName: Nullable(Type.String()),
  floorName: Nullable(Type.String()),
  forecast: BatteryForecastSchema,
});
export type SiteNode = Static<typeof SiteNodeSchema>;

/** GET /api/sites/{id}/nodes: every anchor and sink of the site, now. */
export const SiteNodesSchema = Type.Object({
  siteId: IdSchema,
  at: Iso,
  /** The site's anchor-moved threshold the health was judged with. */
  movedThresholdMetres: Type.Number(),
  nodes: Type.Array(SiteNodeSchema),
});
export type SiteNodes = Static<typeof SiteNodesSchema>;

/**
 * One node's history over [from, to) as columns (one entry per point, time ascending). Over a
 * long range the points are averages of `bucketMs`-wide buckets (null: raw reports).
 */
export const NodeHistorySchema = Type.Object({
  nodeId: Type.String(),
  type: NodeTypeSchema,
  from: Iso,
  to: Iso,
  bucketMs: Nullable(Type.Integer()),
  /** Epoch milliseconds. */
  t: Type.Array(Type.Number()),
  batteryVoltage: Type.Array(Type.Number()),
  linkQuality: Type.Array(Type.Number()),
  bufferUsage: Type.Array(Type.Number()),
  displacementError: Type.Array(Nullable(Type.Number())),
  /** The health state over time: consecutive spans, silent gaps included. */
  healthStates: Type.Array(Type.Object({ from: Iso, to: Iso, state: HealthStateSchema })),
  forecast: BatteryForecastSchema,
});
export type NodeHistory = Static<typeof NodeHistorySchema>;

export const NodeHistoryQuerySchema = Type.Object({
  from: Type.String({ maxLength: 40 }),
  to: Type.String({ maxLength: 40 }),
});

export const SiteNodeParamsSchema = Type.Object({ id: IdSchema, nodeId: Type.String({ maxLength: 100 }) });

/** GET /api/installation/{floorId}/assets/list/{type}: `type` is anchor, sink or all. */
export const AssetListParamsSchema = Type.Object({
  floorId: IdSchema,
  type: Type.Union([Type.Literal('anchor'), Type.Literal('sink'), Type.Literal('all')]),
});
export const AssetListSchema = Type.Object({
  floorId: IdSchema,
  type: Type.String(),
  at: Iso,
  nodes: Type.Array(NodeInformationSchema),
});
export type AssetList = Static<typeof AssetListSchema>;

/** GET /api/installation/{floorId}/assets/item/{nodeId}/{type}?timestamp */
export const AssetItemParamsSchema = Type.Object({
  floorId: IdSchema,
  nodeId: Type.String({ maxLength: 100 }),
  type: NodeTypeSchema,
});
export const AssetItemSchema = Type.Object({
  node: NodeInformationSchema,
  /** The node's history around the timestamp (ASSET_ITEM_HISTORY_MS either side). */
  history: NodeHistorySchema,
});
export type AssetItem = Static<typeof AssetItemSchema>;
export const ASSET_ITEM_HISTORY_MS = 6 * 60 * 60_000;

/**
 * GET /api/installation/{floorId}/assets/list/playback/{from}/{to}[?cursor]: the floor's node
 * reports in [from, to) in time order, in chunks of at most NODE_PLAYBACK_CHUNK_READINGS; sample
 * `i` is node `nodes[n[i]]` at `startMs + t[i]`. `neighbors[i]` lists the links that report heard
 * as pairs of indexes into `nodes` and link qualities (links to nodes of other floors left out).
 */
export const NodePlaybackChunkSchema = Type.Object({
  floorId: IdSchema,
  from: Iso,
  to: Iso,
  startMs: Type.Number(),
  nodes: Type.Array(
    Type.Object({
      id: IdSchema,
      nodeId: Type.String(),
      type: NodeTypeSchema,
      configured: Nullable(LatLongSchema),
    }),
  ),
  t: Type.Array(Type.Integer()),
  n: Type.Array(Type.Integer()),
  lat: Type.Array(Type.Number()),
  long: Type.Array(Type.Number()),
  batteryVoltage: Type.Array(Type.Number()),
  linkQuality: Type.Array(Type.Number()),
  bufferUsage: Type.Array(Type.Number()),
  displacementError: Type.Array(Nullable(Type.Number())),
  health: Type.Array(HealthStateSchema),
  neighbors: Type.Array(Type.Array(Type.Tuple([Type.Integer(), Type.Number()]))),
  nextCursor: Nullable(Type.String()),
});
export type NodePlaybackChunk = Static<typeof NodePlaybackChunkSchema>;

/** Texts of the node routes' refusals (`server.nodes.*` in the i18n files). */
export const nodeMessages = {
  timestampInvalid: 'Timestamp must be an ISO 8601 date and time, e.g. 2026-11-26T08:00:00Z',
} as const;
export const NODE_PLAYBACK_CHUNK_READINGS = 20_000;

export const NodePlaybackParamsSchema = Type.Object({
  floorId: IdSchema,
  from: Type.String({ maxLength: 40 }),
  to: Type.String({ maxLength: 40 }),
});
export const NodePlaybackQuerySchema = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});

/** GET and PUT /api/sites/{id}/maintenance-settings. */
export const MaintenanceSettingsSchema = Type.Object({
  /** Metres; an anchor further than this from its place for a minute raises "anchor moved". */
  anchorMovedThresholdMetres: Type.Number({ minimum: 0.05, maximum: 10 }),
});
export type MaintenanceSettings = Static<typeof MaintenanceSettingsSchema>;
