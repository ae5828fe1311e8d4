import type { NodeHealthState, NodeType } from '../domain/nodeHealth';
import type { NodePlaybackChunk } from '../domain/schemas/nodes';
import type { EntitySample, SampleWindow } from './playbackWindows';

/**
 * A floor's node reports as the history player's windows (src/streams/playback.stream.ts): the
 * playback route's chunks of one window decoded into columns, and the nodes as they were at a
 * playhead read back from a frame. The player knows nothing of nodes; entity ids are the nodes'
 * inventory item ids, the same across windows.
 */

/** A node as every chunk lists it: its id, its WNT id, its type and where it was placed. */
export interface ReplayNode {
  readonly key: number;
  readonly nodeId: string;
  readonly type: NodeType;
  readonly configured: { readonly lat: number; readonly long: number } | null;
}

const HEALTH_STATES: readonly NodeHealthState[] = ['ok', 'warning', 'bad'];
const HEALTH_CODE: Record<NodeHealthState, number> = { ok: 0, warning: 1, bad: 2 };

/**
 * The window's reports as columns, sample `i` of the window's `times`/`entities`; `displacement`
 * is NaN for none; the links report `i` heard are `linkKey`/`linkQuality` in
 * [linkStart[i], linkStart[i + 1]).
 */
export interface NodePayload {
  /** Every node the window's chunks listed (the floor's, and any reporting on it since moved). */
  readonly nodes: ReadonlyMap<number, ReplayNode>;
  readonly lat: Float64Array;
  readonly long: Float64Array;
  readonly batteryVoltage: Float64Array;
  readonly linkQuality: Float64Array;
  readonly bufferUsage: Float64Array;
  readonly displacement: Float64Array;
  readonly health: Uint8Array;
  readonly linkStart: Uint32Array;
  readonly linkKey: Uint32Array;
  readonly linkQualityOf: Float64Array;
}

export type NodeWindow = SampleWindow<NodePayload>;

/** One window from its chunks (in cursor order, so times ascend across them). */
export function nodeSampleWindow(
  chunks: readonly NodePlaybackChunk[],
  fromMs: number,
  toMs: number,
): NodeWindow {
  let count = 0;
  let links = 0;
  for (const chunk of chunks) {
    count += chunk.t.length;
    for (const heard of chunk.neighbors) links += heard.length;
  }
  const nodes = new Map<number, ReplayNode>();
  const times = new Float64Array(count);
  const entities = new Uint32Array(count);
  const payload = {
    nodes,
    lat: new Float64Array(count),
    long: new Float64Array(count),
    batteryVoltage: new Float64Array(count),
    linkQuality: new Float64Array(count),
    bufferUsage: new Float64Array(count),
    displacement: new Float64Array(count),
    health: new Uint8Array(count),
    linkStart: new Uint32Array(count + 1),
    linkKey: new Uint32Array(links),
    linkQualityOf: new Float64Array(links),
  };
  let i = 0;
  let l = 0;
  for (const chunk of chunks) {
    const keys = chunk.nodes.map((node) => node.id);
    for (const node of chunk.nodes) {
      if (nodes.has(node.id)) continue;
      nodes.set(node.id, { key: node.id, nodeId: node.nodeId, type: node.type, configured: node.configured });
    }
    for (let k = 0; k < chunk.t.length; k++, i++) {
      times[i] = chunk.startMs + chunk.t[k];
      entities[i] = keys[chunk.n[k]];
      payload.lat[i] = chunk.lat[k];
      payload.long[i] = chunk.long[k];
      payload.batteryVoltage[i] = chunk.batteryVoltage[k];
      payload.linkQuality[i] = chunk.linkQuality[k];
      payload.bufferUsage[i] = chunk.bufferUsage[k];
      payload.displacement[i] = chunk.displacementError[k] ?? Number.NaN;
      payload.health[i] = HEALTH_CODE[chunk.health[k]];
      payload.linkStart[i] = l;
      for (const [index, quality] of chunk.neighbors[k]) {
        payload.linkKey[l] = keys[index];
        payload.linkQualityOf[l] = quality;
        l++;
      }
    }
  }
  payload.linkStart[count] = l;
  return { fromMs, toMs, times, entities, payload };
}

/** What one replayed report says: the node's place, measures, health then and the links it heard. */
export interface ReplayedReading {
  readonly tsMs: number;
  readonly lat: number;
  readonly long: number;
  readonly batteryVoltage: number;
  readonly linkQuality: number;
  readonly bufferUsage: number;
  readonly displacementError: number | null;
  readonly health: NodeHealthState;
  readonly links: readonly { readonly key: number; readonly quality: number }[];
}

export interface ReplayedNode extends ReplayNode {
  /** Its latest report at or before the playhead (within the player's staleMs); null: none. */
  readonly reading: ReplayedReading | null;
}

export function replayedReading(sample: EntitySample<NodePayload>): ReplayedReading {
  const p = sample.window.payload;
  const i = sample.index;
  const links: { key: number; quality: number }[] = [];
  for (let l = p.linkStart[i]; l < p.linkStart[i + 1]; l++)
    links.push({ key: p.linkKey[l], quality: p.linkQualityOf[l] });
  const displacement = p.displacement[i];
  return {
    tsMs: sample.timeMs,
    lat: p.lat[i],
    long: p.long[i],
    batteryVoltage: p.batteryVoltage[i],
    linkQuality: p.linkQuality[i],
    bufferUsage: p.bufferUsage[i],
    displacementError: Number.isNaN(displacement) ? null : displacement,
    health: HEALTH_STATES[p.health[i]],
    links,
  };
}

/**
 * The nodes at a frame's playhead: every node its windows list, in key order, each with its
 * latest report (the frame's `entities`), or none when it had not reported within the player's
 * staleMs (silent then, or the replay has just begun).
 */
export function replayedNodes(
  entities: ReadonlyMap<number, EntitySample<NodePayload>>,
  windows: readonly NodeWindow[],
): ReplayedNode[] {
  const known = new Map<number, ReplayNode>();
  for (const window of windows) for (const [key, node] of window.payload.nodes) known.set(key, node);
  for (const sample of entities.values()) {
    for (const [key, node] of sample.window.payload.nodes) if (!known.has(key)) known.set(key, node);
  }
  return [...known.values()]
    .sort((a, b) => a.key - b.key)
    .map((node) => {
      const sample = entities.get(node.key);
      return { ...node, reading: sample ? replayedReading(sample) : null };
    });
}
