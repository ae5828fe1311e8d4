import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { LatLong } from '../../src/domain/floor';
import {
  type CoverageGrid,
  coverageGridSize,
  predictLinkRssi,
  type SimAnchor,
  type SimWall,
  simulateCoverage,
  suggestPlacements,
  wallLossDb,
} from '../../src/domain/radio/coverage';
import { type FloorMetres, floorMetres } from '../../src/domain/radio/floorMetres';
import { type RadioModel, WALL_MATERIALS, type WallMaterial } from '../../src/domain/radio/radioModel';
import {
  INSTALLATION_LIMITS,
  installationMessages,
  MeasuredBodySchema,
  type MeasuredLink,
  MeasuredLinkListReply,
  SimulateBodySchema,
  type Simulation,
  type SimulationAnchor,
  SimulationReply,
  SuggestBodySchema,
  SuggestionListReply,
} from '../../src/domain/schemas/installation';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import type { Db } from '../db/database';
import { inventoryItems, planningAnchors } from '../db/schema';
import { requireFloor } from '../floors/floorAccess';
import { ok } from '../http/envelope';
import { unprocessable } from '../http/errors';
import { nodesAt } from '../nodes/nodeQueries';
import { hasReading, nodeReadingOf } from '../nodes/nodeReadings';
import type { Services } from '../services';
import { fulfilledPlanningAnchors } from './anchorApprovalService';
import { cornersOf, type FloorRow } from './installationAccess';
import { loadRadioSettings } from './radioSettingsStore';
import { wallsOfFloor } from './wallRoutes';

const round = (value: number, places: number) => Number(value.toFixed(places));

/** What every simulation of a floor starts from: its frame, walls in metres, and the site's model. */
interface FloorPlan {
  frame: FloorMetres;
  walls: SimWall[];
  model: RadioModel;
}

async function floorPlanOf(db: Db, floor: FloorRow): Promise<FloorPlan> {
  const frame = floorMetres(cornersOf(floor));
  const settings = await loadRadioSettings(db, floor.siteId);
  const rows = await wallsOfFloor(db, floor.id);
  const walls = rows.map((row) => ({
    material: row.material as WallMaterial,
    points: row.points.map(([long, lat]) => frame.toMetres({ lat, long })),
  }));
  return { frame, walls, model: settings.model };
}

/** Planned anchors (those an approved anchor fulfils left out: it stands there) and installed ones. */
async function floorAnchors(db: Db, floorId: number): Promise<SimulationAnchor[]> {
  const fulfilled = await fulfilledPlanningAnchors(db, floorId);
  const planned = await db
    .select()
    .from(planningAnchors)
    .where(eq(planningAnchors.floorId, floorId))
    .orderBy(planningAnchors.id);
  const installed = await db
    .select({ id: inventoryItems.id, lat: inventoryItems.lat, long: inventoryItems.long })
    .from(inventoryItems)
    .where(
      and(
        eq(inventoryItems.floorId, floorId),
        eq(inventoryItems.type, 'anchor'),
        eq(inventoryItems.isApproved, true),
        isNotNull(inventoryItems.lat),
        isNotNull(inventoryItems.long),
      ),
    )
    .orderBy(inventoryItems.id);
  return [
    ...planned
      .filter((anchor) => !fulfilled.has(anchor.id))
      .map((anchor) => ({
        key: `planned:${anchor.id}`,
        kind: 'planned' as const,
        lat: anchor.lat,
        long: anchor.long,
      })),
    ...installed.map((item) => ({
      key: `installed:${item.id}`,
      kind: 'installed' as const,
      lat: item.lat as number,
      long: item.long as number,
    })),
  ];
}

function gridSize(frame: FloorMetres, cellSizeM: number) {
  try {
    return coverageGridSize(frame.widthM, frame.heightM, cellSizeM);
  } catch {
    return null;
  }
}

