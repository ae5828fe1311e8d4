import { describe, expect, it } from 'vitest';
import { greatCircleDistance } from '../../src/domain/distance';
import { displacementMetres } from '../../src/domain/geo';

describe('displacementMetres', () => {
  const placed = { lat: 25.2, long: 55.27 };

  it('is zero for a node where it was placed', () => {
    expect(displacementMetres(placed, { ...placed })).toBe(0);
  });

  it('measures a node moved north in metres (1e-5 degrees of latitude ≈ 1.11 m)', () => {
    expect(displacementMetres(placed, { lat: 25.20001, long: 55.27 })).toBeCloseTo(1.112, 3);
  });

  it('shrinks an eastward move by the cosine of the latitude', () => {
    const east = displacementMetres(placed, { lat: 25.2, long: 55.27001 });
    expect(east).toBeCloseTo(1.112 * Math.cos((25.2 * Math.PI) / 180), 3);
  });

  it('tells a 0.3 m threshold apart at centimetres, both ways round', () => {
    // 0.25 m and 0.35 m north of the placed point.
    const near = { lat: placed.lat + 0.25 / 111_195, long: placed.long };
    const far = { lat: placed.lat + 0.35 / 111_195, long: placed.long };
    expect(displacementMetres(placed, near)).toBeCloseTo(0.25, 3);
    expect(displacementMetres(placed, far)).toBeCloseTo(0.35, 3);
    expect(displacementMetres(far, placed)).toBe(displacementMetres(placed, far));
  });

  it('is the great-circle distance over longer moves too', () => {
    const computed = { lat: 25.21, long: 55.29 };
    expect(displacementMetres(placed, computed)).toBe(greatCircleDistance(placed, computed));
    expect(displacementMetres(placed, computed)).toBeGreaterThan(2000);
  });
});
