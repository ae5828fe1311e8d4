import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bucketScale,
  douglasPeucker,
  radialSimplify,
  simplifyPolyline,
  zoomBucket,
} from '../../src/domain/polylineSimplify';

/** Distance from (x, y) to the polyline `flat`. */
function distanceToLine(x: number, y: number, flat: readonly number[]): number {
  let best = Infinity;
  for (let i = 0; i + 3 < flat.length; i += 2) {
    const [ax, ay, bx, by] = [flat[i], flat[i + 1], flat[i + 2], flat[i + 3]];
    const dx = bx - ax;
    const dy = by - ay;
    const length = dx * dx + dy * dy;
    const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / length));
    best = Math.min(best, Math.hypot(x - (ax + t * dx), y - (ay + t * dy)));
  }
  if (flat.length === 2) best = Math.hypot(x - flat[0], y - flat[1]);
  return best;
}

describe('polyline simplification', () => {
  it('reduces a straight walk of many samples to its two ends', () => {
    const line = Array.from({ length: 1000 }, (_, i) => [i * 0.5, i * 0.25]).flat();
    expect(simplifyPolyline(line, 1)).toEqual([0, 0, 499.5, 249.75]);
  });

  it('keeps the corner of an L-shaped walk and drops the jitter along its legs', () => {
    const walk: number[] = [];
    for (let i = 0; i <= 100; i++) walk.push(i, i % 2 === 0 ? 0.2 : -0.2);
    for (let i = 1; i <= 100; i++) walk.push(100, i);
    expect(douglasPeucker(walk, 1)).toEqual([0, 0.2, 100, 0.2, 100, 100]);
    // With a tolerance smaller than the jitter, the jitter is drawn.
    expect(douglasPeucker(walk, 0.1).length).toBeGreaterThan(200);
  });

  it('drops points near the last kept one in the radial pass, keeping both ends', () => {
    expect(radialSimplify([0, 0, 0.5, 0, 1.5, 0, 1.6, 0, 1.7, 0], 1)).toEqual([0, 0, 1.5, 0, 1.7, 0]);
    expect(radialSimplify([3, 4], 1)).toEqual([3, 4]);
  });

  it('never moves the line by more than the tolerance (any walk)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -500, max: 500 }), fc.integer({ min: -500, max: 500 })), {
          minLength: 2,
          maxLength: 80,
        }),
        fc.double({ min: 0.5, max: 50, noNaN: true }),
        (points, tolerance) => {
          const flat = points.flat();
          const out = simplifyPolyline(flat, tolerance);
          expect(out.slice(0, 2)).toEqual(flat.slice(0, 2));
          expect(out.slice(-2)).toEqual(flat.slice(-2));
          expect(out.length).toBeLessThanOrEqual(flat.length);
          for (let i = 0; i < flat.length; i += 2) {
            expect(distanceToLine(flat[i], flat[i + 1], out)).toBeLessThanOrEqual(tolerance + 1e-9);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('puts zooms less than half an octave apart in one bucket', () => {
    expect(zoomBucket(1)).toBe(0);
    expect(zoomBucket(1.1)).toBe(zoomBucket(1));
    expect(zoomBucket(2)).toBe(2);
    expect(zoomBucket(0.5)).toBe(-2);
    expect(bucketScale(zoomBucket(4))).toBeCloseTo(4, 9);
  });
});
