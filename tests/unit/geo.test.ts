import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FloorCorners, LatLong } from '../../src/domain/floor';
import { floorTransform, imagePoint, pointInPolygon } from '../../src/domain/geo';

const size = { width: 2000, height: 1200 };

/** A tilted parallelogram near Dubai, about 110 m × 70 m. */
const parallelogram: FloorCorners = {
  a: { lat: 25.2, long: 55.27 },
  b: { lat: 25.2003, long: 55.271 },
  c: { lat: 25.1997, long: 55.2713 },
  d: { lat: 25.1994, long: 55.2703 },
};

/** A trapezoid: the image needs a real perspective (not affine) transform to fit it. */
const trapezoid: FloorCorners = {
  a: { lat: 51.5, long: -0.1 },
  b: { lat: 51.5, long: -0.099 },
  c: { lat: 51.4992, long: -0.0988 },
  d: { lat: 51.4992, long: -0.1004 },
};

function bilinear(c: FloorCorners, u: number, v: number): LatLong {
  const mix = (k: 'lat' | 'long') =>
    (1 - u) * (1 - v) * c.a[k] + u * (1 - v) * c.b[k] + u * v * c.c[k] + (1 - u) * v * c.d[k];
  return { lat: mix('lat'), long: mix('long') };
}

/** Where the segments p1p2 and p3p4 cross. */
function intersection(p1: LatLong, p2: LatLong, p3: LatLong, p4: LatLong): LatLong {
  const d = (p1.long - p2.long) * (p3.lat - p4.lat) - (p1.lat - p2.lat) * (p3.long - p4.long);
  const t = ((p1.long - p3.long) * (p3.lat - p4.lat) - (p1.lat - p3.lat) * (p3.long - p4.long)) / d;
  return { long: p1.long + t * (p2.long - p1.long), lat: p1.lat + t * (p2.lat - p1.lat) };
}

/** Convex floors anywhere on earth, 10 m to 1 km wide, rotated, with each corner pushed up to 15%. */
const floors = fc
  .record({
    lat: fc.double({ min: -80, max: 80, noNaN: true }),
    long: fc.double({ min: -179, max: 179, noNaN: true }),
    width: fc.double({ min: 1e-4, max: 1e-2, noNaN: true }),
    aspect: fc.double({ min: 0.3, max: 3, noNaN: true }),
    angle: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
    jitter: fc.array(fc.double({ min: -0.15, max: 0.15, noNaN: true }), { minLength: 8, maxLength: 8 }),
  })
  .map(({ lat, long, width, aspect, angle, jitter }): FloorCorners => {
    const height = width * aspect;
    const corner = (i: number, x: number, y: number): LatLong => {
      const jx = x + jitter[2 * i] * width;
      const jy = y + jitter[2 * i + 1] * height;
      // Image y grows downwards, latitude upwards: the top edge has the larger latitude.
      return {
        long: long + jx * Math.cos(angle) - jy * Math.sin(angle),
        lat: lat - (jx * Math.sin(angle) + jy * Math.cos(angle)),
      };
    };
    return {
      a: corner(0, 0, 0),
      b: corner(1, width, 0),
      c: corner(2, width, height),
      d: corner(3, 0, height),
    };
  });

const unit = fc.double({ min: 0, max: 1, noNaN: true });

