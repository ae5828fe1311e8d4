import { describe, expect, it } from 'vitest';
import type { NodePlaybackChunk } from '../../src/domain/schemas/nodes';
import { nodeSampleWindow, replayedNodes } from '../../src/streams/nodePlaybackWindows';
import { latestSamples } from '../../src/streams/playbackWindows';

const T0 = Date.UTC(2026, 2, 1, 6);
const NODES: NodePlaybackChunk['nodes'] = [
  { id: 11, nodeId: 'ANC-0001', type: 'anchor', configured: { lat: 25.2, long: 55.27 } },
  { id: 12, nodeId: 'ANC-0002', type: 'anchor', configured: { lat: 25.2001, long: 55.2701 } },
  { id: 13, nodeId: 'SNK-0001', type: 'sink', configured: null },
];

function chunk(rows: [number, number, number, number | null, [number, number][]][]): NodePlaybackChunk {
  return {
    floorId: 1,
    from: new Date(T0).toISOString(),
    to: new Date(T0 + 60_000).toISOString(),
    startMs: T0,
    nodes: NODES,
    t: rows.map((r) => r[0]),
    n: rows.map((r) => r[1]),
    lat: rows.map((_row, i) => 25.2 + i * 1e-5),
    long: rows.map(() => 55.27),
    batteryVoltage: rows.map((r) => r[2]),
    linkQuality: rows.map(() => 70),
    bufferUsage: rows.map(() => 12.5),
    displacementError: rows.map((r) => r[3]),
    health: rows.map((r) => (r[2] < 3.3 ? 'bad' : 'ok')),
    neighbors: rows.map((r) => r[4]),
    nextCursor: null,
  };
}

describe('node replay windows', () => {
  it('decodes chunks into columns keyed by inventory id, with the links each report heard', () => {
    const window = nodeSampleWindow(
      [
        chunk([
          [1_000, 0, 3.5, 0.02, [[1, 80]]],
          [
            2_000,
            1,
            3.25,
            1.4,
            [
              [0, 40],
              [2, 90],
            ],
          ],
        ]),
        chunk([[30_000, 0, 3.49, null, []]]),
      ],
      T0,
      T0 + 60_000,
    );
    expect([...window.times]).toEqual([T0 + 1_000, T0 + 2_000, T0 + 30_000]);
    expect([...window.entities]).toEqual([11, 12, 11]);
    expect([...window.payload.nodes.keys()]).toEqual([11, 12, 13]);

    // At T0 + 20 s: both anchors' latest reports; the sink never reported.
    const at = latestSamples(new Map(), [window], T0 - 1, T0 + 20_000);
    const nodes = replayedNodes(at, [window]);
    expect(nodes.map((n) => [n.nodeId, n.reading?.batteryVoltage ?? null])).toEqual([
      ['ANC-0001', 3.5],
      ['ANC-0002', 3.25],
      ['SNK-0001', null],
    ]);
    expect(nodes[1].reading).toMatchObject({
      displacementError: 1.4,
      health: 'bad',
      links: [
        { key: 11, quality: 40 },
        { key: 13, quality: 90 },
      ],
    });
    // At T0 + 40 s the first anchor's later report, without a displacement and hearing nobody.
    const later = replayedNodes(latestSamples(new Map(), [window], T0 - 1, T0 + 40_000), [window]);
    expect(later[0].reading).toMatchObject({ batteryVoltage: 3.49, displacementError: null, links: [] });
  });
});
