import { describe, expect, it } from 'vitest';
import type { NodeHealthReading } from '../../src/domain/nodeHealth';
import { nodeHealth, SILENT_AFTER_S } from '../../src/domain/nodeHealth';
import { type HealthSpan, nodeHealthHistory } from '../../src/domain/nodeHealthHistory';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 26, 8);
const context = { type: 'anchor' as const, movedThresholdM: 0.3 };

const good = (tsMs: number, more: Partial<NodeHealthReading> = {}): NodeHealthReading => ({
  tsMs,
  batteryVoltage: 3.55,
  bufferUsage: 10,
  linkQuality: 80,
  displacementError: 0.05,
  ...more,
});

const history = (readings: NodeHealthReading[], fromMs = T0, toMs = T0 + 60 * MIN) =>
  nodeHealthHistory({ readings, fromMs, toMs, context });

/** The state nodeHealth gives at `ms` from the latest reading at or before it. */
function stateAt(readings: NodeHealthReading[], ms: number) {
  const latest = readings.filter((r) => r.tsMs <= ms).at(-1) ?? null;
  return nodeHealth(latest, { ...context, nowMs: ms }).state;
}

function stateIn(spans: HealthSpan[], ms: number) {
  return spans.find((s) => s.fromMs <= ms && ms < s.toMs)?.state;
}

describe('node health history', () => {
  it('is one OK span for a node reporting every minute in good health', () => {
    const readings = Array.from({ length: 61 }, (_, m) => good(T0 - MIN + m * MIN));
    expect(history(readings)).toEqual([{ fromMs: T0, toMs: T0 + 60 * MIN, state: 'ok' }]);
  });

  it('turns a silent gap into warning after 3 minutes and bad after 15', () => {
    const readings = [good(T0), good(T0 + 30 * MIN)];
    const warnAt = T0 + SILENT_AFTER_S.warning * 1000;
    const badAt = T0 + SILENT_AFTER_S.bad * 1000;
    expect(history(readings)).toEqual([
      { fromMs: T0, toMs: warnAt, state: 'ok' },
      { fromMs: warnAt, toMs: badAt, state: 'warning' },
      { fromMs: badAt, toMs: T0 + 30 * MIN, state: 'bad' },
      { fromMs: T0 + 30 * MIN, toMs: T0 + 33 * MIN, state: 'ok' },
      { fromMs: T0 + 33 * MIN, toMs: T0 + 45 * MIN, state: 'warning' },
      { fromMs: T0 + 45 * MIN, toMs: T0 + 60 * MIN, state: 'bad' },
    ]);
  });

  it("judges each report's own problems and merges equal neighbours", () => {
    const readings = [
      good(T0),
      good(T0 + MIN, { batteryVoltage: 3.4 }), // warning: low battery
      good(T0 + 2 * MIN, { linkQuality: 40 }), // warning: weak link
      good(T0 + 3 * MIN, { displacementError: 1.2 }), // bad: moved over 3 × 0.3 m
      good(T0 + 4 * MIN),
    ];
    const spans = history(readings, T0, T0 + 5 * MIN);
    expect(spans).toEqual([
      { fromMs: T0, toMs: T0 + MIN, state: 'ok' },
      { fromMs: T0 + MIN, toMs: T0 + 3 * MIN, state: 'warning' },
      { fromMs: T0 + 3 * MIN, toMs: T0 + 4 * MIN, state: 'bad' },
      { fromMs: T0 + 4 * MIN, toMs: T0 + 5 * MIN, state: 'ok' },
    ]);
  });

  it('takes the state at the start from the report before it, and is bad before any report', () => {
    const before = [good(T0 - 16 * MIN, { bufferUsage: 70 }), good(T0 + 5 * MIN)];
    expect(history(before, T0, T0 + 10 * MIN)).toEqual([
      { fromMs: T0, toMs: T0 + 5 * MIN, state: 'bad' }, // buffer warning, 16 min silent: bad
      { fromMs: T0 + 5 * MIN, toMs: T0 + 8 * MIN, state: 'ok' },
      { fromMs: T0 + 8 * MIN, toMs: T0 + 10 * MIN, state: 'warning' },
    ]);
    expect(history([good(T0 + 20 * MIN)], T0, T0 + 22 * MIN)).toEqual([
      { fromMs: T0, toMs: T0 + 20 * MIN, state: 'bad' },
      { fromMs: T0 + 20 * MIN, toMs: T0 + 22 * MIN, state: 'ok' },
    ]);
    expect(history([])).toEqual([{ fromMs: T0, toMs: T0 + 60 * MIN, state: 'bad' }]);
  });

  it('keeps a warning report warning while silent, never better', () => {
    const spans = history([good(T0, { batteryVoltage: 3.4 })], T0, T0 + 20 * MIN);
    expect(spans.map((s) => s.state)).toEqual(['warning', 'bad']);
  });

  it('ignores reports at or after the end and before the report at the start', () => {
    const readings = [good(T0 - 60 * MIN, { linkQuality: 10 }), good(T0 - MIN), good(T0 + 70 * MIN)];
    expect(history(readings, T0, T0 + 2 * MIN)).toEqual([{ fromMs: T0, toMs: T0 + 2 * MIN, state: 'ok' }]);
    expect(history(readings, T0, T0)).toEqual([]);
  });

  it('agrees with nodeHealth at every minute of a mixed hour', () => {
    const readings = [
      good(T0 - 4 * MIN),
      good(T0 + 7 * MIN, { batteryVoltage: 3.25 }),
      good(T0 + 8 * MIN),
      good(T0 + 29 * MIN, { bufferUsage: 65 }),
      good(T0 + 31 * MIN, { displacementError: 0.5 }),
      good(T0 + 52 * MIN),
    ];
    const spans = history(readings);
    for (let ms = T0; ms < T0 + 60 * MIN; ms += 30_000)
      expect(stateIn(spans, ms), `at ${ms}`).toBe(stateAt(readings, ms));
    for (let k = 1; k < spans.length; k++) {
      expect(spans[k].fromMs).toBe(spans[k - 1].toMs);
      expect(spans[k].state).not.toBe(spans[k - 1].state);
    }
  });
});
