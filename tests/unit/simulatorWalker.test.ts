import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomTarget, type SimFloor, simFloor } from '../../server/simulator/floorGeometry';
import { stepWalker, WALKING_SPEED, type Walker } from '../../server/simulator/helmetWalker';
import type { FloorCorners, LongLat } from '../../src/domain/floor';
import { imagePoint, pointInPolygon } from '../../src/domain/geo';
import { seededRandom } from '../../src/domain/seededRandom';

// 80 m × 50 m near Dubai, drawn on a 1600 × 1000 px blueprint: 0.05 m per pixel.
const corners: FloorCorners = {
  a: { lat: 25.2, long: 55.3 },
  b: { lat: 25.2, long: 55.300794 },
  c: { lat: 25.199551, long: 55.300794 },
  d: { lat: 25.199551, long: 55.3 },
};
const at = (x: number, y: number): LongLat => [
  corners.a.long + x * (corners.b.long - corners.a.long),
  corners.a.lat - y * (corners.a.lat - corners.d.lat),
];
const box = (x0: number, y0: number, x1: number, y1: number) => [
  at(x0, y0),
  at(x1, y0),
  at(x1, y1),
  at(x0, y1),
];

const floor = (id: number, buildingId: number, withZones = true): SimFloor =>
  simFloor({
    id,
    buildingId,
    corners,
    image: { width: 1600, height: 1000 },
    zones: withZones
      ? [
          { kind: 'work', coordinates: box(0.1, 0.1, 0.6, 0.6) },
          { kind: 'restricted', coordinates: box(0.3, 0.3, 0.4, 0.4) },
          { kind: 'assembly', coordinates: box(0.7, 0.7, 0.9, 0.9) },
        ]
      : [{ kind: 'restricted', coordinates: box(0, 0, 0.5, 1) }],
  });

describe('the simulated walk', () => {
  it('measures the floor in metres per pixel', () => {
    expect(floor(1, 1).metresPerPixel).toBeCloseTo(0.05, 2);
  });

  it('picks targets in work or assembly zones and never in a restricted one', () => {
    const f = floor(1, 1);
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const target = randomTarget(seededRandom(seed), f);
        expect(f.restricted.some((ring) => pointInPolygon(target, ring))).toBe(false);
        expect(f.walkable.some((ring) => pointInPolygon(target, ring))).toBe(true);
      }),
    );
    const bare = floor(2, 1, false);
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const target = randomTarget(seededRandom(seed), bare);
        expect(target.x).toBeGreaterThanOrEqual(800);
        expect(target.x).toBeLessThanOrEqual(1600);
      }),
    );
  });

  it('walks towards its target at walking speed and then stands there a while', () => {
    const f = floor(1, 1);
    const random = seededRandom(3);
    let walker: Walker = { floor: f, at: imagePoint(200, 200), target: imagePoint(900, 200), dwell: 0 };
    let seconds = 0;
    while (walker.target !== null) {
      const before = walker.at;
      walker = stepWalker(random, walker, 1, [f]);
      const metres = Math.hypot(walker.at.x - before.x, walker.at.y - before.y) * f.metresPerPixel;
      expect(metres).toBeLessThanOrEqual(WALKING_SPEED.max + 1e-9);
      if (walker.target !== null) expect(metres).toBeGreaterThanOrEqual(WALKING_SPEED.min - 1e-9);
      seconds += 1;
    }
    // 700 px is 35 m: between 35 / 1.5 and 35 / 0.8 seconds.
    expect(seconds).toBeGreaterThanOrEqual(Math.floor(35 / WALKING_SPEED.max));
    expect(seconds).toBeLessThanOrEqual(Math.ceil(35 / WALKING_SPEED.min));
    expect(walker.at).toEqual(imagePoint(900, 200));
    expect(walker.dwell).toBeGreaterThan(0);
    const standing = stepWalker(random, walker, 1, [f]);
    expect(standing.at).toEqual(walker.at);
  });

  it('changes floor now and then, within its building only, and stays on the blueprint', () => {
    const floors = [floor(1, 1), floor(2, 1), floor(3, 2)];
    const random = seededRandom(11);
    let walker: Walker = { floor: floors[0], at: imagePoint(300, 300), target: null, dwell: 0 };
    const visited = new Set<number>();
    for (let second = 0; second < 6 * 3600; second++) {
      walker = stepWalker(random, walker, 1, floors);
      visited.add(walker.floor.id);
      expect(walker.at.x).toBeGreaterThanOrEqual(0);
      expect(walker.at.x).toBeLessThanOrEqual(1600);
      expect(walker.at.y).toBeGreaterThanOrEqual(0);
      expect(walker.at.y).toBeLessThanOrEqual(1000);
    }
    expect(visited).toEqual(new Set([1, 2]));
  });
});
