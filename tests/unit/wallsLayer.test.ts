import { describe, expect, it } from 'vitest';
import { searchWalls, type Wall } from '../../src/api/installationWalls';
import type { LongLat } from '../../src/domain/floor';
import { distanceToPolyline, translatePolyline, wallPolylineProblem } from '../../src/domain/wallGeometry';
import { trailsFloorScene } from './helpers/trailsFloor';

// Pixi reads navigator when it loads (Node 20 has none); layers need no renderer to draw.
Object.assign(globalThis, { navigator: globalThis.navigator ?? { userAgent: 'node' } });
const { Container } = await import('pixi.js');
const { LayerStack } = await import('../../src/views/canvas/layers/LayerStack');
const { WALLS, WALL_STYLES, wallsLayerDefinition } = await import('../../src/views/canvas/layers/WallsLayer');
type DrawnWalls = import('../../src/views/canvas/layers/WallsLayer').DrawnWalls;

/** The trails floor is 2000 × 1000 px over 0.002° × 0.001°, corner a (top-left) at 25.201 N, 55.27 E. */
const at = (x: number, y: number): LongLat => [55.27 + (x / 2000) * 0.002, 25.201 - (y / 1000) * 0.001];
const FLOOR: LongLat[] = [at(0, 0), at(2000, 0), at(2000, 1000), at(0, 1000)];

function wall(id: number, name: string, material: Wall['material'], points: LongLat[]): Wall {
  return {
    id,
    floor_id: 1,
    name,
    material,
    attenuation_db: 3,
    points,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

const CORE = wall(1, 'Core wall', 'concrete', [at(100, 100), at(900, 100), at(900, 500)]);
const SHOPFRONT = wall(2, 'Shopfront', 'glass', [at(1000, 800), at(1800, 800)]);

function setUp() {
  const scene = trailsFloorScene();
  const seen: { drawn: DrawnWalls | null } = { drawn: null };
  const stack = new LayerStack(
    [
      wallsLayerDefinition((drawn) => {
        seen.drawn = drawn;
      }),
    ],
    new Container(),
  );
  const draw = (scale = 1) => stack.update({ scene, view: { scale, x: 0, y: 0 } });
  return { scene, seen, stack, draw };
}

const rounded = (points: readonly { x: number; y: number }[]) =>
  points.map((p) => [Math.round(p.x), Math.round(p.y)]);

describe('walls layer', () => {
  it('draws every wall on the floor in its material colour, projected to image pixels', () => {
    const { scene, seen, draw } = setUp();
    scene.setData(WALLS, { walls: [CORE, SHOPFRONT], selectedId: null, edited: null, draft: null });
    expect(draw()).toBe(true);
    expect(seen.drawn?.walls.map((w) => [w.id, w.colour, w.selected, rounded(w.points)])).toEqual([
      [
        1,
        WALL_STYLES.concrete.colour,
        false,
        [
          [100, 100],
          [900, 100],
          [900, 500],
        ],
      ],
      [
        2,
        WALL_STYLES.glass.colour,
        false,
        [
          [1000, 800],
          [1800, 800],
        ],
      ],
    ]);
    expect(seen.drawn?.draft).toEqual([]);
  });

  it('draws the selected wall where it is being dragged, and a new wall being drawn', () => {
    const { scene, seen, draw } = setUp();
    scene.setData(WALLS, {
      walls: [CORE, SHOPFRONT],
      selectedId: 2,
      edited: [at(1000, 900), at(1800, 900)],
      draft: [at(200, 700), at(400, 700)],
    });
    draw();
    const selected = seen.drawn?.walls.find((w) => w.selected);
    expect(selected?.id).toBe(2);
    expect(rounded(selected?.points ?? [])).toEqual([
      [1000, 900],
      [1800, 900],
    ]);
    expect(rounded(seen.drawn?.draft ?? [])).toEqual([
      [200, 700],
      [400, 700],
    ]);
  });

  it('is static: drawn again only when the walls, the zoom or (while drawing) the pointer change', () => {
    const { scene, stack, draw } = setUp();
    scene.setData(WALLS, { walls: [CORE], selectedId: null, edited: null, draft: null });
    draw();
    draw();
    expect(stack.redraws('walls')).toBe(1);
    scene.setPointer({ x: 5, y: 5 } as never);
    draw();
    expect(stack.redraws('walls')).toBe(1);
    draw(2);
    expect(stack.redraws('walls')).toBe(2);
    scene.setData(WALLS, { walls: [CORE], selectedId: null, edited: null, draft: [at(10, 10)] });
    draw(2);
    scene.setPointer({ x: 6, y: 6 } as never);
    draw(2);
    expect(stack.redraws('walls')).toBe(4);
  });
});

describe('wall geometry and search', () => {
  it('a wall has two points or more, no zero-length segment and every point on the floor', () => {
    expect(wallPolylineProblem([at(1, 1)], FLOOR)).toBe('tooFewPoints');
    expect(wallPolylineProblem([at(1, 1), at(1, 1)], FLOOR)).toBe('zeroLengthSegment');
    expect(wallPolylineProblem([at(1, 1), at(2100, 1)], FLOOR)).toBe('outside');
    expect(wallPolylineProblem([at(0, 0), at(2000, 1000)], FLOOR)).toBeNull();
    expect(
      wallPolylineProblem(
        Array.from({ length: 201 }, (_, i) => at(i, i % 2)),
        FLOOR,
      ),
    ).toBe('tooManyPoints');
  });

  it('moves a polyline by a drag and measures how far a point is from it', () => {
    expect(
      translatePolyline(
        [
          [1, 1],
          [3, 1],
        ],
        [1, 1],
        [2, 3],
      ),
    ).toEqual([
      [2, 3],
      [4, 3],
    ]);
    expect(
      distanceToPolyline(
        [2, 2],
        [
          [0, 0],
          [4, 0],
        ],
      ),
    ).toBe(2);
    expect(
      distanceToPolyline(
        [5, 0],
        [
          [0, 0],
          [4, 0],
        ],
      ),
    ).toBe(1);
    expect(distanceToPolyline([0, 0], [])).toBe(Number.POSITIVE_INFINITY);
  });

  it('searches wall names case-insensitively, keeping their order', () => {
    expect(searchWalls([CORE, SHOPFRONT], '  WALL ').map((w) => w.name)).toEqual(['Core wall']);
    expect(searchWalls([CORE, SHOPFRONT], 'o').map((w) => w.name)).toEqual(['Core wall', 'Shopfront']);
    expect(searchWalls([CORE, SHOPFRONT], '')).toHaveLength(2);
  });
});
