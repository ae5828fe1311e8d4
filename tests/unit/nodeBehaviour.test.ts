import { describe, expect, it } from 'vitest';
import {
  castNodes,
  FILLING_SINK,
  floorMates,
  KNOCKED_ANCHOR,
  type NodeReport,
  type NodeStory,
  nodeReport,
} from '../../server/simulator/nodeBehaviour';
import type { SimNode } from '../../server/simulator/siteModel';
import { greatCircleDistance } from '../../src/domain/distance';
import {
  BATTERY_VOLTS,
  BUFFER_USAGE_PERCENT,
  DEFAULT_ANCHOR_MOVED_THRESHOLD_M,
  LINK_QUALITY,
  NODE_PROBLEM_KINDS,
  type NodeProblemKind,
  nodeHealth,
} from '../../src/domain/nodeHealth';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** An instant by the demo site's clock (Dubai, UTC+4, no daylight saving). */
const dubai = (day: string, hhmm: string) => Date.parse(`${day}T${hhmm}:00+04:00`);

/**
 * The demo's layout (server/db/demoSeed.ts, demoWorkforce.ts): floors of 80 × 50 m, nine anchors
 * on a grid at 4 %, 50 % and 96 % of each side, and a sink at (30 %, 50 %); two floors of one network.
 */
function demoLikeNodes(): SimNode[] {
  const origin = { lat: 25.2, long: 55.3 };
  const metresPerDegree = 111_320;
  const at = (x: number, y: number) => ({
    lat: origin.lat - (y * 50) / metresPerDegree,
    long: origin.long + (x * 80) / (metresPerDegree * Math.cos((origin.lat * Math.PI) / 180)),
  });
  const nodes: SimNode[] = [];
  let anchor = 0;
  for (const [index, floorId] of [11, 12].entries()) {
    for (const y of [0.04, 0.5, 0.96])
      for (const x of [0.04, 0.5, 0.96]) {
        anchor += 1;
        nodes.push({
          nodeId: `ANC-${String(anchor).padStart(4, '0')}`,
          type: 'anchor',
          networkId: 1,
          floorId,
          ...at(x, y),
        });
      }
    nodes.push({ nodeId: `SNK-000${index + 1}`, type: 'sink', networkId: 1, floorId, ...at(0.3, 0.5) });
  }
  return nodes;
}

const nodes = demoLikeNodes();
const mates = floorMates(nodes);
const cast = castNodes(nodes);
const story: NodeStory = { timezone: 'Asia/Dubai', startMs: dubai('2026-03-10', '08:00'), cast };
const byId = (id: string | null) => nodes.find((n) => n.nodeId === id)!;
const report = (node: SimNode, atMs: number) => nodeReport(node, mates.get(node.nodeId)!, atMs, story);
const reported = (node: SimNode, atMs: number) => report(node, atMs) as NodeReport;
const normalAnchors = nodes.filter(
  (n) => n.type === 'anchor' && ![cast.nearEndAnchor, cast.silentAnchor].includes(n.nodeId),
);

