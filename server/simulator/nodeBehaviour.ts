import { EARTH_RADIUS_M } from '../../src/domain/distance';
import type { NodeMessage } from '../../src/domain/live';
import type { NodeNeighbor } from '../../src/domain/schemas/nodes';
import { localTime } from '../../src/domain/workshiftClock';
import { mountGainDb, type RadioEnd, radioNeighbors } from './radioLinks';
import type { SimNode, SiteModel } from './siteModel';
import { hashBetween, stableNoise, unitHash } from './stableNoise';

/**
 * What the demo's anchors and sinks report, as a pure function of the node, its floor mates, the
 * instant and the site's story (its time zone, when it began, who plays which part). Pure, so the
 * history written at start (nodeHistoryBackfill.ts) and the live simulator draw one continuous
 * story across restarts. On one floor (docs/decisions.md "Maintenance kit: the demo's nodes"):
 * an anchor near the end of its battery, one knocked out of place every morning, one boxed in
 * with only weak links, one silent but for a few minutes every three hours, and a sink whose
 * buffer fills over the morning; every other node drains its cell at its own rate.
 */

/** A node's report: the ingest's message with the radio links it hears. */
export interface NodeReport extends NodeMessage {
  neighbors: NodeNeighbor[];
}

/** Who plays which part (node ids); null where the site has too few nodes for the part. */
export interface NodeCast {
  knockedAnchor: string | null;
  nearEndAnchor: string | null;
  weakLinkAnchor: string | null;
  silentAnchor: string | null;
  fillingSink: string | null;
}

export interface NodeStory {
  /** The site's IANA time zone: the knock, the refill and the silent windows keep local hours. */
  timezone: string;
  /** Battery cycles are counted from this instant (the site's creation, the same on every restart). */
  startMs: number;
  cast: NodeCast;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const MINUTES_PER_DAY = 1440;

/**
 * Anchor cells (3.6 V lithium): each starts the story at its own level and drains at its own
 * rate; the crew swaps a cell for a fresh one at `swappedAt`, before it ever warns. Starting no
 * higher than `startLevel.max`, no cell was swapped in the 3 days before the story's start, the
 * history written at start (a clean trend for the forecast).
 */
const ANCHOR_CELL = {
  freshVolts: 4.1,
  swappedAt: 3.5,
  startLevel: { min: 3.55, max: 4.0 },
  voltsPerDay: { min: 0.005, max: 0.03 },
  noiseVolts: 0.003,
};
/**
 * The anchor near its end: 3.35 V (warning) when the story starts, falling 0.04 V a day, so the
 * cut-off (3.2 V) is ~4 days ahead. Every `cycleDays` its cell is swapped for another tired one.
 */
export const NEAR_END_CELL = { topVolts: 3.55, voltsPerDay: 0.04, cycleDays: 8, dayAtStart: 5 };
/** Sinks run on a 5 V supply. */
const SINK_SUPPLY = { volts: 5, noiseVolts: 0.03 };

/**
 * Local minutes of the day: knocked at 06:40, as the day shift gets going, past the 0.3 m
 * threshold by ~07:05 and fully out of place by 08:10 (1.6 m); put back at 05:00 by the night shift.
 */
export const KNOCKED_ANCHOR = { knockedAt: 6 * 60 + 40, driftMinutes: 90, putBackAt: 5 * 60, metres: 1.6 };
/** A placed anchor's computed position wanders this much (m): surveyed anchors are good to 0.1 m. */
const POSITION_JITTER_M = 0.08;

/** The sink's buffer empties at 05:00 (local) and fills 25 points an hour: 60 % by ~07:15, 85 % by ~08:15. */
export const FILLING_SINK = { emptiedAt: 5 * 60, startPercent: 4, percentPerHour: 25, fullPercent: 97 };

/** Reports only from 01:20 for 10 minutes, and every 3 hours after (local). */
export const SILENT_ANCHOR = { firstAt: 80, everyMinutes: 180, windowMinutes: 10 };

/** The boxed-in anchor's loss (dB): its best link, 23 m away, is heard at quality ~30–46 (weak). */
const WEAK_LINK_LOSS_DB = 10;

/** Parts in order, with the place each prefers on its floor's anchors sorted by id (a 3 × 3 grid in the demo). */
const ANCHOR_PARTS: readonly [keyof NodeCast, number][] = [
  ['knockedAnchor', 1],
  ['nearEndAnchor', 5],
  ['weakLinkAnchor', 6],
  ['silentAnchor', 8],
];

/**
 * The cast, all on the site's first floor (lowest id) with anchors, so one floor's map shows every
 * problem: its top-middle anchor is knocked, the right-middle one is near its end, the bottom-left
 * one has only weak links, the bottom-right one is silent, and its sink's buffer fills.
 */
export function castNodes(nodes: readonly SimNode[]): NodeCast {
  const cast: NodeCast = {
    knockedAnchor: null,
    nearEndAnchor: null,
    weakLinkAnchor: null,
    silentAnchor: null,
    fillingSink: null,
  };
  const floorIds = nodes.flatMap((n) => (n.type === 'anchor' && n.floorId !== null ? [n.floorId] : []));
  if (floorIds.length === 0) return cast;
  const floorId = Math.min(...floorIds);
  const byId = (a: SimNode, b: SimNode) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0);
  const onFloor = nodes.filter((n) => n.floorId === floorId).sort(byId);
  const anchors = onFloor.filter((n) => n.type === 'anchor');
  const taken = new Set<number>();
  for (const [part, preferred] of ANCHOR_PARTS) {
    const index = preferred < anchors.length && !taken.has(preferred) ? preferred : firstFree(anchors, taken);
    if (index === null) break;
    taken.add(index);
    cast[part] = anchors[index].nodeId;
  }
  cast.fillingSink = onFloor.find((n) => n.type === 'sink')?.nodeId ?? null;
  return cast;
}

