import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ANCHOR_MOVED_THRESHOLD_M, type NodeType, nodeHealth } from '../../src/domain/nodeHealth';
import type { BatteryForecast, SiteNode } from '../../src/domain/schemas/nodes';
import {
  mapViewHref,
  nodesNeedingAttention,
  problemCounts,
} from '../../src/views/maintenance/MaintenanceToolkitScreen';
import { parseThreshold } from '../../src/views/maintenance/MaintenanceToolkitSettings';
import {
  DEFAULT_NODE_SORT,
  EMPTY_ROW_CACHE,
  filterRows,
  mergeRows,
  NO_NODE_FILTERS,
  nextSort,
  sortRows,
  toNodeRow,
} from '../../src/views/nodes/nodeTable';
import { formatRelative, formatSilence } from '../../src/views/shared/nodeFormat';
import { forecastWords, problemWords } from '../../src/views/shared/nodeProblems';
import { consoleTranslators } from './helpers/translators';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const FLAT: BatteryForecast = { basis: 'flat', reachesCutoffAt: null, voltsPerDay: 0, cutoffVolts: 3.2 };

interface Reading {
  ageS?: number;
  battery?: number;
  buffer?: number;
  link?: number;
  displacement?: number | null;
}

let nextId = 1;
/** A node of the site list with the health the real rule gives its reading. */
function node(
  nodeId: string,
  type: NodeType,
  reading: Reading | null,
  extra: Partial<SiteNode> = {},
): SiteNode {
  const id = nextId++;
  const stored = reading && {
    ts: new Date(NOW - (reading.ageS ?? 10) * 1000).toISOString(),
    lat: 25,
    long: 55,
    bufferUsage: reading.buffer ?? 10,
    linkQuality: reading.link ?? 90,
    batteryVoltage: reading.battery ?? (type === 'anchor' ? 3.9 : 5),
    displacementError: reading.displacement === undefined ? 0.05 : reading.displacement,
    neighbors: [],
  };
  const health = nodeHealth(stored && { ...stored, tsMs: Date.parse(stored.ts) }, {
    type,
    nowMs: NOW,
    movedThresholdM: DEFAULT_ANCHOR_MOVED_THRESHOLD_M,
  });
  return {
    id,
    nodeId,
    networkId: 1,
    type,
    floorId: 7,
    isApproved: true,
    configured: { lat: 25, long: 55 },
    reading: stored,
    health,
    buildingId: 1,
    buildingName: 'North Block',
    floorName: 'Level 1',
    forecast: FLAT,
    ...extra,
  };
}

let en: TFunction;
let ar: TFunction;
beforeAll(async () => {
  ({ en, ar } = await consoleTranslators());
});

describe('the nodes table', () => {
  const nodes = [
    node('ANC-0003', 'anchor', { battery: 3.31 }),
    node('ANC-0001', 'anchor', { link: 20 }),
    node('SNK-0001', 'sink', { buffer: 90 }, { networkId: 2 }),
    node('ANC-0010', 'anchor', null, { networkId: null }),
  ];
  const rows = nodes.map(toNodeRow);
  const ids = (list: { node: SiteNode }[]) => list.map((row) => row.node.nodeId);

  it('sorts by any column both ways, numbers as numbers, with unknown values last', () => {
    expect(ids(sortRows(rows, { column: 'nodeId', direction: 'asc' }))).toEqual([
      'ANC-0001',
      'ANC-0003',
      'ANC-0010',
      'SNK-0001',
    ]);
    expect(ids(sortRows(rows, { column: 'linkQuality', direction: 'asc' }))).toEqual([
      'ANC-0001',
      'ANC-0003',
      'SNK-0001',
      'ANC-0010',
    ]);
    expect(ids(sortRows(rows, { column: 'networkId', direction: 'desc' }))).toEqual([
      'SNK-0001',
      'ANC-0001',
      'ANC-0003',
      'ANC-0010',
    ]);
    // Bad (equal scores: by node id) before warning.
    expect(ids(sortRows(rows, DEFAULT_NODE_SORT))).toEqual(['ANC-0001', 'ANC-0010', 'SNK-0001', 'ANC-0003']);
    expect(nextSort({ column: 'nodeId', direction: 'asc' }, 'nodeId')).toEqual({
      column: 'nodeId',
      direction: 'desc',
    });
    expect(nextSort({ column: 'nodeId', direction: 'desc' }, 'type')).toEqual({
      column: 'type',
      direction: 'asc',
    });
  });

  it('filters by network, type, health state and node id', () => {
    expect(ids(filterRows(rows, { ...NO_NODE_FILTERS, networkId: 2 }))).toEqual(['SNK-0001']);
    expect(ids(filterRows(rows, { ...NO_NODE_FILTERS, type: 'sink' }))).toEqual(['SNK-0001']);
    expect(ids(filterRows(rows, { ...NO_NODE_FILTERS, health: 'bad' })).sort()).toEqual([
      'ANC-0001',
      'ANC-0010',
      'SNK-0001',
    ]);
    expect(ids(filterRows(rows, { ...NO_NODE_FILTERS, search: ' anc-000 ' }))).toEqual([
      'ANC-0003',
      'ANC-0001',
    ]);
  });

  it('highlights the cell of each crossed threshold with its state', () => {
    const [battery, link, buffer, silent] = rows;
    expect(battery.cellStates).toEqual({ batteryVoltage: 'warning' });
    expect(link.cellStates).toEqual({ linkQuality: 'bad' });
    expect(buffer.cellStates).toEqual({ bufferUsage: 'bad' });
    expect(silent.cellStates).toEqual({ updated: 'bad' });
  });

  it('keeps the row object of a node that shows the same after a poll, and only that', () => {
    const first = mergeRows(EMPTY_ROW_CACHE, nodes);
    const polled = nodes.map((n) => ({ ...n, health: { ...n.health } }));
    polled[1] = {
      ...polled[1],
      reading: polled[1].reading && { ...polled[1].reading, ts: new Date(NOW).toISOString() },
    };
    const second = mergeRows(first, polled);
    expect(second.rows[0]).toBe(first.rows[0]);
    expect(second.rows[1]).not.toBe(first.rows[1]);
    expect(second.rows[2]).toBe(first.rows[2]);
  });
});

