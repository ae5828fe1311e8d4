/**
 * The health of an anchor or sink (issue "Maintenance kit and nodes"): one rule, used by the
 * server (lists, state history, the toolkit's order) and the console (highlighted thresholds).
 * A node is judged on five things: how long since it last reported (heartbeat age), its battery,
 * its buffer use, its best radio link and, for an anchor, how far it is from where it was placed.
 */

export const NODE_TYPES = ['anchor', 'sink'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export const NODE_HEALTH_STATES = ['ok', 'warning', 'bad'] as const;
export type NodeHealthState = (typeof NODE_HEALTH_STATES)[number];

export const NODE_PROBLEM_KINDS = ['silent', 'lowBattery', 'weakLink', 'bufferFilling', 'moved'] as const;
export type NodeProblemKind = (typeof NODE_PROBLEM_KINDS)[number];

/**
 * One threshold crossed: its kind, how bad, and the value that crossed it (s, V, %, quality, m);
 * null for a node that never reported.
 */
export interface NodeProblem {
  kind: NodeProblemKind;
  state: Exclude<NodeHealthState, 'ok'>;
  value: number | null;
}

export interface NodeHealth {
  state: NodeHealthState;
  /** 100 for a node with no problem, lower the more and the worse its problems; never below 0. */
  score: number;
  /** Worst first. */
  problems: NodeProblem[];
}

/** What the rule reads of a node's latest report. */
export interface NodeHealthReading {
  tsMs: number;
  batteryVoltage: number;
  bufferUsage: number;
  linkQuality: number;
  /** Metres between placed and computed position; null when either is unknown. */
  displacementError: number | null;
}

export interface Band {
  warning: number;
  bad: number;
}

/** Seconds since the last report. Gateways report every 10–60 s. */
export const SILENT_AFTER_S: Band = { warning: 180, bad: 900 };
/** Buffer use in percent: a sink whose buffer fills loses messages when it is full. */
export const BUFFER_USAGE_PERCENT: Band = { warning: 60, bad: 85 };
/** Link quality 0–100 of the node's link to its route (below is worse). */
export const LINK_QUALITY: Band = { warning: 50, bad: 30 };

/**
 * Battery voltages per node type (below is worse). Anchors run on a 3.6 V lithium cell whose
 * electronics stop at 3.2 V; sinks run on a 5 V supply with a backup that cuts out at 4.2 V.
 */
export const BATTERY_VOLTS: Record<NodeType, Band & { cutoff: number }> = {
  anchor: { warning: 3.45, bad: 3.3, cutoff: 3.2 },
  sink: { warning: 4.6, bad: 4.4, cutoff: 4.2 },
};

/** "Anchor moved" threshold of a site that set none (metres; surveyed anchors are good to 0.1 m). */
export const DEFAULT_ANCHOR_MOVED_THRESHOLD_M = 0.3;
/** An anchor this many times past the site's threshold is bad, not only a warning. */
export const MOVED_BAD_FACTOR = 3;
/** The displacement must stay over the threshold this long before an incident is raised. */
export const ANCHOR_MOVED_HOLD_MS = 60_000;

const PENALTY: Record<Exclude<NodeHealthState, 'ok'>, number> = { warning: 15, bad: 40 };
const STATE_RANK: Record<NodeHealthState, number> = { ok: 0, warning: 1, bad: 2 };

export function isNodeType(value: unknown): value is NodeType {
  return typeof value === 'string' && (NODE_TYPES as readonly string[]).includes(value);
}

/** The worse of two states. */
export function worseState(a: NodeHealthState, b: NodeHealthState): NodeHealthState {
  return STATE_RANK[a] >= STATE_RANK[b] ? a : b;
}

/** Negative when `a` is worse than `b`: the toolkit's "worst first" order. */
export function compareHealthWorstFirst(a: NodeHealth, b: NodeHealth): number {
  return STATE_RANK[b.state] - STATE_RANK[a.state] || a.score - b.score;
}

function above(value: number, band: Band): NodeProblem['state'] | null {
  if (value >= band.bad) return 'bad';
  if (value >= band.warning) return 'warning';
  return null;
}

function below(value: number, band: Band): NodeProblem['state'] | null {
  if (value < band.bad) return 'bad';
  if (value < band.warning) return 'warning';
  return null;
}

export interface NodeHealthContext {
  type: NodeType;
  nowMs: number;
  /** The site's anchor-moved threshold in metres. */
  movedThresholdM: number;
}

/**
 * A node's health at `nowMs` from its latest report at or before then (null: it never reported,
 * which is as bad as silent). A sink is never "moved": it is not used for positioning.
 */
export function nodeHealth(reading: NodeHealthReading | null, context: NodeHealthContext): NodeHealth {
  const problems: NodeProblem[] = [];
  if (reading === null) {
    problems.push({ kind: 'silent', state: 'bad', value: null });
    return summarise(problems);
  }
  const push = (kind: NodeProblemKind, state: NodeProblem['state'] | null, value: number) => {
    if (state) problems.push({ kind, state, value });
  };
  const ageS = Math.max(0, (context.nowMs - reading.tsMs) / 1000);
  push('silent', above(ageS, SILENT_AFTER_S), ageS);
  push('lowBattery', below(reading.batteryVoltage, BATTERY_VOLTS[context.type]), reading.batteryVoltage);
  push('weakLink', below(reading.linkQuality, LINK_QUALITY), reading.linkQuality);
  push('bufferFilling', above(reading.bufferUsage, BUFFER_USAGE_PERCENT), reading.bufferUsage);
  if (context.type === 'anchor' && reading.displacementError !== null) {
    const threshold = context.movedThresholdM;
    const moved: Band = { warning: threshold, bad: threshold * MOVED_BAD_FACTOR };
    // Strictly over the threshold, as the incident rule reads it.
    const state = reading.displacementError > threshold ? above(reading.displacementError, moved) : null;
    push('moved', state, reading.displacementError);
  }
  return summarise(problems);
}

function summarise(problems: NodeProblem[]): NodeHealth {
  problems.sort((a, b) => STATE_RANK[b.state] - STATE_RANK[a.state]);
  const state = problems.reduce<NodeHealthState>((worst, p) => worseState(worst, p.state), 'ok');
  const score = Math.max(0, 100 - problems.reduce((sum, p) => sum + PENALTY[p.state], 0));
  return { state, score, problems };
}
