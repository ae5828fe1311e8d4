import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database';
import { seedDemo } from '../../server/db/demoSeed';
import { floors, inventoryItems, positions } from '../../server/db/schema';
import { writePositions } from '../../server/ingest/positionWriter';
import { bucketStart, POSITION_SAMPLE_SECONDS } from '../../src/domain/analytics';
import { floorGrid } from '../../src/domain/geo';
import type { PositionMessage } from '../../src/domain/live';
import { type DemoFloorFixture, demoFloor, seedWorkerWithHelmet } from './helpers/ingestFixture';
import { createTestDatabase, type TestDatabase } from './helpers/testDatabase';

/**
 * Issue 16: the rollups equal a recomputation from the raw positions after random ingests,
 * redeliveries of earlier messages, and crashes between the positions and their rollups.
 */

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

let database: TestDatabase;
let db: Db;
let fixture: DemoFloorFixture;
let tags: string[];
/** Level 1 (its zones, 1 m cells) and a second floor of the site with 2.5 m cells. */
let floorIds: number[];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedDemo(db);
  fixture = await demoFloor(db);
  const [other] = await db
    .select()
    .from(floors)
    .where(sql`${floors.buildingId} = ${fixture.floor.buildingId} and ${floors.id} <> ${fixture.floor.id}`)
    .limit(1);
  await db.update(floors).set({ cellSizeMetres: 2.5 }).where(eq(floors.id, other.id));
  floorIds = [fixture.floor.id, other.id];
  const worn = [
    await seedWorkerWithHelmet(db, fixture.siteId, 'ROLLUP-1'),
    await seedWorkerWithHelmet(db, fixture.siteId, 'ROLLUP-2'),
  ];
  // A helmet nobody wears: it counts in the heatmap, not in any worker's presence.
  await db
    .insert(inventoryItems)
    .values({ siteId: fixture.siteId, wntInventoryId: 'ROLLUP-3', type: 'helmet' });
  tags = [...worn.map((h) => h.tag), 'ROLLUP-3'];
});

afterAll(() => database?.dispose());

/** The database, except that one transaction fails at the `failAt`-th statement after its positions insert. */
function crashingAfterPositions(target: Db, failAt: number): Db {
  const crash = () => new Error('connection to the database was lost');
  const wrapTx = (tx: object) => {
    let afterInsert = 0;
    let inserted = false;
    return new Proxy(tx, {
      get(inner, property, receiver) {
        const value = Reflect.get(inner, property, receiver);
        if (property !== 'execute' || typeof value !== 'function') return value;
        return async (query: { queryChunks?: unknown[] }) => {
          if (inserted && ++afterInsert >= failAt) throw crash();
          const result = await value.call(inner, query);
          if (query.queryChunks?.includes(positions)) inserted = true;
          return result;
        };
      },
    });
  };
  return new Proxy(target, {
    get(inner, property, receiver) {
      if (property !== 'transaction') return Reflect.get(inner, property, receiver);
      return (fn: (tx: object) => Promise<unknown>, config?: unknown) =>
        (inner.transaction as (f: typeof fn, c?: unknown) => Promise<unknown>)(async (tx) => {
          const result = await fn(wrapTx(tx));
          // No statement came after the insert (nothing to roll up): the crash is at the commit.
          throw crash();
          // biome-ignore lint/correctness/noUnreachable: the type of the callback's result
          return result;
        }, config);
    },
  }) as Db;
}

/** The rollups as the ingest should have written them, from the raw positions table alone. */
async function recomputed(): Promise<{ cells: string[]; presence: string[] }> {
  const presence = rowsOf(
    await db.execute(sql`
      select worker_id, floor_id, zone_id, extract(epoch from date_trunc('minute', ts))::float8 * 1000 as bucket,
        count(*)::int * ${POSITION_SAMPLE_SECONDS}::int as seconds
      from positions where worker_id is not null and floor_id is not null
      group by 1, 2, 3, 4`),
  ).map((r) => `${r.worker_id}:${r.floor_id}:${r.zone_id ?? '-'}:${Number(r.bucket)}=${r.seconds}`);
  const floorRows = await db.select().from(floors);
  const grids = new Map(
    floorRows.map((f) => [
      f.id,
      floorGrid(
        {
          a: { lat: f.aLat, long: f.aLong },
          b: { lat: f.bLat, long: f.bLong },
          c: { lat: f.cLat, long: f.cLong },
          d: { lat: f.dLat, long: f.dLong },
        },
        f.cellSizeMetres,
      ),
    ]),
  );
  const cells = new Map<string, number>();
  const raw = rowsOf(
    await db.execute(
      sql`select floor_id, lat, long, extract(epoch from ts)::float8 * 1000 as ms from positions where floor_id is not null`,
    ),
  );
  for (const r of raw) {
    const cell = grids.get(Number(r.floor_id))?.cellOf({ lat: Number(r.lat), long: Number(r.long) });
    if (!cell) continue;
    const key = `${r.floor_id}:${cell.x}:${cell.y}:${bucketStart(Math.round(Number(r.ms)))}`;
    cells.set(key, (cells.get(key) ?? 0) + POSITION_SAMPLE_SECONDS);
  }
  return {
    cells: [...cells].map(([key, seconds]) => `${key}=${seconds}`).sort(),
    presence: presence.sort(),
  };
}

