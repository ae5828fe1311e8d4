import { describe, expect, it } from 'vitest';
import {
  compareHealthWorstFirst,
  DEFAULT_ANCHOR_MOVED_THRESHOLD_M,
  type NodeHealthReading,
  type NodeHealthState,
  type NodeProblemKind,
  type NodeType,
  nodeHealth,
} from '../../src/domain/nodeHealth';

// The thresholds are written out here, not imported, so that changing one fails this test.
const NOW = Date.UTC(2026, 10, 26, 8);
const SCORE: Record<NodeHealthState, number> = { ok: 100, warning: 85, bad: 60 };

/** A report in good health on every count, `ageS` seconds before NOW. */
const reading = (more: Partial<NodeHealthReading> = {}, ageS = 10): NodeHealthReading => ({
  tsMs: NOW - ageS * 1000,
  batteryVoltage: 3.6,
  bufferUsage: 10,
  linkQuality: 80,
  displacementError: 0.05,
  ...more,
});

const judge = (r: NodeHealthReading | null, type: NodeType = 'anchor', movedThresholdM = 0.3) =>
  nodeHealth(r, { type, nowMs: NOW, movedThresholdM });

/** The state and score of a reading off on one count only, and the problem it names. */
function expectOneFactor(
  r: NodeHealthReading,
  kind: NodeProblemKind,
  state: NodeHealthState,
  value: number,
  type: NodeType = 'anchor',
  movedThresholdM = 0.3,
) {
  const health = judge(r, type, movedThresholdM);
  expect(health.state).toBe(state);
  expect(health.score).toBe(SCORE[state]);
  expect(health.problems).toEqual(state === 'ok' ? [] : [{ kind, state, value }]);
}