/** The columns × rows of the grid, or 422 when there would be more cells than `max`. */
function checkedGrid(frame: FloorMetres, cellSizeM: number, max: number, message: string) {
  const size = gridSize(frame, cellSizeM);
  if (!size || size.columns * size.rows > max) throw unprocessable({ cell_size_m: message });
  return size;
}

/** The smallest cell size (a multiple of 0.25 m, at least 1 m) that keeps the grid within `max` cells. */
function cellSizeWithin(frame: FloorMetres, max: number): number {
  const ideal = Math.sqrt((frame.widthM * frame.heightM) / max);
  let size = Math.max(INSTALLATION_LIMITS.defaultCellSizeM, Math.ceil(ideal * 4) / 4);
  for (;;) {
    const grid = gridSize(frame, size);
    if ((grid && grid.columns * grid.rows <= max) || size >= INSTALLATION_LIMITS.cellSizeMaxM)
      return Math.min(size, INSTALLATION_LIMITS.cellSizeMaxM);
    size += 0.25;
  }
}

function toSimulation(grid: CoverageGrid, frame: FloorMetres, anchors: SimulationAnchor[]): Simulation {
  const cells = grid.columns * grid.rows;
  const best: (number | null)[] = new Array(cells);
  const dop: (number | null)[] = new Array(cells);
  const positioned: (0 | 1)[] = new Array(cells);
  for (let i = 0; i < cells; i++) {
    const rssi = grid.bestRssiDbm[i];
    best[i] = Number.isFinite(rssi) ? round(rssi, 1) : null;
    const value = grid.dop[i];
    dop[i] = Number.isFinite(value) ? round(value, 2) : null;
    positioned[i] = grid.positioned[i] ? 1 : 0;
  }
  return {
    columns: grid.columns,
    rows: grid.rows,
    cell_size_m: grid.cellSizeM,
    width_m: round(frame.widthM, 3),
    height_m: round(frame.heightM, 3),
    heard: Array.from(grid.heard),
    best_rssi_dbm: best,
    dop,
    positioned,
    covered_percent: round(grid.coveredPercent, 2),
    anchors,
  };
}

const toSim =
  (frame: FloorMetres) =>
  (anchor: SimulationAnchor): SimAnchor => ({
    key: anchor.key,
    ...frame.toMetres({ lat: anchor.lat, long: anchor.long }),
  });

/** A model whose every wall costs 1 dB: its wall loss is the number of wall segments crossed. */
function crossingCounter(model: RadioModel): RadioModel {
  return {
    ...model,
    wallAttenuationDb: Object.fromEntries(WALL_MATERIALS.map((m) => [m, 1])) as Record<WallMaterial, number>,
  };
}

/**
 * Coverage of installation planning (issue 19): the simulated coverage of a floor's planned and
 * installed anchors (with what-if ones), suggested places for more, and the links the nodes
 * measured against what the model predicts for them.
 */
