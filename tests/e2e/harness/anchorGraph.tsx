// A floor canvas with the maintenance map's two layers and nothing else, for
// bench/anchorGraph.bench.ts: a bare engine (as canvasProbeLayers.ts mounts one) over the
// harness floor, fed a generated anchor network, driven through `window.anchorGraphHarness`.
import { BehaviorSubject } from 'rxjs';
import type { Floor } from '../../../src/domain/floor';
import { floorTransform, imagePoint } from '../../../src/domain/geo';
import type { NodeHealthState } from '../../../src/domain/nodeHealth';
import { FloorCanvasEngine } from '../../../src/views/canvas/FloorCanvasEngine';
import {
  ANCHOR_GRAPH,
  type AnchorGraph,
  anchorGraphLayer,
  type MapLink,
} from '../../../src/views/canvas/layers/AnchorGraphLayer';
import {
  anchorsLayer,
  MAP_NODES,
  type MapNode,
  type MapNodes,
} from '../../../src/views/canvas/layers/AnchorsLayer';
import { FLOOR_LAYERS, withLayer } from '../../../src/views/canvas/layers/registry';
import { CORNERS, IMAGE } from './fixture';

const floor: Floor = {
  id: 1,
  building_id: 1,
  name: 'Level 1',
  altitude: 0,
  category: 'floor',
  media_url: null,
  image_properties: IMAGE,
  coordinates: CORNERS,
  cellSizeMetres: 1,
  online_active_worker_count: 0,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

const STATES: NodeHealthState[] = ['ok', 'ok', 'ok', 'warning', 'bad'];

/**
 * `count` nodes on a jittered grid over the floor (every 25th a sink, every 40th moved a few
 * metres from its place) and `linkCount` links, each node to its nearest grid neighbours and then
 * farther ones, qualities spread over the three bands. Deterministic, so runs compare.
 */
function network(count: number, linkCount: number, shift = 0): AnchorGraph {
  const transform = floorTransform(CORNERS, IMAGE);
  const columns = Math.ceil(Math.sqrt((count * IMAGE.width) / IMAGE.height));
  const w = IMAGE.width / columns;
  const h = IMAGE.height / Math.ceil(count / columns);
  const nodes: MapNode[] = [];
  for (let i = 0; i < count; i++) {
    const x = ((i % columns) + 0.5 + 0.25 * Math.sin(i)) * w;
    const y = (Math.floor(i / columns) + 0.5 + 0.25 * Math.cos(i)) * h;
    const placed = transform.toGeo(imagePoint(x, y));
    const moved = i % 40 === 7;
    const at = moved ? transform.toGeo(imagePoint(x + 18 + shift, y - 12)) : placed;
    nodes.push({
      key: i + 1,
      nodeId: `${i % 25 === 0 ? 'SNK' : 'ANC'}-${String(i + 1).padStart(4, '0')}`,
      type: i % 25 === 0 ? 'sink' : 'anchor',
      lat: at.lat,
      long: at.long,
      configured: { lat: placed.lat, long: placed.long },
      displacementError: moved ? 2.1 : 0.02,
      battery: STATES[(i * 7) % STATES.length],
      health: STATES[(i * 3) % STATES.length],
    });
  }
  const links: MapLink[] = [];
  // Steps on the grid (columns, rows), nearest first: right, down, the diagonals, two away.
  const steps = [
    [1, 0],
    [0, 1],
    [1, 1],
    [-1, 1],
    [2, 0],
    [0, 2],
    [2, 1],
    [1, 2],
    [-1, 2],
    [2, 2],
  ];
  for (const [dx, dy] of steps) {
    for (let a = 0; a < count && links.length < linkCount; a++) {
      const column = (a % columns) + dx;
      const b = a + dx + dy * columns;
      if (column < 0 || column >= columns || b >= count || (a * 13 + dx + 7 * dy) % 97 === 0) continue;
      links.push({ a, b, quality: (a * 37 + (dx + 3 * dy) * 11) % 100 });
    }
  }
  return { nodes, links };
}

const nodes$ = new BehaviorSubject<MapNodes>({ nodes: [], selectedKey: null });
const graph$ = new BehaviorSubject<AnchorGraph | null>(null);
let engine: FloorCanvasEngine | null = null;

function nextFrames(n: number): Promise<void> {
  return new Promise((resolve) => {
    const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
    requestAnimationFrame(step);
  });
}

const harness = {
  /** A fresh engine with the two layers above the zones; empty until `show`. */
  async mount(): Promise<string> {
    engine?.destroy();
    const host = document.createElement('div');
    host.style.width = '100%';
    host.style.height = '100%';
    document.getElementById('root')!.replaceChildren(host);
    const layers = withLayer(withLayer(FLOOR_LAYERS, anchorGraphLayer, 'workers'), anchorsLayer, 'workers');
    engine = new FloorCanvasEngine(host, { floor, label: 'Anchor graph', layers });
    nodes$.next({ nodes: [], selectedKey: null });
    graph$.next(null);
    engine.bindLayerData(MAP_NODES, nodes$);
    engine.bindLayerData(ANCHOR_GRAPH, graph$);
    const renderer = await engine.ready;
    await nextFrames(3);
    return renderer;
  },

  /**
   * Shows a generated network (without the graph layer's links and rings when `withGraph` is
   * false: the live map's anchors alone); answers the main-thread ms of the frame that drew it.
   */
  async show(
    count: number,
    linkCount: number,
    withGraph = true,
  ): Promise<{ nodes: number; links: number; drawMs: number }> {
    const graph = network(count, linkCount);
    const before = engine!.stats();
    nodes$.next({ nodes: graph.nodes, selectedKey: null });
    graph$.next(withGraph ? graph : null);
    await nextFrames(2);
    const after = engine!.stats();
    const frames = Math.max(1, after.renderedFrames - before.renderedFrames);
    return {
      nodes: graph.nodes.length,
      links: graph.links.length,
      drawMs: (after.frameMs - before.frameMs) / frames,
    };
  },

  /**
   * Frame times (requestAnimationFrame deltas, ms) while the view pans a little every frame, so
   * every frame renders the world; with `changing`, the network is new every frame too (the moved
   * anchors drift), as a replay at speed would feed it.
   */
  async measureFrames(frames: number, changing?: { count: number; linkCount: number }): Promise<number[]> {
    const start = engine!.getView();
    const deltas: number[] = [];
    await nextFrames(10);
    let last = performance.now();
    for (let i = 0; i < frames; i++) {
      engine!.setView({ ...start, x: start.x + Math.sin(i / 10) * 40, y: start.y + Math.cos(i / 10) * 20 });
      if (changing) {
        const graph = network(changing.count, changing.linkCount, i % 20);
        nodes$.next({ nodes: graph.nodes, selectedKey: null });
        graph$.next(graph);
      }
      const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      deltas.push(now - last);
      last = now;
    }
    engine!.setView(start);
    return deltas;
  },

  stats() {
    return engine!.stats();
  },
};

declare global {
  interface Window {
    anchorGraphHarness: typeof harness;
  }
}
window.anchorGraphHarness = harness;
