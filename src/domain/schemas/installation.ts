import { type Static, type TSchema, Type } from 'typebox';
import { LIMITS } from '../limits';
import type { RadioModel, WALL_MATERIALS } from '../radio/radioModel';
import { SafeString } from '../text';
import { LongLatSchema } from './floors';
import { InventoryItemSchema } from './inventory';
import { IdSchema, successOf } from './sites';

/**
 * Request and reply schemas of installation planning and anchor approval (issue 19, spec §7
 * "Installation planning", spec §4 anchors): walls, planning anchors, the coverage simulation,
 * suggested placements, measured links, a site's radio settings, and approving installed anchors.
 * Every route is a POST under /api/installation except the two site routes.
 */

function nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** Limits that keep any one request (and any one floor) from eating the CPU or the database. */
export const INSTALLATION_LIMITS = {
  wallPointsMin: 2,
  wallPointsMax: 200,
  wallsPerFloor: 500,
  planningAnchorsPerFloor: 500,
  anchorIdMax: 64,
  /** What-if anchors of one simulation request, on top of the floor's own. */
  extraAnchorsMax: 50,
  cellSizeMinM: 0.25,
  cellSizeMaxM: 10,
  defaultCellSizeM: 1,
  /** Cells of one simulation; a finer cell size on a large floor is refused with a clear message. */
  simulationCellsMax: 250_000,
  /** Anchors × cells of one simulation: each pair is one ray traced through the walls. */
  simulationRaysMax: 10_000_000,
  /** Suggest placement traces every candidate against every cell, each round: a coarser budget. */
  suggestionCellsMax: 10_000,
  suggestCountMin: 1,
  suggestCountMax: 20,
  overrideReasonMax: 500,
} as const;

const LatSchema = Type.Number({ minimum: -90, maximum: 90 });
const LongSchema = Type.Number({ minimum: -180, maximum: 180 });
const LatLongSchema = Type.Object({ lat: LatSchema, long: LongSchema });
const CellSizeSchema = Type.Number({
  minimum: INSTALLATION_LIMITS.cellSizeMinM,
  maximum: INSTALLATION_LIMITS.cellSizeMaxM,
});
const FloorIdBodySchema = Type.Object({ floor_id: IdSchema });
export const InstallationIdBodySchema = Type.Object({ id: IdSchema });

// ---------------------------------------------------------------------------------------- walls

export const WallMaterialSchema = Type.Union([
  Type.Literal('drywall'),
  Type.Literal('brick'),
  Type.Literal('concrete'),
  Type.Literal('glass'),
  Type.Literal('metal'),
]);

// The schema and the radio model's list of materials must not drift apart.
const _materialsAgree: [(typeof WALL_MATERIALS)[number]] extends [Static<typeof WallMaterialSchema>]
  ? [Static<typeof WallMaterialSchema>] extends [(typeof WALL_MATERIALS)[number]]
    ? true
    : never
  : never = true;

const WallPointsSchema = Type.Array(LongLatSchema, {
  minItems: INSTALLATION_LIMITS.wallPointsMin,
  maxItems: INSTALLATION_LIMITS.wallPointsMax,
});

