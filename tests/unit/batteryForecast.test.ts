import { describe, expect, it } from 'vitest';
import { BATTERY_TREND_DAYS, batteryForecast, type VoltagePoint } from '../../src/domain/batteryForecast';
import { BATTERY_VOLTS } from '../../src/domain/nodeHealth';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 26, 12);
const ANCHOR_CUTOFF = BATTERY_VOLTS.anchor.cutoff;

/** Hourly points over the last `hours` hours ending at NOW, volts from `voltsAt(ms)`. */
function hourly(hours: number, voltsAt: (ms: number) => number): VoltagePoint[] {
  const points: VoltagePoint[] = [];
  for (let h = hours - 1; h >= 0; h--) {
    const ms = NOW - h * HOUR;
    points.push({ ms, volts: voltsAt(ms) });
  }
  return points;
}

/** A deterministic pseudo-random noise in [-amplitude, amplitude]. */
function noise(seed: number, amplitude: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return (state / 2_147_483_648) * 2 * amplitude - amplitude;
  };
}

/** Volts on a straight line: `voltsNow` at NOW, changing `perDay` volts a day (negative: draining). */
const line = (voltsNow: number, perDay: number) => (ms: number) => voltsNow + ((ms - NOW) / DAY) * perDay;

const forecastOf = (points: VoltagePoint[], latestVolts?: number) =>
  batteryForecast({ points, cutoffVolts: ANCHOR_CUTOFF, nowMs: NOW, latestVolts });

describe('battery forecast', () => {
  it('puts a linear drain on the date the line reaches the cut-off, within minutes', () => {
    // 3.5 V now, falling 0.05 V a day: 3.2 V in exactly 6 days.
    const points = hourly(BATTERY_TREND_DAYS * 24, line(3.5, -0.05));
    const forecast = forecastOf(points);
    expect(forecast.basis).toBe('trend');
    expect(forecast.cutoffVolts).toBe(ANCHOR_CUTOFF);
    expect(forecast.voltsPerDay).toBeCloseTo(-0.05, 5);
    const expected = NOW + 6 * DAY;
    expect(Math.abs(Date.parse(forecast.reachesCutoffAt ?? '') - expected)).toBeLessThan(60_000);
  });

  it('tolerates noise: the date stays within hours of the true one', () => {
    const jitter = noise(7, 0.02);
    const points = hourly(BATTERY_TREND_DAYS * 24, (ms) => line(3.5, -0.05)(ms) + jitter());
    const forecast = forecastOf(points);
    expect(forecast.basis).toBe('trend');
    expect(Math.abs(Date.parse(forecast.reachesCutoffAt ?? '') - (NOW + 6 * DAY))).toBeLessThan(12 * HOUR);
  });

  it('calls a level battery with noise flat, never a date', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const jitter = noise(seed, 0.02);
      const forecast = forecastOf(hourly(72, () => 3.55 + jitter()));
      expect(forecast.basis, `seed ${seed}`).toBe('flat');
      expect(forecast.reachesCutoffAt).toBeNull();
      expect(forecast.voltsPerDay).not.toBeNull();
    }
  });

  it('calls a rising battery flat', () => {
    const forecast = forecastOf(hourly(72, line(3.4, 0.03)));
    expect(forecast.voltsPerDay ?? 0).toBeGreaterThan(0);
    expect(forecast.basis).toBe('flat');
  });

  it('calls a drain so slow it would take over five years flat', () => {
    // 0.0021 V a day with 4.8 V to go is over six years; from 3.6 V to 3.2 V it is 190 days.
    const forecast = batteryForecast({
      points: hourly(72, line(9, -0.0021)),
      cutoffVolts: 4.2,
      nowMs: NOW,
    });
    expect(forecast.basis).toBe('flat');
    expect(forecastOf(hourly(72, line(3.6, -0.0021))).basis).toBe('trend');
  });

  it('says too short for few points or a short span, with no slope', () => {
    const fewPoints = forecastOf(hourly(5, line(3.5, -0.2)));
    expect(fewPoints).toEqual({
      basis: 'tooShort',
      reachesCutoffAt: null,
      voltsPerDay: null,
      cutoffVolts: 3.2,
    });
    // Sixty points over 59 minutes: many, but one hour tells nothing of days.
    const minutes = Array.from({ length: 60 }, (_, m) => ({ ms: NOW - m * 60_000, volts: 3.5 - m * 0.001 }));
    expect(forecastOf(minutes).basis).toBe('tooShort');
    expect(forecastOf([]).basis).toBe('tooShort');
  });

  it('says below the cut-off when the latest reading is at or under it, whatever the trend', () => {
    const draining = hourly(72, line(3.2, -0.05));
    const below = forecastOf(draining);
    expect(below.basis).toBe('belowCutoff');
    expect(below.reachesCutoffAt).toBeNull();
    expect(below.voltsPerDay).toBeCloseTo(-0.05, 5);
    // The node's own latest reading counts even when the hourly averages are above.
    expect(
      forecastOf(
        hourly(72, () => 3.5),
        3.19,
      ).basis,
    ).toBe('belowCutoff');
    expect(forecastOf([], 3.1)).toMatchObject({ basis: 'belowCutoff', voltsPerDay: null });
  });

  it('gives now, not a past date, when the line is past the cut-off but the latest reading is not', () => {
    // A steep fall that levels off just above the cut-off: the fitted line crosses it already.
    const points = hourly(72, (ms) => Math.max(3.21, line(3.0, -0.3)(ms)));
    const forecast = forecastOf(points);
    expect(forecast.basis).toBe('trend');
    expect(Date.parse(forecast.reachesCutoffAt ?? '')).toBeGreaterThanOrEqual(NOW);
  });

  it('reads points in any order', () => {
    const points = hourly(72, line(3.5, -0.05)).reverse();
    expect(forecastOf(points).basis).toBe('trend');
  });
});
