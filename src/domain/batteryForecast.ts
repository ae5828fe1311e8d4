import type { BatteryForecast } from './schemas/nodes';

/**
 * When a node's battery reaches its cut-off voltage (issue "Maintenance kit and nodes"): the
 * least-squares line of its voltage over the last BATTERY_TREND_DAYS days, extended to the
 * cut-off. The server passes hourly averages, so a node reporting every 10 s and one reporting
 * every 15 min weigh the same and the fit stays ~72 points whatever the rate.
 */

export const BATTERY_TREND_DAYS = 3;
/** Fewer points than this, or a span shorter than FORECAST_MIN_SPAN_MS, cannot tell a trend. */
export const FORECAST_MIN_POINTS = 6;
export const FORECAST_MIN_SPAN_MS = 6 * 3_600_000;
/**
 * A slope above this (V/day) is flat: a 3.6 V cell falling 0.002 V a day still has 200 days
 * before 3.2 V, and a 3-day window of readings to 0.01 V cannot tell slower drains from noise.
 */
export const FLAT_VOLTS_PER_DAY = -0.002;
/** A crossing further away than this is no forecast worth showing: flat. */
export const FORECAST_HORIZON_MS = 5 * 365 * 86_400_000;

const DAY_MS = 86_400_000;

export interface VoltagePoint {
  ms: number;
  volts: number;
}

export interface BatteryForecastInput {
  /** The voltage over the last days, in any order (hourly averages from the server). */
  points: readonly VoltagePoint[];
  cutoffVolts: number;
  nowMs: number;
  /** The node's latest reading, when it is newer than the last point's average; else the last point. */
  latestVolts?: number | null;
}

interface Line {
  voltsPerDay: number;
  /** Standard error of the slope (V/day); 0 when the points lie exactly on the line. */
  slopeError: number;
  meanMs: number;
  meanVolts: number;
}

/** The least-squares line of volts over days, centred on the points' mean time for precision. */
function fitLine(points: readonly VoltagePoint[]): Line | null {
  const n = points.length;
  if (n < 2) return null;
  let meanMs = 0;
  let meanVolts = 0;
  for (const p of points) {
    meanMs += p.ms / n;
    meanVolts += p.volts / n;
  }
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    const x = (p.ms - meanMs) / DAY_MS;
    sxx += x * x;
    sxy += x * (p.volts - meanVolts);
  }
  if (sxx === 0) return null;
  const voltsPerDay = sxy / sxx;
  let residuals = 0;
  for (const p of points) {
    const fitted = meanVolts + voltsPerDay * ((p.ms - meanMs) / DAY_MS);
    residuals += (p.volts - fitted) ** 2;
  }
  const slopeError = n > 2 ? Math.sqrt(residuals / (n - 2) / sxx) : 0;
  return { voltsPerDay, slopeError, meanMs, meanVolts };
}

/** The forecast of one node (BatteryForecastSchema's `basis` says how it was reached). */
export function batteryForecast(input: BatteryForecastInput): BatteryForecast {
  const { points, cutoffVolts, nowMs } = input;
  const forecast = (
    basis: BatteryForecast['basis'],
    voltsPerDay: number | null,
    reachesCutoffAtMs: number | null = null,
  ): BatteryForecast => ({
    basis,
    reachesCutoffAt: reachesCutoffAtMs === null ? null : new Date(reachesCutoffAtMs).toISOString(),
    voltsPerDay: voltsPerDay === null ? null : Number(voltsPerDay.toFixed(5)),
    cutoffVolts,
  });
  let latest: VoltagePoint | null = null;
  let firstMs = Number.POSITIVE_INFINITY;
  for (const p of points) {
    if (latest === null || p.ms > latest.ms) latest = p;
    if (p.ms < firstMs) firstMs = p.ms;
  }
  const latestVolts = input.latestVolts ?? latest?.volts ?? null;
  const line = fitLine(points);
  const enough =
    line !== null &&
    latest !== null &&
    points.length >= FORECAST_MIN_POINTS &&
    latest.ms - firstMs >= FORECAST_MIN_SPAN_MS;
  if (latestVolts !== null && latestVolts <= cutoffVolts)
    return forecast('belowCutoff', enough ? line.voltsPerDay : null);
  if (!enough) return forecast('tooShort', null);
  // Not measurably falling: above the flat threshold, or within three standard errors of level
  // (noise alone fits a slope past two about one time in twenty).
  if (line.voltsPerDay > FLAT_VOLTS_PER_DAY || line.voltsPerDay + 3 * line.slopeError >= 0)
    return forecast('flat', line.voltsPerDay);
  const crossingMs = line.meanMs + ((cutoffVolts - line.meanVolts) / line.voltsPerDay) * DAY_MS;
  if (crossingMs - nowMs > FORECAST_HORIZON_MS) return forecast('flat', line.voltsPerDay);
  // A line already past the cut-off while the latest reading is not: it may cross any moment.
  return forecast('trend', line.voltsPerDay, Math.max(crossingMs, nowMs));
}