export const WallSchema = Type.Object({
  id: IdSchema,
  floor_id: IdSchema,
  name: Type.String(),
  material: WallMaterialSchema,
  /** The material's attenuation in the site's radio model. */
  attenuation_db: Type.Number(),
  /** The polyline's vertices, [long, lat] (GeoJSON order), open. */
  points: Type.Array(LongLatSchema),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const WallGetAllBodySchema = Type.Object({
  floor_id: IdSchema,
  /** Case-insensitive substring of the wall name. */
  search: Type.Optional(SafeString({ maxLength: LIMITS.nameMax })),
});

export const WallAddBodySchema = Type.Object({
  floor_id: IdSchema,
  name: SafeString({ minLength: 1, maxLength: LIMITS.nameMax }),
  material: WallMaterialSchema,
  points: WallPointsSchema,
});

/** An edit sends what changed: a move sends only `points`. */
export const WallEditBodySchema = Type.Object({
  id: IdSchema,
  name: Type.Optional(SafeString({ minLength: 1, maxLength: LIMITS.nameMax })),
  material: Type.Optional(WallMaterialSchema),
  points: Type.Optional(WallPointsSchema),
});

// ----------------------------------------------------------------------------- planning anchors

export const PlanningAnchorSchema = Type.Object({
  id: IdSchema,
  floor_id: IdSchema,
  /** The anchor's planning name (spec §3 anchor_id), unique on its floor. */
  anchor_id: Type.String(),
  /** Spec §3: "metadata of two numbers giving its coordinates". */
  metadata: Type.Object({ lat: Type.Number(), long: Type.Number() }),
  created_at: Type.String(),
  updated_at: Type.String(),
});

const AnchorIdSchema = SafeString({ minLength: 1, maxLength: INSTALLATION_LIMITS.anchorIdMax });

export const PlanningAnchorGetAllBodySchema = FloorIdBodySchema;

export const PlanningAnchorAddBodySchema = Type.Object({
  floor_id: IdSchema,
  anchor_id: AnchorIdSchema,
  metadata: LatLongSchema,
});

export const PlanningAnchorEditBodySchema = Type.Object({
  id: IdSchema,
  anchor_id: Type.Optional(AnchorIdSchema),
  metadata: Type.Optional(LatLongSchema),
});

// --------------------------------------------------------------------------------- radio settings

/**
 * The radio model (src/domain/radio/radioModel.ts `RadioModel`); ranges are checked by
 * `radioModelProblems`, so a refusal names the field in words rather than a schema keyword.
 */
export const RadioModelSchema = Type.Object({
  frequencyMHz: Type.Number(),
  distancePowerLossCoefficient: Type.Number(),
  txPowerDbm: Type.Number(),
  rxSensitivityDbm: Type.Number(),
  maxDop: Type.Number(),
  wallAttenuationDb: Type.Object({
    drywall: Type.Number(),
    brick: Type.Number(),
    concrete: Type.Number(),
    glass: Type.Number(),
    metal: Type.Number(),
  }),
});

const _modelAgrees: [Static<typeof RadioModelSchema>] extends [RadioModel]
  ? [RadioModel] extends [Static<typeof RadioModelSchema>]
    ? true
    : never
  : never = true;

/** The evidence an anchor approval checks (src/domain/anchorApproval.ts). */
export const ApprovalSettingsSchema = Type.Object({
  /** Metres the installed (computed) position may be from its planning anchor. */
  tolerance_m: Type.Number(),
  /** The live link quality (0–100) an approved anchor must reach. */
  min_link_quality: Type.Number(),
});

export const RadioSettingsSchema = Type.Object({
  model: RadioModelSchema,
  approval: ApprovalSettingsSchema,
});

/** A site's settings as a whole; a part left out keeps its stored (or default) value. */
export const RadioSettingsBodySchema = Type.Object({
  model: Type.Optional(RadioModelSchema),
  approval: Type.Optional(ApprovalSettingsSchema),
});

// --------------------------------------------------------------------------------------- coverage

export const SimulateBodySchema = Type.Object({
  floor_id: IdSchema,
  /** Default INSTALLATION_LIMITS.defaultCellSizeM. */
  cell_size_m: Type.Optional(CellSizeSchema),
  /** What-if anchors, not saved. */
  extra_anchors: Type.Optional(Type.Array(LatLongSchema, { maxItems: INSTALLATION_LIMITS.extraAnchorsMax })),
});

export const SimulationAnchorKindSchema = Type.Union([
  Type.Literal('planned'),
  Type.Literal('installed'),
  Type.Literal('extra'),
]);

export const SimulationAnchorSchema = Type.Object({
  /** `planned:<id>`, `installed:<inventory id>` or `extra:<index>`. */
  key: Type.String(),
  kind: SimulationAnchorKindSchema,
  lat: Type.Number(),
  long: Type.Number(),
});

/**
 * The grid in floor metres: x along corner a→b, y along a→d, cell (c, r) at row-major index
 * r * columns + c, cell (0, 0) at corner a. `best_rssi_dbm` and `dop` are null where nothing is
 * heard (or fewer than 3 anchors for DOP).
 */
export const SimulationSchema = Type.Object({
  columns: Type.Integer(),
  rows: Type.Integer(),
  cell_size_m: Type.Number(),
  width_m: Type.Number(),
  height_m: Type.Number(),
  heard: Type.Array(Type.Integer()),
  best_rssi_dbm: Type.Array(nullable(Type.Number())),
  dop: Type.Array(nullable(Type.Number())),
  positioned: Type.Array(Type.Union([Type.Literal(0), Type.Literal(1)])),
  /** Share of cells where 2-D positioning works, 0..100. */
  covered_percent: Type.Number(),
  anchors: Type.Array(SimulationAnchorSchema),
});

export const SuggestBodySchema = Type.Object({
  floor_id: IdSchema,
  count: Type.Integer({
    minimum: INSTALLATION_LIMITS.suggestCountMin,
    maximum: INSTALLATION_LIMITS.suggestCountMax,
  }),
  cell_size_m: Type.Optional(CellSizeSchema),
});

/** Best first; each one's covered_percent_after assumes the earlier ones were accepted. */
export const SuggestionSchema = Type.Object({
  lat: Type.Number(),
  long: Type.Number(),
  covered_percent_after: Type.Number(),
});

export const MeasuredBodySchema = FloorIdBodySchema;

/** One neighbour link a node reported in its latest diagnostics, against the prediction. */
export const MeasuredLinkSchema = Type.Object({
  from_node_id: IdSchema,
  to_node_id: IdSchema,
  distance_m: Type.Number(),
  measured_rssi_dbm: nullable(Type.Number()),
  measured_link_quality: nullable(Type.Number()),
  predicted_rssi_dbm: Type.Number(),
  /** measured − predicted; null when nothing was measured. */
  difference_db: nullable(Type.Number()),
  walls_crossed: Type.Integer(),
});

// -------------------------------------------------------------------------------- anchor approval

export const UnapprovedQuerySchema = Type.Object({ floor_id: Type.Optional(IdSchema) });

export const UnapprovedAnchorSchema = Type.Object({
  inventory_id: IdSchema,
  wnt_inventory_id: Type.String(),
  network_id: nullable(IdSchema),
  floor_id: nullable(IdSchema),
  /** The position the network computed for it (latest diagnostics). */
  computed: nullable(LatLongSchema),
  link_quality: nullable(Type.Number()),
  last_seen: nullable(Type.String()),
  /** The nearest planning anchor on its floor, and how far the computed position is from it. */
  planning_anchor: nullable(
    Type.Object({
      id: IdSchema,
      anchor_id: Type.String(),
      lat: Type.Number(),
      long: Type.Number(),
      distance_m: nullable(Type.Number()),
    }),
  ),
});

export const OverrideReasonSchema = SafeString({
  maxLength: INSTALLATION_LIMITS.overrideReasonMax,
  multiline: true,
});

export const ApproveAnchorBodySchema = Type.Object({
  inventory_id: IdSchema,
  floor_id: IdSchema,
  /** Where it was placed on the canvas; else the planning anchor's coordinates are taken. */
  lat: Type.Optional(LatSchema),
  long: Type.Optional(LongSchema),
  planning_anchor_id: Type.Optional(IdSchema),
  /** Required when an evidence check fails; recorded with the approval. */
  override_reason: Type.Optional(OverrideReasonSchema),
});

export const UnapproveAnchorBodySchema = Type.Object({ inventory_id: IdSchema });

export const installationMessages = {
  wallUpdated: 'Wall is updated successfully',
  planningAnchorUpdated: 'Planning anchor is updated successfully',
  wallTooFewPoints: 'A wall needs at least 2 points',
  wallTooManyPoints: `A wall has at most ${INSTALLATION_LIMITS.wallPointsMax} points`,
  wallZeroLengthSegment: 'Two consecutive points of a wall must not be the same point',
  wallOutside: 'Every point of a wall must be inside the floor',
  anchorOutsideFloor: 'The anchor must be placed inside the floor',
  tooManyWalls: `A floor holds at most ${INSTALLATION_LIMITS.wallsPerFloor} walls`,
  tooManyPlanningAnchors: `A floor holds at most ${INSTALLATION_LIMITS.planningAnchorsPerFloor} planning anchors`,
  tooManyCells: `The cell size is too small for this floor: a simulation holds at most ${INSTALLATION_LIMITS.simulationCellsMax.toLocaleString('en')} cells`,
  tooMuchWork: `The simulation is too large: anchors times cells may be at most ${INSTALLATION_LIMITS.simulationRaysMax.toLocaleString('en')}; choose a larger cell size`,
  tooManySuggestionCells: `The cell size is too small to suggest placements on this floor: at most ${INSTALLATION_LIMITS.suggestionCellsMax.toLocaleString('en')} cells`,
  coordinatesRequired: 'Coordinates are required',
  latLongTogether: 'Latitude and longitude go together',
  anchorApproved: 'Anchor is approved',
  anchorUnapproved: 'Anchor is unapproved',
  radioSettingsSaved: 'Radio settings saved',
} as const;

export const WallReply = successOf(WallSchema);
export const WallListReply = successOf(Type.Array(WallSchema));
export const PlanningAnchorReply = successOf(PlanningAnchorSchema);
export const PlanningAnchorListReply = successOf(Type.Array(PlanningAnchorSchema));
export const DeletedIdReply = successOf(InstallationIdBodySchema);
export const SimulationReply = successOf(SimulationSchema);
export const SuggestionListReply = successOf(Type.Array(SuggestionSchema));
export const MeasuredLinkListReply = successOf(Type.Array(MeasuredLinkSchema));
export const RadioSettingsReply = successOf(RadioSettingsSchema);
export const UnapprovedAnchorListReply = successOf(Type.Array(UnapprovedAnchorSchema));
export const ApprovedItemReply = successOf(InventoryItemSchema);

export type WallMaterialName = Static<typeof WallMaterialSchema>;
export type Wall = Static<typeof WallSchema>;
export type WallGetAllBody = Static<typeof WallGetAllBodySchema>;
export type WallAddBody = Static<typeof WallAddBodySchema>;
export type WallEditBody = Static<typeof WallEditBodySchema>;
export type InstallationIdBody = Static<typeof InstallationIdBodySchema>;
export type PlanningAnchor = Static<typeof PlanningAnchorSchema>;
export type PlanningAnchorGetAllBody = Static<typeof PlanningAnchorGetAllBodySchema>;
export type PlanningAnchorAddBody = Static<typeof PlanningAnchorAddBodySchema>;
export type PlanningAnchorEditBody = Static<typeof PlanningAnchorEditBodySchema>;
export type RadioModelBody = Static<typeof RadioModelSchema>;
export type ApprovalSettings = Static<typeof ApprovalSettingsSchema>;
export type RadioSettings = Static<typeof RadioSettingsSchema>;
export type RadioSettingsBody = Static<typeof RadioSettingsBodySchema>;
export type SimulateBody = Static<typeof SimulateBodySchema>;
export type SimulationAnchorKind = Static<typeof SimulationAnchorKindSchema>;
export type SimulationAnchor = Static<typeof SimulationAnchorSchema>;
export type Simulation = Static<typeof SimulationSchema>;
export type SuggestBody = Static<typeof SuggestBodySchema>;
export type Suggestion = Static<typeof SuggestionSchema>;
export type MeasuredBody = Static<typeof MeasuredBodySchema>;
export type MeasuredLink = Static<typeof MeasuredLinkSchema>;
export type UnapprovedQuery = Static<typeof UnapprovedQuerySchema>;
export type UnapprovedAnchor = Static<typeof UnapprovedAnchorSchema>;
export type ApproveAnchorBody = Static<typeof ApproveAnchorBodySchema>;
export type UnapproveAnchorBody = Static<typeof UnapproveAnchorBodySchema>;