describe('the maintenance toolkit', () => {
  it('lists the nodes needing attention worst first, with counts per problem kind', () => {
    const nodes = [
      node('ANC-0001', 'anchor', {}),
      node('ANC-0002', 'anchor', { battery: 3.4 }),
      node('ANC-0003', 'anchor', { displacement: 1.2, link: 40 }),
      node('SNK-0001', 'sink', { buffer: 70 }),
      node('ANC-0004', 'anchor', { ageS: 1200 }),
    ];
    const attention = nodesNeedingAttention(nodes);
    expect(attention.map((n) => n.nodeId)).toEqual(['ANC-0003', 'ANC-0004', 'ANC-0002', 'SNK-0001']);
    expect(problemCounts(attention)).toEqual({
      silent: 1,
      lowBattery: 1,
      weakLink: 1,
      bufferFilling: 1,
      moved: 1,
    });
    expect(mapViewHref(nodes[2])).toBe('/maintenance/map?floorId=7&nodeId=ANC-0003');
    expect(mapViewHref({ floorId: null, nodeId: 'X' })).toBeNull();
  });

  it('says each problem in words, the low battery with its forecast date, in English and Arabic', () => {
    const context = { t: en, language: 'en', timeZone: 'Asia/Dubai' };
    const trend: BatteryForecast = {
      basis: 'trend',
      reachesCutoffAt: '2026-12-02T06:00:00Z',
      voltsPerDay: -0.012,
      cutoffVolts: 3.2,
    };
    const words = (n: SiteNode, forecast = FLAT) =>
      n.health.problems.map((problem) => problemWords(problem, forecast, context));
    expect(words(node('A', 'anchor', { battery: 3.28 }), trend)).toEqual([
      'Low battery: 3.28 V, reaches 3.20 V about 2 December',
    ]);
    expect(words(node('B', 'anchor', { link: 28 }))).toEqual(['Weak link: quality 28 of 100']);
    expect(words(node('C', 'sink', { buffer: 88 }))).toEqual(['Buffer filling: 88% used']);
    expect(words(node('D', 'anchor', { displacement: 0.45 }))).toEqual(['Anchor moved by 0.45 m']);
    expect(words(node('E', 'anchor', { ageS: 724 }))).toEqual(['Silent for 12m 04s']);
    expect(words(node('F', 'anchor', null))).toEqual(['Has never reported']);
    expect(forecastWords({ ...trend, basis: 'belowCutoff', reachesCutoffAt: null }, context)).toBe(
      'already at or below its 3.20 V cut-off',
    );
    const arabic = problemWords(node('A', 'anchor', { battery: 3.28 }).health.problems[0], trend, {
      t: ar,
      language: 'ar',
      timeZone: 'Asia/Dubai',
    });
    expect(arabic).toMatch(/[\u0600-\u06FF]/);
    // Latin digits in Arabic too (spec §9), the date's day among them.
    expect(arabic).toContain('3.28');
    expect(arabic).toContain('2 ديسمبر');
  });

  it('checks the anchor-moved threshold typed in', () => {
    expect(parseThreshold('0.5')).toEqual({ metres: 0.5 });
    expect(parseThreshold(' 0,25 ')).toEqual({ metres: 0.25 });
    expect(parseThreshold('')).toEqual({ error: 'required' });
    expect(parseThreshold('abc')).toEqual({ error: 'notANumber' });
    expect(parseThreshold('-1')).toEqual({ error: 'notANumber' });
    expect(parseThreshold('0.01')).toEqual({ error: 'range' });
    expect(parseThreshold('11')).toEqual({ error: 'range' });
  });
});

describe('node figures (spec §9)', () => {
  it('writes relative times with a seconds threshold of 0, in both languages', () => {
    expect(formatRelative(NOW - 12_000, NOW, 'en')).toBe('12 seconds ago');
    expect(formatRelative(NOW - 3 * 60_000, NOW, 'en')).toBe('3 minutes ago');
    expect(formatRelative(NOW - 5 * 3_600_000, NOW, 'en')).toBe('5 hours ago');
    expect(formatRelative(NOW - 3 * 86_400_000, NOW, 'en')).toBe('3 days ago');
    expect(formatRelative(NOW - 12_000, NOW, 'ar')).toBe('قبل 12 ثانية');
  });

  it('writes durations with d, h, m and s and thousands with commas', () => {
    expect(formatSilence(9, en)).toBe('9s');
    expect(formatSilence(3849, en)).toBe('1h 04m');
    expect(formatSilence(1500 * 86_400 + 3600, en)).toBe('1,500d 01h');
  });
});