function firstFree(items: readonly unknown[], taken: ReadonlySet<number>): number | null {
  for (let i = 0; i < items.length; i++) if (!taken.has(i)) return i;
  return null;
}

/** The story of a simulated site, from its model. */
export function nodeStory(model: Pick<SiteModel, 'timezone' | 'createdAtMs' | 'nodes'>): NodeStory {
  return { timezone: model.timezone, startMs: model.createdAtMs, cast: castNodes(model.nodes) };
}

/** Each node's floor mates: the other nodes of its floor and network (none for a node on no floor). */
export function floorMates(nodes: readonly SimNode[]): Map<string, SimNode[]> {
  const groups = new Map<string, SimNode[]>();
  for (const node of nodes) {
    if (node.floorId === null) continue;
    const key = `${node.floorId}:${node.networkId}`;
    const group = groups.get(key) ?? [];
    group.push(node);
    groups.set(key, group);
  }
  const mates = new Map<string, SimNode[]>();
  for (const node of nodes) {
    const group = node.floorId === null ? [] : (groups.get(`${node.floorId}:${node.networkId}`) ?? []);
    mates.set(
      node.nodeId,
      group.filter((other) => other.nodeId !== node.nodeId),
    );
  }
  return mates;
}

/**
 * What `node` reports at `atMs`, or null when it is silent then. `mates` are the other nodes of
 * its floor and network (floorMates): the ones it may hear.
 */
export function nodeReport(
  node: SimNode,
  mates: readonly SimNode[],
  atMs: number,
  story: NodeStory,
): NodeReport | null {
  const { cast } = story;
  const local = localMinuteOfDay(atMs, story.timezone);
  if (node.nodeId === cast.silentAnchor && !inSilentAnchorWindow(local)) return null;
  const minute = Math.floor(atMs / MINUTE_MS);
  const days = (atMs - story.startMs) / DAY_MS;

  const offset = node.type === 'anchor' ? positionOffset(node.nodeId, cast, local, minute) : NO_OFFSET;
  // The silent anchor's radio is failing: nobody hears it, and it hears nobody.
  const neighbors =
    node.nodeId === cast.silentAnchor
      ? []
      : radioNeighbors(
          radioEnd(node, cast),
          mates.filter((m) => m.nodeId !== cast.silentAnchor).map((m) => radioEnd(m, cast)),
          minute,
        );
  const lat = node.lat + toDegrees(offset.north / EARTH_RADIUS_M);
  const long = node.long + toDegrees(offset.east / (EARTH_RADIUS_M * Math.cos(toRadians(node.lat))));
  return {
    networkId: node.networkId,
    nodeId: node.nodeId,
    type: node.type,
    bufferUsage: round(bufferUsage(node, cast, local, minute), 1),
    linkQuality: neighbors.length > 0 ? neighbors[0].linkQuality : 0,
    batteryVoltage: round(batteryVolts(node, cast, days, minute), 3),
    displacementError: round(Math.hypot(offset.east, offset.north), 2),
    ts: new Date(atMs).toISOString(),
    lat,
    long,
    neighbors,
  };
}

/** Whether the silent anchor reports at this local minute of the day. */
export function inSilentAnchorWindow(localMinutes: number): boolean {
  return mod(localMinutes - SILENT_ANCHOR.firstAt, SILENT_ANCHOR.everyMinutes) < SILENT_ANCHOR.windowMinutes;
}