describe('node health', () => {
  it('is OK with a score of 100 for a node reporting well', () => {
    expect(judge(reading())).toEqual({ state: 'ok', score: 100, problems: [] });
    expect(judge(reading({ batteryVoltage: 5 }), 'sink')).toEqual({ state: 'ok', score: 100, problems: [] });
  });

  it('is bad and silent for a node that never reported', () => {
    expect(judge(null)).toEqual({
      state: 'bad',
      score: 60,
      problems: [{ kind: 'silent', state: 'bad', value: null }],
    });
    expect(judge(null, 'sink').state).toBe('bad');
  });

  it.each([
    [0, 'ok'],
    [179.999, 'ok'],
    [180, 'warning'],
    [899.999, 'warning'],
    [900, 'bad'],
    [86_400, 'bad'],
  ] as const)('heartbeat %s s old is %s (warning from 3 minutes, bad from 15)', (ageS, state) => {
    expectOneFactor(reading({}, ageS), 'silent', state, ageS);
  });

  it('reads a report stamped in the future as just heard', () => {
    expectOneFactor(reading({}, -120), 'silent', 'ok', 0);
  });

  it.each([
    ['anchor', 3.45, 'ok'],
    ['anchor', 3.449, 'warning'],
    ['anchor', 3.3, 'warning'],
    ['anchor', 3.299, 'bad'],
    ['anchor', 3.2, 'bad'],
    ['sink', 4.6, 'ok'],
    ['sink', 4.599, 'warning'],
    ['sink', 4.4, 'warning'],
    ['sink', 4.399, 'bad'],
    // A sink's supply judged by an anchor's cell would be fine at 4.5 V.
    ['sink', 4.5, 'warning'],
    ['anchor', 4.5, 'ok'],
  ] as const)('%s battery at %s V is %s', (type, volts, state) => {
    expectOneFactor(reading({ batteryVoltage: volts }), 'lowBattery', state, volts, type);
  });

  it.each([
    [59.9, 'ok'],
    [60, 'warning'],
    [84.9, 'warning'],
    [85, 'bad'],
    [100, 'bad'],
  ] as const)('buffer use of %s %% is %s', (percent, state) => {
    expectOneFactor(reading({ bufferUsage: percent }), 'bufferFilling', state, percent);
    expectOneFactor(
      reading({ bufferUsage: percent, batteryVoltage: 5 }),
      'bufferFilling',
      state,
      percent,
      'sink',
    );
  });

  it.each([
    [100, 'ok'],
    [50, 'ok'],
    [49.9, 'warning'],
    [30, 'warning'],
    [29.9, 'bad'],
    [0, 'bad'],
  ] as const)('link quality %s is %s', (quality, state) => {
    expectOneFactor(reading({ linkQuality: quality }), 'weakLink', state, quality);
  });

  it('takes 0.3 m as the anchor-moved threshold of a site that set none', () => {
    expect(DEFAULT_ANCHOR_MOVED_THRESHOLD_M).toBe(0.3);
  });

  it.each([
    [0.3, 0, 'ok'],
    [0.3, 0.3, 'ok'],
    [0.3, 0.301, 'warning'],
    [0.3, 0.899, 'warning'],
    [0.3, 0.9, 'bad'],
    [1, 1, 'ok'],
    [1, 1.001, 'warning'],
    [1, 2.999, 'warning'],
    [1, 3, 'bad'],
  ] as const)(
    'with a %s m threshold, an anchor %s m from its place is %s (bad from 3 times it)',
    (threshold, metres, state) => {
      expectOneFactor(reading({ displacementError: metres }), 'moved', state, metres, 'anchor', threshold);
    },
  );

  it('never calls a sink moved, nor an anchor whose displacement is unknown', () => {
    expect(judge(reading({ displacementError: 50, batteryVoltage: 5 }), 'sink')).toEqual({
      state: 'ok',
      score: 100,
      problems: [],
    });
    expect(judge(reading({ displacementError: null }))).toEqual({ state: 'ok', score: 100, problems: [] });
  });

  it('takes the worst factor as the state, lists it first and takes 15 off per warning, 40 per bad', () => {
    const warnings = judge(reading({ linkQuality: 40, bufferUsage: 70 }));
    expect(warnings.state).toBe('warning');
    expect(warnings.score).toBe(70);

    // One bad factor among warnings makes the node bad, whichever factor it is.
    const mixed = judge(reading({ batteryVoltage: 3.4, linkQuality: 40, bufferUsage: 90 }, 200));
    expect(mixed.state).toBe('bad');
    expect(mixed.score).toBe(100 - 40 - 3 * 15);
    expect(mixed.problems[0]).toEqual({ kind: 'bufferFilling', state: 'bad', value: 90 });
    expect(mixed.problems.slice(1).map((p) => p.state)).toEqual(['warning', 'warning', 'warning']);
    expect(mixed.problems.map((p) => p.kind).sort()).toEqual(
      ['bufferFilling', 'lowBattery', 'silent', 'weakLink'].sort(),
    );

    const movedBad = judge(reading({ displacementError: 2, linkQuality: 45 }));
    expect(movedBad.state).toBe('bad');
    expect(movedBad.problems.map((p) => [p.kind, p.state])).toEqual([
      ['moved', 'bad'],
      ['weakLink', 'warning'],
    ]);
  });

  it('never scores below 0, with every factor bad', () => {
    const worst = judge(
      reading({ batteryVoltage: 3, bufferUsage: 95, linkQuality: 10, displacementError: 5 }, 1000),
    );
    expect(worst.state).toBe('bad');
    expect(worst.score).toBe(0);
    expect(worst.problems).toHaveLength(5);
    expect(worst.problems.every((p) => p.state === 'bad')).toBe(true);
  });

  it('orders nodes worst first: bad before warning before OK, then the lower score', () => {
    const ok = judge(reading());
    const oneWarning = judge(reading({ linkQuality: 40 }));
    const twoWarnings = judge(reading({ linkQuality: 40, bufferUsage: 70 }));
    const bad = judge(reading({ bufferUsage: 90 }));
    const sorted = [ok, oneWarning, bad, twoWarnings].sort(compareHealthWorstFirst);
    expect(sorted).toEqual([bad, twoWarnings, oneWarning, ok]);
  });
});
