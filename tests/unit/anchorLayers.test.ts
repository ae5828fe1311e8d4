import { describe, expect, it } from 'vitest';
import type { NodeInformation } from '../../src/domain/schemas/nodes';
import { batteryBand, linksBetween, liveMapOf } from '../../src/views/maintenance/MaintenanceMapNodes';
import { trailsFloorScene } from './helpers/trailsFloor';

// Pixi reads navigator when it loads (Node 20 has none); layers need no renderer to draw.
Object.assign(globalThis, { navigator: globalThis.navigator ?? { userAgent: 'node' } });
const { Container, Texture } = await import('pixi.js');
const { LayerStack } = await import('../../src/views/canvas/layers/LayerStack');
const { MAP_NODES, anchorsLayerDefinition, HEALTH_COLOURS, DISPLACEMENT_COLOUR } = await import(
  '../../src/views/canvas/layers/AnchorsLayer'
);
const { ANCHOR_GRAPH, anchorGraphLayerDefinition, linkBand, SETTLED_MS } = await import(
  '../../src/views/canvas/layers/AnchorGraphLayer'
);
type DrawnNode = import('../../src/views/canvas/layers/AnchorsLayer').DrawnNode;
type DrawnGraph = import('../../src/views/canvas/layers/AnchorGraphLayer').DrawnGraph;

const NOW = '2026-03-01T10:00:00.000Z';
const OK_HEALTH = { state: 'ok' as const, score: 100, problems: [] };

/** A node of the trails floor (2000 × 1000 px over 0.002° × 0.001°) at image point (x, y). */
function node(
  id: number,
  x: number,
  y: number,
  fields: Partial<NodeInformation> & {
    volts?: number;
    neighbours?: [string, number][];
    placed?: [number, number];
  } = {},
): NodeInformation {
  const at = (px: number, py: number) => ({
    lat: 25.201 - (py / 1000) * 0.001,
    long: 55.27 + (px / 2000) * 0.002,
  });
  const { volts = 3.6, neighbours = [], placed = [x, y], ...rest } = fields;
  return {
    id,
    nodeId: `ANC-${String(id).padStart(4, '0')}`,
    networkId: 1,
    type: 'anchor',
    floorId: 1,
    isApproved: true,
    configured: at(...placed),
    reading: {
      ts: NOW,
      ...at(x, y),
      bufferUsage: 10,
      linkQuality: 80,
      batteryVoltage: volts,
      displacementError: placed[0] === x && placed[1] === y ? 0 : 1.2,
      neighbors: neighbours.map(([nodeId, linkQuality]) => ({ nodeId, linkQuality })),
    },
    health: OK_HEALTH,
    ...rest,
  };
}

function setUp() {
  const scene = trailsFloorScene();
  const world = new Container();
  const seen: { nodes: readonly DrawnNode[]; graph: DrawnGraph | null } = { nodes: [], graph: null };
  const clock = { ms: 0 };
  const stack = new LayerStack(
    [
      anchorGraphLayerDefinition(
        (graph) => {
          seen.graph = graph;
        },
        () => clock.ms,
      ),
      anchorsLayerDefinition(
        (nodes) => {
          seen.nodes = nodes;
        },
        // Pixi's white texture for the markers: no DOM to draw the atlas on.
        {
          fill: { anchor: Texture.WHITE, sink: Texture.WHITE },
          ring: { anchor: Texture.WHITE, sink: Texture.WHITE },
        },
      ),
    ],
    world,
  );
  return { scene, world, stack, seen, clock };
}

const VIEW = { scale: 1, x: 0, y: 0 };

describe('the maintenance map’s nodes and links', () => {
  it('bands batteries by the node type’s thresholds', () => {
    expect(batteryBand('anchor', 3.6)).toBe('ok');
    expect(batteryBand('anchor', 3.4)).toBe('warning');
    expect(batteryBand('anchor', 3.25)).toBe('bad');
    // A sink's 5 V supply: 4.5 V is already low.
    expect(batteryBand('sink', 4.5)).toBe('warning');
    expect(linkBand(80)).toBe('ok');
    expect(linkBand(40)).toBe('warning');
    expect(linkBand(10)).toBe('bad');
  });

  it('draws each heard pair once, as good as its worse direction, and none to other floors', () => {
    const { nodes, links } = liveMapOf([
      node(1, 100, 100, {
        neighbours: [
          ['ANC-0002', 90],
          ['ANC-0099', 70],
        ],
      }),
      node(2, 300, 100, {
        neighbours: [
          ['ANC-0001', 45],
          ['ANC-0003', 20],
        ],
      }),
      node(3, 500, 100),
      node(4, 700, 100),
    ]);
    expect(nodes.map((n) => n.key)).toEqual([1, 2, 3, 4]);
    expect(links).toEqual([
      { a: 0, b: 1, quality: 45 },
      { a: 1, b: 2, quality: 20 },
    ]);
    expect(linksBetween(nodes, new Map([[1, [{ key: 1, quality: 50 }]]]))).toEqual([]);
  });
});