function radioEnd(node: SimNode, cast: NodeCast): RadioEnd {
  return {
    nodeId: node.nodeId,
    lat: node.lat,
    long: node.long,
    gainDb: node.nodeId === cast.weakLinkAnchor ? -WEAK_LINK_LOSS_DB : mountGainDb(node.nodeId),
  };
}

function batteryVolts(node: SimNode, cast: NodeCast, days: number, minute: number): number {
  if (node.type === 'sink')
    return SINK_SUPPLY.volts + stableNoise(SINK_SUPPLY.noiseVolts, node.nodeId, minute);
  const noise = stableNoise(ANCHOR_CELL.noiseVolts, node.nodeId, minute);
  if (node.nodeId === cast.nearEndAnchor) {
    const intoCycle = mod(days + NEAR_END_CELL.dayAtStart, NEAR_END_CELL.cycleDays);
    return NEAR_END_CELL.topVolts - NEAR_END_CELL.voltsPerDay * intoCycle + noise;
  }
  const { freshVolts, swappedAt, startLevel, voltsPerDay } = ANCHOR_CELL;
  const rate = hashBetween(voltsPerDay.min, voltsPerDay.max, node.nodeId, 'drain');
  const start = hashBetween(startLevel.min, startLevel.max, node.nodeId, 'level');
  // Volts used since the last fresh cell; a swap brings it back to 0.
  const used = mod(freshVolts - start + rate * days, freshVolts - swappedAt);
  return freshVolts - used + noise;
}

function bufferUsage(node: SimNode, cast: NodeCast, local: number, minute: number): number {
  const noise = (amplitude: number) => stableNoise(amplitude, node.nodeId, 'buffer', minute);
  if (node.nodeId === cast.fillingSink) {
    const hours = mod(local - FILLING_SINK.emptiedAt, MINUTES_PER_DAY) / 60;
    const percent = Math.min(
      FILLING_SINK.fullPercent,
      FILLING_SINK.startPercent + FILLING_SINK.percentPerHour * hours,
    );
    return clamp(percent + noise(1), 0, 100);
  }
  if (node.type === 'anchor') return clamp(2 + hashBetween(0, 6, node.nodeId, 'buffer') + noise(1.5), 0, 100);
  // Other sinks carry more while the day shift works (06:00–18:00).
  const workload = local >= 360 && local <= 1080 ? Math.sin((Math.PI * (local - 360)) / 720) : 0;
  return clamp(6 + hashBetween(0, 10, node.nodeId, 'buffer') + 14 * workload + noise(2), 0, 100);
}

interface Offset {
  east: number;
  north: number;
}
const NO_OFFSET: Offset = { east: 0, north: 0 };

/** How far (m) the network computes an anchor from its placement: jitter, and the knocked anchor's drift. */
function positionOffset(nodeId: string, cast: NodeCast, local: number, minute: number): Offset {
  const jitter = hashBetween(0.2, 1, nodeId, 'jitter', minute) * POSITION_JITTER_M;
  const jitterBearing = hashBetween(0, 2 * Math.PI, nodeId, 'jitterBearing', minute);
  const drift = nodeId === cast.knockedAnchor ? knockedDisplacement(local) : 0;
  const driftBearing = unitHash(nodeId, 'driftBearing') * 2 * Math.PI;
  return {
    east: drift * Math.sin(driftBearing) + jitter * Math.sin(jitterBearing),
    north: drift * Math.cos(driftBearing) + jitter * Math.cos(jitterBearing),
  };
}

/** Metres the knocked anchor has been pushed at this local minute: 0 from 05:00, drifting from 06:40. */
export function knockedDisplacement(localMinutes: number): number {
  const { knockedAt, driftMinutes, putBackAt, metres } = KNOCKED_ANCHOR;
  const sinceKnocked = mod(localMinutes - knockedAt, MINUTES_PER_DAY);
  if (sinceKnocked >= mod(putBackAt - knockedAt, MINUTES_PER_DAY)) return 0;
  const x = Math.min(1, sinceKnocked / driftMinutes);
  return metres * x * x * (3 - 2 * x);
}

let lastLocal: { atMs: number; timezone: string; minutes: number } | null = null;

/** Minutes since local midnight, with the fraction of the minute (a cache of the last instant: many nodes share it). */
export function localMinuteOfDay(atMs: number, timezone: string): number {
  if (lastLocal && lastLocal.atMs === atMs && lastLocal.timezone === timezone) return lastLocal.minutes;
  const minutes = localTime(new Date(atMs), timezone).minutes + mod(atMs, MINUTE_MS) / MINUTE_MS;
  lastLocal = { atMs, timezone, minutes };
  return minutes;
}

function mod(value: number, divisor: number): number {
  return ((value % divisor) + divisor) % divisor;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
const toDegrees = (radians: number) => (radians * 180) / Math.PI;