export const coverageRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.post(
    '/installation/anchor/simulate',
    {
      preValidation: allow('installation', 'open'),
      schema: { body: SimulateBodySchema, response: { 200: SimulationReply } },
    },
    async (request) => {
      const body = request.body;
      const floor = await requireFloor(db, principalOf(request), body.floor_id);
      const plan = await floorPlanOf(db, floor);
      const cellSizeM = body.cell_size_m ?? INSTALLATION_LIMITS.defaultCellSizeM;
      const { columns, rows } = checkedGrid(
        plan.frame,
        cellSizeM,
        INSTALLATION_LIMITS.simulationCellsMax,
        installationMessages.tooManyCells,
      );
      const anchors = [
        ...(await floorAnchors(db, floor.id)),
        ...(body.extra_anchors ?? []).map((at, index) => ({
          key: `extra:${index}`,
          kind: 'extra' as const,
          lat: at.lat,
          long: at.long,
        })),
      ];
      if (anchors.length * columns * rows > INSTALLATION_LIMITS.simulationRaysMax)
        throw unprocessable({ cell_size_m: installationMessages.tooMuchWork });
      const grid = simulateCoverage({
        widthM: plan.frame.widthM,
        heightM: plan.frame.heightM,
        cellSizeM,
        anchors: anchors.map(toSim(plan.frame)),
        walls: plan.walls,
        model: plan.model,
      });
      return ok(toSimulation(grid, plan.frame, anchors));
    },
  );

  app.post(
    '/installation/anchor/suggest',
    {
      preValidation: allow('installation', 'open'),
      schema: { body: SuggestBodySchema, response: { 200: SuggestionListReply } },
    },
    async (request) => {
      const body = request.body;
      const floor = await requireFloor(db, principalOf(request), body.floor_id);
      const plan = await floorPlanOf(db, floor);
      const max = INSTALLATION_LIMITS.suggestionCellsMax;
      const cellSizeM = body.cell_size_m ?? cellSizeWithin(plan.frame, max);
      checkedGrid(plan.frame, cellSizeM, max, installationMessages.tooManySuggestionCells);
      const anchors = await floorAnchors(db, floor.id);
      const suggestions = suggestPlacements({
        widthM: plan.frame.widthM,
        heightM: plan.frame.heightM,
        cellSizeM,
        anchors: anchors.map(toSim(plan.frame)),
        walls: plan.walls,
        model: plan.model,
        count: body.count,
      });
      return ok(
        suggestions.map((suggestion) => {
          const at = plan.frame.toGeo(suggestion);
          return {
            lat: round(at.lat, 8),
            long: round(at.long, 8),
            covered_percent_after: round(suggestion.coveredPercentAfter, 2),
          };
        }),
      );
    },
  );

  app.post(
    '/installation/node/measured',
    {
      preValidation: allow('installation', 'open'),
      schema: { body: MeasuredBodySchema, response: { 200: MeasuredLinkListReply } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.body.floor_id);
      const plan = await floorPlanOf(db, floor);
      const nodes = await nodesAt(db, { siteId: floor.siteId, floorId: floor.id }, Date.now());
      // Where each node of the floor is: where it was placed, else where the network computed it.
      const where = new Map<string, { id: number; at: LatLong }>();
      for (const node of nodes) {
        const placed =
          node.placed_lat !== null && node.placed_long !== null
            ? { lat: Number(node.placed_lat), long: Number(node.placed_long) }
            : node.lat !== null && node.long !== null
              ? { lat: Number(node.lat), long: Number(node.long) }
              : null;
        if (placed) where.set(node.node_id, { id: Number(node.id), at: placed });
      }
      const counter = crossingCounter(plan.model);
      const links: MeasuredLink[] = [];
      for (const node of nodes) {
        const from = where.get(node.node_id);
        if (!from || !hasReading(node)) continue;
        for (const neighbour of nodeReadingOf(node).neighbors) {
          const to = where.get(neighbour.nodeId);
          if (!to || to.id === from.id) continue;
          const a = plan.frame.toMetres(from.at);
          const b = plan.frame.toMetres(to.at);
          const predicted = predictLinkRssi(a, b, plan.walls, plan.model);
          const measured = neighbour.rssi ?? null;
          links.push({
            from_node_id: from.id,
            to_node_id: to.id,
            distance_m: round(Math.hypot(b.x - a.x, b.y - a.y), 2),
            measured_rssi_dbm: measured,
            measured_link_quality: neighbour.linkQuality,
            predicted_rssi_dbm: round(predicted, 1),
            difference_db: measured === null ? null : round(measured - predicted, 1),
            walls_crossed: Math.round(wallLossDb(a, b, plan.walls, counter)),
          });
        }
      }
      links.sort((x, y) => x.from_node_id - y.from_node_id || x.to_node_id - y.to_node_id);
      return ok(links);
    },
  );
};
