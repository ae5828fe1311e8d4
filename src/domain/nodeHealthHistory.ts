import {
  type NodeHealthContext,
  type NodeHealthReading,
  type NodeHealthState,
  nodeHealth,
  SILENT_AFTER_S,
  worseState,
} from './nodeHealth';

/**
 * A node's health state over time (OK / warning / bad), as `nodeHealth` would have judged it at
 * every instant of [fromMs, toMs): after each report, that report's own health; once it is
 * SILENT_AFTER_S.warning old with no newer one, at least warning; SILENT_AFTER_S.bad old, bad.
 * Before the node's first report it is bad, as a node that never reported is.
 */

export interface HealthSpan {
  fromMs: number;
  toMs: number;
  state: NodeHealthState;
}

export interface HealthHistoryInput {
  /**
   * The node's reports in time order: those in the range and, to know the state at `fromMs`, the
   * latest one before it (any earlier are ignored).
   */
  readings: readonly NodeHealthReading[];
  fromMs: number;
  toMs: number;
  context: Omit<NodeHealthContext, 'nowMs'>;
}

const WARNING_AFTER_MS = SILENT_AFTER_S.warning * 1000;
const BAD_AFTER_MS = SILENT_AFTER_S.bad * 1000;

export function nodeHealthHistory(input: HealthHistoryInput): HealthSpan[] {
  const { readings, fromMs, toMs, context } = input;
  const spans: HealthSpan[] = [];
  if (toMs <= fromMs) return spans;
  const add = (start: number, end: number, state: NodeHealthState) => {
    const from = Math.max(start, fromMs);
    const to = Math.min(end, toMs);
    if (to <= from) return;
    const last = spans[spans.length - 1];
    if (last && last.state === state && last.toMs === from) last.toMs = to;
    else spans.push({ fromMs: from, toMs: to, state });
  };
  const first = readings.length > 0 ? readings[0].tsMs : toMs;
  add(fromMs, first, nodeHealth(null, { ...context, nowMs: fromMs }).state);
  for (let k = 0; k < readings.length; k++) {
    const reading = readings[k];
    if (reading.tsMs >= toMs) break;
    const next = k + 1 < readings.length ? readings[k + 1].tsMs : toMs;
    if (next <= fromMs) continue;
    // Judged at its own time: every problem but silence, which the gap to the next one adds.
    const own = nodeHealth(reading, { ...context, nowMs: reading.tsMs }).state;
    const warnAt = reading.tsMs + WARNING_AFTER_MS;
    const badAt = reading.tsMs + BAD_AFTER_MS;
    add(reading.tsMs, Math.min(next, warnAt), own);
    add(warnAt, Math.min(next, badAt), worseState(own, 'warning'));
    add(badAt, next, 'bad');
  }
  return spans;
}