describe("the demo's node behaviour", () => {
  it('casts one anchor per problem and the sink on the first floor', () => {
    expect(cast).toEqual({
      knockedAnchor: 'ANC-0002',
      nearEndAnchor: 'ANC-0006',
      weakLinkAnchor: 'ANC-0007',
      silentAnchor: 'ANC-0009',
      fillingSink: 'SNK-0001',
    });
  });

  it('is a function of its inputs: the same report for the same node and instant', () => {
    const atMs = dubai('2026-03-11', '10:17');
    for (const node of nodes) expect(report(node, atMs)).toEqual(report(node, atMs));
    const knocked = byId(cast.knockedAnchor);
    expect(reported(knocked, atMs)).toEqual(
      nodeReport(knocked, [...mates.get(knocked.nodeId)!], atMs, { ...story, cast: castNodes(nodes) }),
    );
  });

  it('drains every anchor at its own rate while the sinks hold their 5 V', () => {
    // Over the days before the story's start: no cell is swapped there (the crew swaps them at 3.5 V).
    const from = story.startMs - 2.5 * DAY;
    const rates = normalAnchors.map(
      (n) => (reported(n, from).batteryVoltage - reported(n, from + 2 * DAY).batteryVoltage) / 2,
    );
    for (const rate of rates) expect(rate).toBeGreaterThan(0.002);
    expect(Math.max(...rates)).toBeGreaterThan(2 * Math.min(...rates));
    expect(new Set(rates.map((r) => r.toFixed(3))).size).toBeGreaterThan(rates.length / 2);
    for (const node of normalAnchors) {
      const volts = reported(node, from).batteryVoltage;
      expect(volts).toBeGreaterThan(BATTERY_VOLTS.anchor.warning);
      expect(volts).toBeLessThanOrEqual(4.1);
    }
    for (const sink of nodes.filter((n) => n.type === 'sink'))
      for (const atMs of [from, from + DAY, from + 2 * DAY])
        expect(Math.abs(reported(sink, atMs).batteryVoltage - 5)).toBeLessThan(0.05);
  });

  it('has one anchor in warning whose cell reaches the cut-off a few days after the start', () => {
    const nearEnd = byId(cast.nearEndAnchor);
    const points: [number, number][] = [];
    for (let atMs = story.startMs - 3 * DAY; atMs <= story.startMs; atMs += HOUR)
      points.push([(atMs - story.startMs) / DAY, reported(nearEnd, atMs).batteryVoltage]);
    // The least-squares line of the last 3 days, as the toolkit's forecast draws it.
    const meanX = points.reduce((s, [x]) => s + x, 0) / points.length;
    const meanY = points.reduce((s, [, y]) => s + y, 0) / points.length;
    const slope =
      points.reduce((s, [x, y]) => s + (x - meanX) * (y - meanY), 0) /
      points.reduce((s, [x]) => s + (x - meanX) ** 2, 0);
    const cutoffInDays = (BATTERY_VOLTS.anchor.cutoff - (meanY - slope * meanX)) / slope;
    expect(slope).toBeLessThan(-0.03);
    expect(cutoffInDays).toBeGreaterThan(2);
    expect(cutoffInDays).toBeLessThan(7);
    const now = reported(nearEnd, story.startMs).batteryVoltage;
    expect(now).toBeLessThan(BATTERY_VOLTS.anchor.warning);
    expect(now).toBeGreaterThan(BATTERY_VOLTS.anchor.bad);
  });

  it('knocks an anchor out of place every morning: its computed position drifts ~1.6 m, and is put back before dawn', () => {
    const knocked = byId(cast.knockedAnchor);
    const day = '2026-03-11';
    const displacement = (hhmm: string) => reported(knocked, dubai(day, hhmm)).displacementError;
    expect(KNOCKED_ANCHOR.knockedAt).toBe(6 * 60 + 40);
    expect(displacement('06:30')).toBeLessThan(0.1);
    const drift = ['06:45', '07:00', '07:15', '07:30', '07:45', '08:00'].map(displacement);
    for (let i = 1; i < drift.length; i++) expect(drift[i]).toBeGreaterThan(drift[i - 1]);
    expect(displacement('07:10')).toBeGreaterThan(DEFAULT_ANCHOR_MOVED_THRESHOLD_M);
    for (const hhmm of ['08:15', '12:00', '18:00', '23:59']) {
      expect(displacement(hhmm)).toBeGreaterThan(1.4);
      expect(displacement(hhmm)).toBeLessThan(1.8);
    }
    expect(reported(knocked, dubai('2026-03-12', '04:55')).displacementError).toBeGreaterThan(1.4);
    expect(reported(knocked, dubai('2026-03-12', '05:00')).displacementError).toBeLessThan(0.1);
    // The report's position is that far from the placement: what the server measures.
    const at = reported(knocked, dubai(day, '12:00'));
    expect(greatCircleDistance(knocked, at)).toBeCloseTo(at.displacementError, 1);
    // Every other anchor stays within the survey's 0.1 m.
    for (const node of normalAnchors.filter((n) => n.nodeId !== cast.knockedAnchor))
      expect(reported(node, dubai(day, '12:00')).displacementError).toBeLessThan(0.1);
  });

  it("fills one sink's buffer over the morning, past the bad threshold, and empties it at 05:00", () => {
    const sink = byId(cast.fillingSink);
    const buffer = (day: string, hhmm: string) => reported(sink, dubai(day, hhmm)).bufferUsage;
    expect(FILLING_SINK.emptiedAt).toBe(5 * 60);
    const morning = ['05:05', '06:00', '07:00', '08:00'].map((hhmm) => buffer('2026-03-11', hhmm));
    for (let i = 1; i < morning.length; i++) expect(morning[i]).toBeGreaterThan(morning[i - 1]);
    expect(morning[0]).toBeLessThan(10);
    expect(buffer('2026-03-11', '09:00')).toBeGreaterThan(BUFFER_USAGE_PERCENT.bad);
    expect(buffer('2026-03-12', '04:55')).toBeGreaterThan(BUFFER_USAGE_PERCENT.bad);
    expect(buffer('2026-03-12', '05:00')).toBeLessThan(10);
    const other = byId('SNK-0002');
    expect(reported(other, dubai('2026-03-11', '12:00')).bufferUsage).toBeLessThan(
      BUFFER_USAGE_PERCENT.warning,
    );
  });

  it('hears floor mates more weakly the further they are, and never another floor', () => {
    const center = byId('ANC-0005');
    const byDistance = new Map<number, number[]>();
    for (let minute = 0; minute < 120; minute++) {
      for (const neighbor of reported(center, story.startMs + minute * MINUTE).neighbors) {
        const other = byId(neighbor.nodeId);
        expect(other.floorId).toBe(center.floorId);
        const metres = Math.round(greatCircleDistance(center, other));
        byDistance.set(metres, [...(byDistance.get(metres) ?? []), neighbor.linkQuality]);
        // Log-distance: rssi ≈ −40 − 27·log10(d), give or take the mounts and the fading.
        expect(Math.abs(neighbor.rssi! - (-40 - 27 * Math.log10(metres)))).toBeLessThanOrEqual(4.5);
      }
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const qualityByDistance = [...byDistance].sort(([a], [b]) => a - b).map(([, q]) => mean(q));
    expect(qualityByDistance.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < qualityByDistance.length; i++)
      expect(qualityByDistance[i]).toBeLessThan(qualityByDistance[i - 1]);
  });

  it('leaves one anchor with only weak links and no other node weak or isolated, but the silent one', () => {
    const weak = byId(cast.weakLinkAnchor);
    for (let atMs = story.startMs; atMs < story.startMs + DAY; atMs += 7 * MINUTE) {
      const own = reported(weak, atMs);
      expect(own.neighbors.length).toBeGreaterThan(0);
      expect(own.linkQuality).toBeLessThan(LINK_QUALITY.warning);
      expect(own.linkQuality).toBe(Math.max(...own.neighbors.map((n) => n.linkQuality)));
      for (const node of nodes) {
        if (node === weak || node.nodeId === cast.silentAnchor) continue;
        const other = reported(node, atMs);
        expect(other.linkQuality, node.nodeId).toBeGreaterThanOrEqual(LINK_QUALITY.warning);
        // Links are heard from both ends alike.
        for (const neighbor of other.neighbors) {
          const back = report(byId(neighbor.nodeId), atMs)?.neighbors.find((n) => n.nodeId === node.nodeId);
          expect(back?.linkQuality).toBe(neighbor.linkQuality);
        }
      }
    }
  });

  it('keeps one anchor silent most of the time: it reports a few minutes every three hours, and nobody hears it', () => {
    const silent = byId(cast.silentAnchor);
    let heard = 0;
    let longestGap = 0;
    let lastHeard = story.startMs;
    for (let atMs = story.startMs; atMs < story.startMs + DAY; atMs += MINUTE) {
      const own = report(silent, atMs);
      if (own) {
        heard += 1;
        longestGap = Math.max(longestGap, atMs - lastHeard);
        lastHeard = atMs;
        expect(own.neighbors).toEqual([]);
      }
      for (const mate of mates.get(silent.nodeId)!)
        expect(report(mate, atMs)?.neighbors.some((n) => n.nodeId === silent.nodeId)).toBe(false);
    }
    expect(heard / (24 * 60)).toBeLessThan(0.1);
    expect(heard).toBeGreaterThan(0);
    expect(longestGap).toBeLessThanOrEqual(3 * HOUR);
  });

  it('gives the toolkit all five kinds of problem at most instants of a day', () => {
    const latest = new Map<string, NodeReport>();
    let complete = 0;
    let checked = 0;
    const step = 5 * MINUTE;
    for (let atMs = story.startMs - DAY; atMs < story.startMs + DAY; atMs += step) {
      for (const node of nodes) {
        const own = report(node, atMs);
        if (own) latest.set(node.nodeId, own);
      }
      if (atMs < story.startMs || (atMs - story.startMs) % (30 * MINUTE) !== 0) continue;
      const kinds = new Set<NodeProblemKind>();
      for (const node of nodes) {
        const own = latest.get(node.nodeId);
        const health = nodeHealth(own ? { ...own, tsMs: Date.parse(own.ts) } : null, {
          type: node.type,
          nowMs: atMs,
          movedThresholdM: DEFAULT_ANCHOR_MOVED_THRESHOLD_M,
        });
        for (const problem of health.problems) kinds.add(problem.kind);
      }
      checked += 1;
      if (NODE_PROBLEM_KINDS.every((kind) => kinds.has(kind))) complete += 1;
    }
    expect(checked).toBe(48);
    // Only from 05:00 (the anchor put back, the buffer emptied) to ~07:15 is one missing.
    expect(complete / checked).toBeGreaterThan(0.85);
  });
});
