import { describe, expect, it } from 'vitest';
import { findStops, STOP_MIN_MS, zoneVisits } from '../../src/domain/stops';

const T0 = Date.UTC(2026, 10, 26, 8);
/** About 1.11 m of latitude. */
const STEP = 1e-5;

/** A track built from legs: walk `seconds` positions, moving `dLat` per second, in `zone`. */
function track(legs: { seconds: number; dLat: number; zone: number }[]) {
  const times: number[] = [];
  const lat: number[] = [];
  const long: number[] = [];
  const zone: number[] = [];
  let t = T0;
  let y = 25.2;
  for (const leg of legs) {
    for (let s = 0; s < leg.seconds; s++) {
      times.push(t);
      lat.push(y);
      long.push(55.3);
      zone.push(leg.zone);
      t += 1000;
      y += leg.dLat;
    }
  }
  return { times, lat, long, zone };
}

describe('stops', () => {
  it('finds a six-minute stay between two walks, with its times and place', () => {
    const walk = track([
      { seconds: 60, dLat: STEP, zone: 0 },
      { seconds: 360, dLat: 0, zone: 4 },
      { seconds: 60, dLat: STEP, zone: 0 },
    ]);
    const stops = findStops(walk);
    expect(stops).toHaveLength(1);
    const [stop] = stops;
    // The worker arrived at the 59th second and left after the 419th; the positions within 5 m
    // of the spot (about four 1.1 m steps either side) belong to the stay.
    expect(stop.startMs).toBeGreaterThanOrEqual(T0 + 55_000);
    expect(stop.startMs).toBeLessThanOrEqual(T0 + 59_000);
    expect(stop.endMs).toBeGreaterThanOrEqual(T0 + 420_000);
    expect(stop.endMs).toBeLessThanOrEqual(T0 + 425_000);
    expect(stop.durationMs).toBeGreaterThanOrEqual(6 * 60_000);
    expect(stop.zone).toBe(4);
    expect(Math.abs(stop.lat - (25.2 + 59 * STEP))).toBeLessThan(STEP);
  });

  it('does not call a four-minute pause or a slow walk a stop', () => {
    expect(findStops(track([{ seconds: 240, dLat: 0, zone: 1 }]))).toEqual([]);
    // 0.1 m/s: 5 m is left behind within a minute.
    expect(findStops(track([{ seconds: 900, dLat: STEP / 10, zone: 1 }]))).toEqual([]);
    expect(findStops(track([{ seconds: 300, dLat: 0, zone: 1 }]))[0].durationMs).toBe(STOP_MIN_MS);
  });

  it('breaks a stay where the worker was not seen', () => {
    const stay = track([{ seconds: 600, dLat: 0, zone: 1 }]);
    // A 10-minute hole in the middle: two 5-minute halves, each a stop of its own.
    for (let i = 300; i < stay.times.length; i++) stay.times[i] += 10 * 60_000;
    expect(findStops(stay).map((s) => s.durationMs)).toEqual([300_000, 300_000]);
  });
});

describe('zone visits', () => {
  it('lists entering and leaving each zone, not the time outside', () => {
    const walk = track([
      { seconds: 10, dLat: STEP, zone: 0 },
      { seconds: 120, dLat: 0, zone: 4 },
      { seconds: 30, dLat: STEP, zone: 0 },
      { seconds: 45, dLat: 0, zone: 5 },
      { seconds: 5, dLat: 0, zone: 4 },
    ]);
    expect(zoneVisits(walk)).toEqual([
      { zoneId: 4, enteredMs: T0 + 10_000, leftMs: T0 + 130_000, durationMs: 120_000 },
      { zoneId: 5, enteredMs: T0 + 160_000, leftMs: T0 + 205_000, durationMs: 45_000 },
      { zoneId: 4, enteredMs: T0 + 205_000, leftMs: T0 + 210_000, durationMs: 5_000 },
    ]);
  });
});