async function stored(): Promise<{ cells: string[]; presence: string[] }> {
  const cells = rowsOf(
    await db.execute(sql`
      select floor_id, cell_x, cell_y, extract(epoch from bucket)::float8 * 1000 as bucket, worker_seconds
      from presence_cell_minutes`),
  ).map((r) => `${r.floor_id}:${r.cell_x}:${r.cell_y}:${Number(r.bucket)}=${r.worker_seconds}`);
  const presence = rowsOf(
    await db.execute(sql`
      select worker_id, floor_id, zone_id, extract(epoch from bucket)::float8 * 1000 as bucket, seconds
      from presence_minutes`),
  ).map((r) => `${r.worker_id}:${r.floor_id}:${r.zone_id ?? '-'}:${Number(r.bucket)}=${r.seconds}`);
  return { cells: cells.sort(), presence: presence.sort() };
}

const positionArbitrary = fc.record({
  helmet: fc.nat(2),
  floor: fc.nat(1),
  // Some points fall outside the floor: they add no cell, yet the worker was on the floor.
  x: fc.double({ min: -0.2, max: 1.2, noNaN: true }),
  y: fc.double({ min: -0.2, max: 1.2, noNaN: true }),
  // Within 4 minutes, to the second (so a helmet often repeats a ts inside one batch).
  second: fc.nat(240),
});

type Drawn = { helmet: number; floor: number; x: number; y: number; second: number };

type Step = { kind: 'ingest'; batch: Drawn[]; crashAt: number | null } | { kind: 'redeliver'; index: number };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('ingest' as const),
    batch: fc.array(positionArbitrary, { minLength: 1, maxLength: 12 }),
    crashAt: fc.option(fc.integer({ min: 1, max: 3 }), { freq: 3 }),
  }),
  fc.record({ kind: fc.constant('redeliver' as const), index: fc.nat(20) }),
);

describe('analytics rollups written with the positions', () => {
  it('equal a recomputation from the raw positions after ingests, redeliveries and crashes', async () => {
    const base = Date.now() - 10 * 60_000;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 6 }), async (steps) => {
        runs++;
        await db.execute(sql`truncate positions, presence_cell_minutes, presence_minutes`);
        const floorOf = new Map(
          (await db.select().from(floors)).filter((f) => floorIds.includes(f.id)).map((f) => [f.id, f]),
        );
        const messageOf = (p: Drawn): PositionMessage => {
          const floor = floorOf.get(floorIds[p.floor])!;
          return {
            tag: tags[p.helmet],
            ts: new Date(base + p.second * 1000).toISOString(),
            long: floor.aLong + p.x * (floor.bLong - floor.aLong),
            lat: floor.aLat - p.y * (floor.aLat - floor.dLat),
            floorId: floor.id,
            online: true,
            active: true,
          };
        };
        const delivered: PositionMessage[][] = [];
        for (const step of steps) {
          if (step.kind === 'redeliver') {
            if (delivered.length === 0) continue;
            await writePositions(db, fixture.siteId, delivered[step.index % delivered.length]);
            continue;
          }
          const batch = step.batch.map(messageOf);
          if (step.crashAt !== null) {
            await expect(
              writePositions(crashingAfterPositions(db, step.crashAt), fixture.siteId, batch),
            ).rejects.toThrow('connection to the database was lost');
          }
          // The broker sends the unacknowledged message again.
          await writePositions(db, fixture.siteId, batch);
          delivered.push(batch);
        }
        const distinct = new Set(delivered.flat().map((m) => `${m.tag}@${m.ts}`));
        const [{ count }] = rowsOf(await db.execute(sql`select count(*)::int as count from positions`));
        expect(count).toBe(distinct.size);
        expect(await stored()).toEqual(await recomputed());
      }),
      { numRuns: 30 },
    );
    expect(runs).toBeGreaterThanOrEqual(30);
  });

  it('counts a worker inside a zone once per stored second, in its cell and its zone', async () => {
    await db.execute(sql`truncate positions, presence_cell_minutes, presence_minutes`);
    const minute = bucketStart(Date.now() - 5 * 60_000);
    const at = (second: number): PositionMessage => ({
      tag: tags[0],
      ts: new Date(minute + second * 1000).toISOString(),
      ...fixture.at(0.3, 0.2),
      floorId: fixture.floor.id,
      online: true,
      active: true,
    });
    const batch = [at(1), at(2), at(3)];
    await writePositions(db, fixture.siteId, batch);
    await writePositions(db, fixture.siteId, batch);
    const { cells, presence } = await stored();
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatch(/=3$/);
    expect(presence).toEqual([
      `${(await db.select().from(inventoryItems).where(eq(inventoryItems.wntInventoryId, tags[0])))[0].workerId}:${fixture.floor.id}:${fixture.zoneId('Fit-out area')}:${minute}=3`,
    ]);
  });
});
