import { BATTERY_VOLTS, type NodeHealthState, type NodeType } from '../../domain/nodeHealth';
import type { NodeInformation } from '../../domain/schemas/nodes';
import type { ReplayedNode } from '../../streams/nodePlaybackWindows';
import type { AnchorGraph, MapLink } from '../canvas/layers/AnchorGraphLayer';
import type { MapNode } from '../canvas/layers/AnchorsLayer';

/**
 * The maintenance map's nodes and links from the server's replies (live node-information) and
 * from replayed frames: one shape for both, so the layers draw a replay exactly as the live map.
 */

/** The battery's band for the node's type, by the health rule's thresholds (below is worse). */
export function batteryBand(type: NodeType, volts: number): NodeHealthState {
  const band = BATTERY_VOLTS[type];
  if (volts < band.bad) return 'bad';
  if (volts < band.warning) return 'warning';
  return 'ok';
}

/** A heard link by the other node's key: what one node's report says. */
export interface HeardLink {
  readonly key: number;
  readonly quality: number;
}

/**
 * The links between `nodes`, each pair once. Radio links are heard from both ends: a pair is
 * drawn as good as its worse direction (a link one end hears badly is a weak link to maintain);
 * a node heard by nobody and hearing nobody on the floor is isolated. Links to nodes not in
 * `nodes` (another floor, not placed) are left out.
 */
export function linksBetween(
  nodes: readonly MapNode[],
  heard: ReadonlyMap<number, readonly HeardLink[]>,
): MapLink[] {
  const index = new Map<number, number>();
  for (let i = 0; i < nodes.length; i++) index.set(nodes[i].key, i);
  const pairs = new Map<number, MapLink>();
  const n = nodes.length;
  for (const [key, links] of heard) {
    const from = index.get(key);
    if (from === undefined) continue;
    for (const link of links) {
      const to = index.get(link.key);
      if (to === undefined || to === from || !Number.isFinite(link.quality)) continue;
      const a = Math.min(from, to);
      const b = Math.max(from, to);
      const pair = a * n + b;
      const known = pairs.get(pair);
      if (!known || link.quality < known.quality) pairs.set(pair, { a, b, quality: link.quality });
    }
  }
  return [...pairs.values()];
}

/** A node of the live map from GET /api/floors/{id}/node-information. */
export function mapNodeOf(node: NodeInformation): MapNode {
  const reading = node.reading;
  return {
    key: node.id,
    nodeId: node.nodeId,
    type: node.type,
    lat: reading?.lat ?? null,
    long: reading?.long ?? null,
    configured: node.configured,
    displacementError: reading?.displacementError ?? null,
    battery: reading ? batteryBand(node.type, reading.batteryVoltage) : null,
    health: node.health.state,
  };
}

/** The live map's nodes and graph from one node-information reply. */
export function liveMapOf(nodes: readonly NodeInformation[]): AnchorGraph {
  const mapped = nodes.map(mapNodeOf);
  const byNodeId = new Map(nodes.map((node) => [node.nodeId, node.id]));
  const heard = new Map<number, HeardLink[]>();
  for (const node of nodes) {
    const links: HeardLink[] = [];
    for (const neighbour of node.reading?.neighbors ?? []) {
      const key = byNodeId.get(neighbour.nodeId);
      if (key !== undefined) links.push({ key, quality: neighbour.linkQuality });
    }
    heard.set(node.id, links);
  }
  return { nodes: mapped, links: linksBetween(mapped, heard) };
}

/** The map at a replayed frame: each node where its latest report put it, with the links it heard. */
export function replayedMapOf(nodes: readonly ReplayedNode[]): AnchorGraph {
  const mapped = nodes.map(
    (node): MapNode => ({
      key: node.key,
      nodeId: node.nodeId,
      type: node.type,
      lat: node.reading?.lat ?? null,
      long: node.reading?.long ?? null,
      configured: node.configured,
      displacementError: node.reading?.displacementError ?? null,
      battery: node.reading ? batteryBand(node.type, node.reading.batteryVoltage) : null,
      health: node.reading?.health ?? null,
    }),
  );
  const heard = new Map<number, readonly HeardLink[]>();
  for (const node of nodes) if (node.reading) heard.set(node.key, node.reading.links);
  return { nodes: mapped, links: linksBetween(mapped, heard) };
}
