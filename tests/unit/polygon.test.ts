import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  containsPoint,
  isSelfIntersecting,
  openRing,
  type Point,
  pointInPolygon,
  polygonProblem,
  segmentsIntersect,
} from '../../src/domain/polygon';

const square: Point[] = [
  [0, 0],
  [10, 0],
  [10, 10],
  [0, 10],
];

describe('polygonProblem', () => {
  it('accepts a simple polygon inside its container', () => {
    expect(
      polygonProblem(
        [
          [1, 1],
          [4, 1],
          [4, 4],
          [1, 4],
        ],
        square,
      ),
    ).toBeNull();
    expect(
      polygonProblem(
        [
          [1, 1],
          [9, 1],
          [5, 9],
        ],
        square,
      ),
    ).toBeNull();
  });

  it('needs three distinct points not on one line', () => {
    expect(
      polygonProblem([
        [1, 1],
        [2, 2],
      ]),
    ).toBe('tooFewPoints');
    expect(
      polygonProblem([
        [1, 1],
        [2, 2],
        [1, 1],
      ]),
    ).toBe('tooFewPoints');
    expect(
      polygonProblem([
        [1, 1],
        [1, 1],
        [2, 2],
        [2, 2],
      ]),
    ).toBe('tooFewPoints');
    expect(
      polygonProblem([
        [1, 1],
        [2, 2],
        [3, 3],
      ]),
    ).toBe('tooFewPoints');
  });

  it('finds crossing edges, including a zero-area figure of eight', () => {
    expect(
      polygonProblem([
        [1, 1],
        [3, 3],
        [3, 1],
        [1, 3],
      ]),
    ).toBe('selfIntersecting');
    expect(
      polygonProblem([
        [0, 0],
        [4, 0],
        [4, 4],
        [2, -1],
      ]),
    ).toBe('selfIntersecting');
  });

  it('finds a vertex outside the container, but allows the boundary', () => {
    expect(
      polygonProblem(
        [
          [1, 1],
          [11, 1],
          [5, 5],
        ],
        square,
      ),
    ).toBe('outside');
    expect(polygonProblem(square, square)).toBeNull();
  });

  it('ignores a repeated closing vertex', () => {
    expect(
      openRing([
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 0],
      ]),
    ).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
    ]);
    expect(
      polygonProblem(
        [
          [1, 1],
          [4, 1],
          [4, 4],
          [1, 1],
        ],
        square,
      ),
    ).toBeNull();
  });
});

describe('isSelfIntersecting', () => {
  it('sees a ring touching itself at a vertex and an edge folding back', () => {
    expect(
      isSelfIntersecting([
        [0, 0],
        [2, 2],
        [4, 0],
        [4, 4],
        [2, 2],
        [0, 4],
      ]),
    ).toBe(true);
    expect(
      isSelfIntersecting([
        [0, 0],
        [4, 0],
        [2, 0],
        [2, 3],
      ]),
    ).toBe(true);
    expect(isSelfIntersecting(square)).toBe(false);
  });

  it('never flags a convex polygon (vertices sorted by angle around a centre)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 359 }), { minLength: 3, maxLength: 24 }),
        (degrees) => {
          const ring = [...degrees]
            .sort((a, b) => a - b)
            .map((d): Point => [Math.cos((d * Math.PI) / 180) * 100, Math.sin((d * Math.PI) / 180) * 100]);
          return !isSelfIntersecting(ring);
        },
      ),
    );
  });
});

describe('segmentsIntersect and point in polygon', () => {
  it('detects crossing, touching and disjoint segments', () => {
    expect(segmentsIntersect([0, 0], [2, 2], [0, 2], [2, 0])).toBe(true);
    expect(segmentsIntersect([0, 0], [2, 0], [2, 0], [3, 1])).toBe(true);
    expect(segmentsIntersect([0, 0], [1, 0], [2, 0], [3, 0])).toBe(false);
    expect(segmentsIntersect([0, 0], [1, 1], [0, 1], [0.4, 0.6])).toBe(false);
  });

  it('tells inside from outside, with the boundary counted in by containsPoint', () => {
    expect(pointInPolygon([5, 5], square)).toBe(true);
    expect(pointInPolygon([15, 5], square)).toBe(false);
    expect(containsPoint(square, [10, 5])).toBe(true);
    expect(containsPoint(square, [0, 0])).toBe(true);
    expect(containsPoint(square, [10.0001, 5])).toBe(false);
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 9.999, noNaN: true }),
        fc.double({ min: 0.001, max: 9.999, noNaN: true }),
        (x, y) => pointInPolygon([x, y], square),
      ),
    );
  });
});