describe('floorTransform', () => {
  it('maps the corners a, b, c, d to the image corners and back', () => {
    for (const corners of [parallelogram, trapezoid]) {
      const t = floorTransform(corners, size);
      const expected = { a: [0, 0], b: [size.width, 0], c: [size.width, size.height], d: [0, size.height] };
      for (const key of ['a', 'b', 'c', 'd'] as const) {
        const p = t.toImage(corners[key]);
        expect(p.x).toBeCloseTo(expected[key][0], 6);
        expect(p.y).toBeCloseTo(expected[key][1], 6);
        const back = t.toGeo(imagePoint(expected[key][0], expected[key][1]));
        expect(Math.abs(back.lat - corners[key].lat)).toBeLessThan(1e-12);
        expect(Math.abs(back.long - corners[key].long)).toBeLessThan(1e-12);
      }
    }
  });

  it('maps the centre of a parallelogram floor to the centre of the image', () => {
    const t = floorTransform(parallelogram, size);
    const centre = {
      lat: (parallelogram.a.lat + parallelogram.c.lat) / 2,
      long: (parallelogram.a.long + parallelogram.c.long) / 2,
    };
    const p = t.toImage(centre);
    expect(p.x).toBeCloseTo(1000, 6);
    expect(p.y).toBeCloseTo(600, 6);
    // A quarter along the top edge stays a quarter along: an affine floor has no perspective.
    const quarter = {
      lat: parallelogram.a.lat + (parallelogram.b.lat - parallelogram.a.lat) / 4,
      long: parallelogram.a.long + (parallelogram.b.long - parallelogram.a.long) / 4,
    };
    expect(t.toImage(quarter).x).toBeCloseTo(500, 6);
    expect(t.toImage(quarter).y).toBeCloseTo(0, 6);
  });

  it('maps the crossing of a trapezoid floor’s diagonals to the image centre (perspective)', () => {
    const t = floorTransform(trapezoid, size);
    const crossing = intersection(trapezoid.a, trapezoid.c, trapezoid.b, trapezoid.d);
    const p = t.toImage(crossing);
    expect(p.x).toBeCloseTo(1000, 6);
    expect(p.y).toBeCloseTo(600, 6);
    // The midpoint of the corners is not the centre here, which an affine fit would claim.
    const naive = t.toImage(bilinear(trapezoid, 0.5, 0.5));
    expect(Math.hypot(naive.x - 1000, naive.y - 600)).toBeGreaterThan(1);
  });

  it('round-trips lat/long → image → lat/long within 1e-9 degrees for points inside any floor', () => {
    fc.assert(
      fc.property(floors, unit, unit, (corners, u, v) => {
        const t = floorTransform(corners, size);
        const geo = bilinear(corners, u, v);
        const image = t.toImage(geo);
        // Inside the floor means inside the image.
        expect(image.x).toBeGreaterThanOrEqual(-1e-6);
        expect(image.x).toBeLessThanOrEqual(size.width + 1e-6);
        expect(image.y).toBeGreaterThanOrEqual(-1e-6);
        expect(image.y).toBeLessThanOrEqual(size.height + 1e-6);
        const back = t.toGeo(image);
        expect(Math.abs(back.lat - geo.lat)).toBeLessThan(1e-9);
        expect(Math.abs(back.long - geo.long)).toBeLessThan(1e-9);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips image → lat/long → image to within a micro-pixel', () => {
    // Not 1e-9 px: a double holds latitude ~50 to about 1e-14°, which is ~1e-8 px on a 10 m floor.
    fc.assert(
      fc.property(floors, unit, unit, (corners, u, v) => {
        const t = floorTransform(corners, size);
        const image = imagePoint(u * size.width, v * size.height);
        const back = t.toImage(t.toGeo(image));
        expect(Math.abs(back.x - image.x)).toBeLessThan(1e-6);
        expect(Math.abs(back.y - image.y)).toBeLessThan(1e-6);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses corners that do not form a convex quadrilateral', () => {
    const bowTie = { ...parallelogram, c: parallelogram.d, d: parallelogram.c };
    expect(() => floorTransform(bowTie, size)).toThrow(RangeError);
    const collapsed = { a: parallelogram.a, b: parallelogram.a, c: parallelogram.a, d: parallelogram.a };
    expect(() => floorTransform(collapsed, size)).toThrow(RangeError);
    expect(() => floorTransform(parallelogram, { width: 0, height: 10 })).toThrow(RangeError);
  });
});

describe('pointInPolygon', () => {
  const square = [imagePoint(0, 0), imagePoint(10, 0), imagePoint(10, 10), imagePoint(0, 10)];
  const notch = [
    imagePoint(0, 0),
    imagePoint(10, 0),
    imagePoint(5, 5),
    imagePoint(10, 10),
    imagePoint(0, 10),
  ];
  it('tells inside from outside, concave rings included', () => {
    expect(pointInPolygon(imagePoint(5, 5), square)).toBe(true);
    expect(pointInPolygon(imagePoint(11, 5), square)).toBe(false);
    expect(pointInPolygon(imagePoint(8, 5), notch)).toBe(false);
    expect(pointInPolygon(imagePoint(2, 5), notch)).toBe(true);
  });
});
