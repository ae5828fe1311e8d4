import { describe, expect, it } from 'vitest';
import { countByReason, MAX_NEIGHBORS_PER_REPORT, parseNodes } from '../../src/domain/ingestValidation';

const now = Date.parse('2025-03-01T12:00:00.000Z');

const report = (overrides: Record<string, unknown> = {}) => ({
  networkId: 1,
  nodeId: 'ANC-0001',
  type: 'anchor',
  bufferUsage: 12,
  linkQuality: 88,
  batteryVoltage: 3.6,
  displacementError: 0.1,
  ts: '2025-03-01T11:59:00Z',
  lat: 25.2,
  long: 55.27,
  ...overrides,
});

const parse = (value: unknown) => parseNodes(JSON.stringify(value), now);

describe('node neighbours', () => {
  it('reads a report without neighbours as one that heard none', () => {
    const result = parse(report());
    expect(result.rejected).toEqual([]);
    expect(result.accepted[0].neighbors).toEqual([]);
  });

  it('keeps good neighbours with and without rssi, and nothing else they carry', () => {
    const result = parse(
      report({
        neighbors: [
          { nodeId: 'ANC-0002', linkQuality: 91, rssi: -61.5 },
          { nodeId: 'SNK-0001', linkQuality: 0 },
          { nodeId: 'ANC-0003', linkQuality: 100, rssi: null, colour: 'red' },
        ],
      }),
    );
    expect(result.rejected).toEqual([]);
    expect(result.accepted[0].neighbors).toEqual([
      { nodeId: 'ANC-0002', linkQuality: 91, rssi: -61.5 },
      { nodeId: 'SNK-0001', linkQuality: 0 },
      { nodeId: 'ANC-0003', linkQuality: 100 },
    ]);
  });

  it('drops each bad neighbour with its reason and the reporter, and keeps the report and the good ones', () => {
    const bad = [
      'ANC-0009',
      { linkQuality: 50 },
      { nodeId: '', linkQuality: 50 },
      { nodeId: 'ANC\u00000010', linkQuality: 50 },
      { nodeId: 'ANC-0011', linkQuality: '50' },
      { nodeId: 'ANC-0012', linkQuality: 101 },
      { nodeId: 'ANC-0013', linkQuality: -1 },
      { nodeId: 'ANC-0014', linkQuality: 50, rssi: 'loud' },
      { nodeId: 'ANC-0015', linkQuality: 50, rssi: -250 },
      { nodeId: 'ANC-0016', linkQuality: 50, rssi: 30 },
      { nodeId: 'ANC-0001', linkQuality: 50 },
      { nodeId: 'ANC-0002', linkQuality: 12 },
    ];
    const result = parse(report({ neighbors: [{ nodeId: 'ANC-0002', linkQuality: 70 }, ...bad] }));
    expect(result.accepted).toHaveLength(1);
    expect(result.accepted[0]).toMatchObject({ nodeId: 'ANC-0001', batteryVoltage: 3.6 });
    expect(result.accepted[0].neighbors).toEqual([{ nodeId: 'ANC-0002', linkQuality: 70 }]);
    expect(result.rejected.map((r) => r.reason)).toEqual([
      'badShape', // not an object
      'badShape', // no nodeId
      'badShape', // blank nodeId
      'controlCharacter',
      'badShape', // link quality as text
      'outOfRange', // link quality over 100
      'outOfRange', // link quality below 0
      'badShape', // rssi as text
      'outOfRange', // rssi below -200 dBm
      'outOfRange', // rssi above 20 dBm
      'badShape', // the node itself
      'badShape', // ANC-0002 a second time
    ]);
    expect(result.rejected.every((r) => (r.entry as { nodeId: string }).nodeId === 'ANC-0001')).toBe(true);
    expect(result.rejected[5].entry).toEqual({ nodeId: 'ANC-0001', neighbor: bad[5] });
  });

  it('refuses non-finite link qualities (JSON cannot carry them, a hand-built payload can)', () => {
    const result = parseNodes(
      '{"networkId":1,"nodeId":"ANC-0001","type":"anchor","bufferUsage":1,"linkQuality":80,"batteryVoltage":3.6,"displacementError":0,"ts":"2025-03-01T11:59:00Z","lat":25.2,"long":55.27,"neighbors":[{"nodeId":"ANC-0002","linkQuality":1e999}]}',
      now,
    );
    expect(result.accepted[0].neighbors).toEqual([]);
    expect(countByReason(result.rejected)).toEqual({ outOfRange: 1 });
  });

  it(`keeps at most ${MAX_NEIGHBORS_PER_REPORT} neighbours a report and counts the rest`, () => {
    const neighbors = Array.from({ length: MAX_NEIGHBORS_PER_REPORT + 3 }, (_, i) => ({
      nodeId: `ANC-${1000 + i}`,
      linkQuality: 60,
    }));
    const result = parse(report({ neighbors }));
    expect(result.accepted[0].neighbors).toHaveLength(MAX_NEIGHBORS_PER_REPORT);
    expect(result.accepted[0].neighbors?.at(-1)?.nodeId).toBe(`ANC-${1000 + MAX_NEIGHBORS_PER_REPORT - 1}`);
    expect(countByReason(result.rejected)).toEqual({ outOfRange: 3 });
  });

  it('refuses a whole report whose neighbours are not a list, once', () => {
    for (const neighbors of [{ nodeId: 'ANC-0002', linkQuality: 50 }, 'ANC-0002', null, 3]) {
      const result = parse([report({ neighbors }), report({ nodeId: 'ANC-0002' })]);
      expect(result.accepted.map((r) => r.nodeId)).toEqual(['ANC-0002']);
      expect(result.rejected).toEqual([{ reason: 'badShape', entry: report({ neighbors }) }]);
    }
  });

  it('judges no neighbour of a report that is itself refused', () => {
    const result = parse(report({ batteryVoltage: 'full', neighbors: [{ nodeId: 7 }] }));
    expect(result.accepted).toEqual([]);
    expect(result.rejected.map((r) => r.reason)).toEqual(['badShape']);
  });
});
