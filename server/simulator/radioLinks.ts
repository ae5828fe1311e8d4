import { greatCircleDistance } from '../../src/domain/distance';
import type { LatLong } from '../../src/domain/floor';
import type { NodeNeighbor } from '../../src/domain/schemas/nodes';
import { stableNoise } from './stableNoise';

/**
 * The simulated radio between anchors and sinks: log-distance path loss, so a link weakens with
 * the metres between its ends, rssi ≈ −40 − 10·n·log10(d). On the demo's 80 × 50 m floors
 * (anchors 23 m apart vertically, 37 m across) a neighbour at 23 m is heard at quality ~70, one
 * at 37 m at ~52, one at 46 m at ~44, and links past ~70 m fade in and out at the edge of range.
 */

/** Received power at 1 m (dBm) and the path-loss exponent of a building under construction. */
const RSSI_AT_1M_DBM = -40;
const PATH_LOSS_EXPONENT = 2.7;
/** The weakest signal a node still hears (dBm): weaker links are not neighbours. */
const SENSITIVITY_DBM = -90;
/** Link quality runs linearly from 0 at the first to 100 at the second (dBm). */
const QUALITY_SCALE_DBM = { zero: -98, full: -68 };
/** Each node's antenna and mounting, fixed per node (dB either way). */
const MOUNT_SPREAD_DB = 1;
/** Fading of one link, drawn anew each minute (dB either way). */
const FADE_DB = 1.5;
/** Two nodes closer than this are as loud as this far apart (no 0 m logarithm). */
const MIN_DISTANCE_M = 1;

export interface RadioEnd extends LatLong {
  nodeId: string;
  /** Gain (positive) or loss (negative) of the node's antenna and mounting, in dB: mountGainDb. */
  gainDb: number;
}

/** An ordinary node's antenna and mounting: a little better or worse than the next, the same every day. */
export function mountGainDb(nodeId: string): number {
  return stableNoise(MOUNT_SPREAD_DB, nodeId, 'mount');
}

/** The link between two nodes in one minute, the same heard from either end; null out of range. */
export function radioLink(a: RadioEnd, b: RadioEnd, minute: number): Omit<NodeNeighbor, 'nodeId'> | null {
  const metres = Math.max(MIN_DISTANCE_M, greatCircleDistance(a, b));
  const [first, second] = a.nodeId < b.nodeId ? [a.nodeId, b.nodeId] : [b.nodeId, a.nodeId];
  const rssi =
    RSSI_AT_1M_DBM -
    10 * PATH_LOSS_EXPONENT * Math.log10(metres) +
    a.gainDb +
    b.gainDb +
    stableNoise(FADE_DB, first, second, minute);
  if (rssi < SENSITIVITY_DBM) return null;
  const quality = ((rssi - QUALITY_SCALE_DBM.zero) / (QUALITY_SCALE_DBM.full - QUALITY_SCALE_DBM.zero)) * 100;
  return { linkQuality: Math.round(Math.min(100, Math.max(0, quality))), rssi: Math.round(rssi) };
}

/** The nodes `node` hears among `others` in one minute, best link first. */
export function radioNeighbors(node: RadioEnd, others: readonly RadioEnd[], minute: number): NodeNeighbor[] {
  const neighbors: NodeNeighbor[] = [];
  for (const other of others) {
    if (other.nodeId === node.nodeId) continue;
    const link = radioLink(node, other, minute);
    if (link) neighbors.push({ nodeId: other.nodeId, linkQuality: link.linkQuality, rssi: link.rssi });
  }
  return neighbors.sort((x, y) => y.linkQuality - x.linkQuality || (x.nodeId < y.nodeId ? -1 : 1));
}
