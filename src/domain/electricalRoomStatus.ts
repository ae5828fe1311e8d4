import { BATTERY_VOLTS, SILENT_AFTER_S } from './nodeHealth';

/**
 * The power and connection of what is installed in an electrical room, read from the node
 * diagnostics (issue 19 "Electrical RM installation"). One rule for the server's reply and the
 * console's legend.
 *
 * A sink's `batteryVoltage` is its supply voltage: on the mains a sink reads ~5 V; when the mains
 * is lost its backup takes over and the voltage falls below the sink's warning band (nodeHealth's
 * BATTERY_VOLTS.sink). Its connection follows nodeHealth's heartbeat bands. A gateway (a network)
 * has no diagnostics of its own: it is connected while any node of its network is heard within the
 * network-silence window (NETWORK_SILENCE), as the safety network watch reads silence.
 */

export const SINK_POWER_STATES = ['mains', 'low', 'unknown'] as const;
export type SinkPower = (typeof SINK_POWER_STATES)[number];

export const SINK_CONNECTION_STATES = ['connected', 'stale', 'silent'] as const;
export type SinkConnection = (typeof SINK_CONNECTION_STATES)[number];

export const GATEWAY_CONNECTION_STATES = ['connected', 'disconnected'] as const;
export type GatewayConnection = (typeof GATEWAY_CONNECTION_STATES)[number];

/** At or above this supply voltage a sink is on the mains. */
export const SINK_MAINS_MIN_VOLTS = BATTERY_VOLTS.sink.warning;

export interface SinkReport {
  tsMs: number;
  /** The report's battery_voltage, null when the report carried none. */
  supplyVoltage: number | null;
}

export interface SinkStatus {
  power: SinkPower;
  connection: SinkConnection;
  /** Seconds since the last report (0 for a report from the future); null: never reported. */
  ageSeconds: number | null;
}

/** Seconds from `tsMs` to `nowMs`, never negative (a gateway's clock may run ahead). */
function ageOf(tsMs: number, nowMs: number): number {
  return Math.max(0, (nowMs - tsMs) / 1000);
}

export function sinkConnection(ageSeconds: number | null): SinkConnection {
  if (ageSeconds === null || ageSeconds >= SILENT_AFTER_S.bad) return 'silent';
  if (ageSeconds >= SILENT_AFTER_S.warning) return 'stale';
  return 'connected';
}

/**
 * A sink's power and connection from its latest report (null: it never reported). The voltage of
 * a silent sink is old news, so its power is unknown, as is a report without a voltage.
 */
export function sinkStatus(report: SinkReport | null, nowMs: number): SinkStatus {
  const ageSeconds = report === null ? null : ageOf(report.tsMs, nowMs);
  const connection = sinkConnection(ageSeconds);
  const voltage = report?.supplyVoltage ?? null;
  let power: SinkPower = 'unknown';
  if (connection !== 'silent' && voltage !== null && Number.isFinite(voltage))
    power = voltage >= SINK_MAINS_MIN_VOLTS ? 'mains' : 'low';
  return { power, connection, ageSeconds };
}

/**
 * A gateway's connection: whether the latest report of any node of its network (null: none ever)
 * is within `silenceSeconds` of now. Exactly `silenceSeconds` old is silent, as the network watch
 * counts it.
 */
export function gatewayConnection(
  lastHeardMs: number | null,
  nowMs: number,
  silenceSeconds: number,
): GatewayConnection {
  if (lastHeardMs === null) return 'disconnected';
  return ageOf(lastHeardMs, nowMs) < silenceSeconds ? 'connected' : 'disconnected';
}

/** The latest of some report times (null when there are none). */
export function latestReport(times: Iterable<number | null>): number | null {
  let latest: number | null = null;
  for (const time of times) if (time !== null && (latest === null || time > latest)) latest = time;
  return latest;
}
