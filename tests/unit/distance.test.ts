import { describe, expect, it } from 'vitest';
import {
  distanceMatches,
  EARTH_RADIUS_M,
  greatCircleDistance,
  toTwoDecimals,
} from '../../src/domain/distance';

describe('greatCircleDistance', () => {
  it('is zero for one point and a quarter meridian from the equator to a pole', () => {
    expect(greatCircleDistance({ lat: 25.2, long: 55.3 }, { lat: 25.2, long: 55.3 })).toBe(0);
    expect(greatCircleDistance({ lat: 0, long: 0 }, { lat: 90, long: 0 })).toBeCloseTo(
      (Math.PI / 2) * EARTH_RADIUS_M,
      6,
    );
  });

  it('uses the 6371 km earth radius: one degree of longitude on the equator', () => {
    expect(greatCircleDistance({ lat: 0, long: 0 }, { lat: 0, long: 1 })).toBeCloseTo(111_194.93, 2);
  });

  it('is symmetric and measures a building-sized span near Dubai', () => {
    const a = { lat: 25.2, long: 55.3 };
    const b = { lat: 25.2, long: 55.300794 };
    expect(greatCircleDistance(a, b)).toBeCloseTo(greatCircleDistance(b, a), 9);
    expect(greatCircleDistance(a, b)).toBeGreaterThan(79);
    expect(greatCircleDistance(a, b)).toBeLessThan(81);
  });
});

describe('distanceMatches', () => {
  const a = { lat: 25.21, long: 55.31 };
  const b = { lat: 25.21, long: 55.3108 };
  const exact = greatCircleDistance(a, b);

  it('compares to two decimals', () => {
    expect(distanceMatches(exact, a, b)).toBe(true);
    expect(distanceMatches(toTwoDecimals(exact), a, b)).toBe(true);
    expect(distanceMatches(exact + 0.01, a, b)).toBe(false);
    expect(distanceMatches(Number.NaN, a, b)).toBe(false);
  });

  it('rounds to two decimals', () => {
    expect(toTwoDecimals(80.456)).toBe(80.46);
    expect(toTwoDecimals(80.454)).toBe(80.45);
  });
});