describe('the anchors and anchor graph layers', () => {
  it('draw anchors where computed, a line back to where a moved one was placed, by battery and health', () => {
    const { scene, world, stack, seen } = setUp();
    const map = liveMapOf([
      node(1, 100, 100),
      node(2, 400, 300, { placed: [300, 300], volts: 3.35 }),
      { ...node(3, 800, 500, { volts: 4.9 }), type: 'sink', nodeId: 'SNK-0003' },
      { ...node(4, 900, 500), health: { state: 'bad', score: 60, problems: [] } },
    ]);
    scene.setData(MAP_NODES, { nodes: map.nodes, selectedKey: 2 });
    stack.update({ scene, view: VIEW });
    const byKey = new Map(seen.nodes.map((d) => [d.key, d]));
    expect(byKey.get(1)).toMatchObject({
      x: expect.closeTo(100, 6),
      fill: HEALTH_COLOURS.ok,
      ring: HEALTH_COLOURS.ok,
      placedAt: null,
    });
    const moved = byKey.get(2)!;
    expect(moved.x).toBeCloseTo(400, 6);
    expect(moved.placedAt!.x).toBeCloseTo(300, 6);
    expect(moved.fill).toBe(HEALTH_COLOURS.warning);
    expect(byKey.get(3)).toMatchObject({ type: 'sink', fill: HEALTH_COLOURS.ok });
    expect(byKey.get(4)!.ring).toBe(HEALTH_COLOURS.bad);
    // The moved anchor's line is stroked in the displacement colour.
    const lines = world.getChildByLabel('anchor-displacement', true) as import('pixi.js').Graphics;
    const strokes = lines.context.instructions.filter((i) => i.action === 'stroke');
    expect(strokes.map((i) => i.data.style.color)).toContain(DISPLACEMENT_COLOUR);
    // Two particles a node, the fill tinted by battery and the ring by health.
    const markers = world.getChildByLabel('anchors', true) as import('pixi.js').ParticleContainer<
      import('pixi.js').Particle
    >;
    expect(markers.particleChildren.map((p) => p.tint)).toEqual(seen.nodes.flatMap((d) => [d.fill, d.ring]));
    expect(stack.redraws('anchors')).toBe(1);
    // Panning does not draw again; new nodes do.
    stack.update({ scene, view: { scale: 1, x: 250, y: 40 } });
    expect(stack.redraws('anchors')).toBe(1);
    scene.setData(MAP_NODES, { nodes: map.nodes.slice(0, 1), selectedKey: null });
    stack.update({ scene, view: { scale: 1, x: 250, y: 40 } });
    expect(stack.redraws('anchors')).toBe(2);
    expect(seen.nodes).toHaveLength(1);
  });

  it('rings isolated nodes and colours links by band, in a few Graphics however many links', () => {
    const { scene, world, stack, seen, clock } = setUp();
    // 2,000 anchors in a 50 × 40 grid, each hearing its right and lower neighbours: 3,910 links.
    const nodes: NodeInformation[] = [];
    const id = (i: number) => `ANC-${String(i + 1).padStart(4, '0')}`;
    for (let i = 0; i < 2000; i++) {
      const column = i % 50;
      const row = Math.floor(i / 50);
      const neighbours: [string, number][] = [];
      if (column < 49 && i !== 0) neighbours.push([id(i + 1), (i * 7) % 100]);
      if (row < 39 && i !== 0) neighbours.push([id(i + 50), 90]);
      nodes.push(node(i + 1, 20 + column * 38, 20 + row * 24, { neighbours }));
    }
    // Node 1 hears nobody and its two neighbours leave it out too.
    for (const n of nodes) {
      if (n.reading) n.reading.neighbors = n.reading.neighbors.filter((l) => l.nodeId !== id(0));
    }
    const graph = liveMapOf(nodes);
    scene.setData(ANCHOR_GRAPH, graph);
    scene.setData(MAP_NODES, { nodes: graph.nodes, selectedKey: null });
    stack.update({ scene, view: VIEW });
    const drawn = seen.graph!;
    expect(drawn.links.ok + drawn.links.warning + drawn.links.bad).toBe(graph.links.length);
    expect(drawn.links.bad).toBeGreaterThan(0);
    expect(drawn.isolated).toEqual([1]);
    // The two layers are a handful of display objects, not one per node or link, and the links are
    // kept as one picture a pan only moves.
    const objects = world.children.length;
    expect(objects).toBeLessThanOrEqual(8);
    const links = world.getChildByLabel('anchor-graph', true)!;
    // Drawn as it is at first (a replay may change it next frame); kept as a picture once it
    // has not changed for a while, and not drawn again for that.
    expect(links.isCachedAsTexture).toBe(false);
    expect(stack.update({ scene, view: VIEW })).toBe(false);
    clock.ms += SETTLED_MS;
    expect(stack.update({ scene, view: VIEW })).toBe(true);
    expect(links.isCachedAsTexture).toBe(true);
    expect(stack.redraws('anchorGraph')).toBe(1);
    expect(stack.update({ scene, view: { scale: 1, x: 40, y: 0 } })).toBe(false);
    // No graph: nothing drawn, the nodes stay.
    scene.setData(ANCHOR_GRAPH, null);
    stack.update({ scene, view: VIEW });
    expect(seen.graph).toEqual({ links: { ok: 0, warning: 0, bad: 0 }, isolated: [] });
    expect(links.isCachedAsTexture).toBe(false);
    expect(seen.nodes).toHaveLength(2000);
  });
});
