import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPositionPartition,
  DAY_MS,
  forgetKnownPartitions,
  partitionName,
  startPositionPartitions,
  utcDayStart,
} from '../../server/analytics/positionPartitions';
import { backfillRollups } from '../../server/analytics/rollupBackfill';
import type { Db } from '../../server/db/database';
import { seedDemo } from '../../server/db/demoSeed';
import { ensureReferenceData } from '../../server/db/referenceData';
import * as schema from '../../server/db/schema';
import { ingestPositionEntries } from '../../server/ingest/ingestMessage';
import { writePositions } from '../../server/ingest/positionWriter';
import { bucketStart } from '../../src/domain/analytics';
import { floorGrid } from '../../src/domain/geo';
import { demoFloor, POINTS, positionAt, seedWorkerWithHelmet } from './helpers/ingestFixture';
import { databaseUrlFor } from './helpers/templateDatabase';

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
const silent = { info() {}, warn() {}, error() {} };
const MIGRATIONS = fileURLToPath(new URL('../../server/db/migrations', import.meta.url));

/** Partitions of `positions` as pg_inherits lists them. */
async function partitions(db: Db): Promise<string[]> {
  return rowsOf(
    await db.execute(sql`
      select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'positions'::regclass order by 1`),
  ).map((r) => String(r.relname));
}

/** A database migrated up to 0008 only (positions still a plain table), on the suite's driver. */
async function databaseAt0008(): Promise<{ db: Db; migrateRest(): Promise<void>; dispose(): Promise<void> }> {
  const folder = mkdtempSync(join(tmpdir(), 'sitewatch-0008-'));
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= 8);
  writeFileSync(journalPath, JSON.stringify(journal));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (process.env.SITEWATCH_TEST_DRIVER === 'pg' && adminUrl) {
    const name = `sitewatch_0008_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(statement).finally(() => client.end());
    };
    await admin(`create database ${name}`);
    const pool = new pg.Pool({ connectionString: databaseUrlFor(adminUrl, name), max: 2 });
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder: folder });
    return {
      db: db as unknown as Db,
      migrateRest: () => migratePg(db, { migrationsFolder: MIGRATIONS }),
      async dispose() {
        await pool.end();
        await admin(`drop database if exists ${name} with (force)`);
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const client = new PGlite();
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: folder });
  return {
    db: db as unknown as Db,
    migrateRest: () => migratePglite(db, { migrationsFolder: MIGRATIONS }),
    async dispose() {
      await client.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

const corners = {
  a: { lat: 25.2004, long: 55.3 },
  b: { lat: 25.2004, long: 55.3004 },
  c: { lat: 25.2, long: 55.3004 },
  d: { lat: 25.2, long: 55.3 },
};
const point = { lat: 25.2003, long: 55.3001 }; // inside the old floor, in its west half
const today = utcDayStart(Date.now());
const oldMinutes = [today - DAY_MS + 3_600_000, today - 3 * DAY_MS + 7_200_000];

let database: Awaited<ReturnType<typeof databaseAt0008>>;
let db: Db;
let old: Row;

/** One database for the file: 0008 with positions, then 0009, then the demo site for the rest. */
beforeAll(async () => {
  database = await databaseAt0008();
  db = database.db;
  old = rowsOf(
    await db.execute(sql`
      with c as (insert into clients (name) values ('Old client') returning id),
      s as (insert into sites (client_id, name) select id, 'Old site' from c returning id),
      b as (insert into buildings (site_id, name) select id, 'Old block' from s returning id),
      f as (insert into floors (building_id, name, altitude, a_lat, a_long, b_lat, b_long, c_lat, c_long, d_lat, d_long)
        select id, 'Old floor', 0, 25.2004, 55.3, 25.2004, 55.3004, 25.2, 55.3004, 25.2, 55.3 from b returning id),
      z as (insert into zones (floor_id, name, kind, coordinates)
        select id, 'West half', 'work', '[[55.3,25.2004],[55.3002,25.2004],[55.3002,25.2],[55.3,25.2]]'::jsonb from f returning id),
      w as (insert into workers (site_id, name) select id, 'Old worker' from s returning id),
      i as (insert into inventory_items (site_id, wnt_inventory_id, type, worker_id)
        select s.id, 'OLD-1', 'helmet', w.id from s, w returning id)
      select s.id as site, f.id as floor, z.id as zone, w.id as worker, i.id as item from s, f, z, w, i`),
  )[0];
  for (const minute of oldMinutes)
    for (let second = 0; second < 5; second++)
      await db.execute(sql`
        insert into positions (site_id, inventory_item_id, worker_id, floor_id, zone_id, lat, long, is_online, is_active, ts)
        values (${old.site}, ${old.item}, ${old.worker}, ${old.floor}, ${old.zone}, ${point.lat}, ${point.long}, true, true,
          ${new Date(minute + second * 1000).toISOString()})`);
  await database.migrateRest();
  await ensureReferenceData(db);
  await seedDemo(db);
});

afterAll(() => database?.dispose());

describe('migration 0009 on a database holding positions', () => {
  it('keeps every row, gives each day its partition and backfills the rollups once', async () => {
    const copied = rowsOf(await db.execute(sql`select count(*)::int as n from positions`))[0];
    expect(copied.n).toBe(10);
    expect(await partitions(db)).toEqual(oldMinutes.map((ms) => partitionName(ms)).sort());
    expect(await backfillRollups(db, { sliceRows: 3 })).toBe(10);
    // Done once: the backlog is gone and a second pass counts nothing.
    expect(await backfillRollups(db)).toBe(0);
    expect(
      rowsOf(await db.execute(sql`select to_regclass('positions_rollup_backlog') as t`))[0].t,
    ).toBeNull();
    const presence = rowsOf(
      await db.execute(
        sql`select worker_id, zone_id, seconds, extract(epoch from bucket)::float8 * 1000 as bucket from presence_minutes order by bucket`,
      ),
    );
    expect(presence.map((r) => [r.worker_id, r.zone_id, r.seconds, Number(r.bucket)])).toEqual(
      [...oldMinutes].sort().map((minute) => [old.worker, old.zone, 5, minute]),
    );
    const cell = floorGrid(corners, 1).cellOf(point);
    const cells = rowsOf(
      await db.execute(sql`select cell_x, cell_y, worker_seconds from presence_cell_minutes`),
    );
    expect(cells).toEqual([
      { cell_x: cell?.x, cell_y: cell?.y, worker_seconds: 5 },
      { cell_x: cell?.x, cell_y: cell?.y, worker_seconds: 5 },
    ]);
  });
});

describe('position partitions and retention', () => {
  let fixture: Awaited<ReturnType<typeof demoFloor>>;
  let tag: string;

  beforeAll(async () => {
    fixture = await demoFloor(db);
    tag = (await seedWorkerWithHelmet(db, fixture.siteId, 'PART-1')).tag;
  });

  it('creates today and the next two UTC days at startup, and tolerates a concurrent creator', async () => {
    const partitioning = await startPositionPartitions({ db, logger: silent, retentionDays: 30 });
    await partitioning.close();
    const today = utcDayStart(Date.now());
    const ahead = [0, 1, 2].map((days) => partitionName(today + days * DAY_MS));
    expect(await partitions(db)).toEqual(expect.arrayContaining(ahead));
    const bounds = rowsOf(
      await db.execute(
        sql`select pg_get_expr(c.relpartbound, c.oid) as bound from pg_class c where c.relname = ${ahead[0]}`,
      ),
    );
    expect(String(bounds[0].bound)).toContain(`'${new Date(today).toISOString().slice(0, 10)}`);
    // Two processes creating the same day at once: neither fails.
    forgetKnownPartitions(db);
    const later = today + 5 * DAY_MS;
    await Promise.all([createPositionPartition(db, later), createPositionPartition(db, later)]);
    expect(await partitions(db)).toContain(partitionName(later));
  });

  it('drops whole partitions past the retention and keeps their rollups', async () => {
    const now = Date.now();
    // Both old fixes fall in one minute bucket, wherever in the minute the test happens to run.
    const longAgo = bucketStart(now - 40 * DAY_MS) + 10_000;
    const message = (ms: number) => ({
      ...positionAt(fixture, tag, POINTS.fitOut, 0),
      ts: new Date(ms).toISOString(),
    });
    // Stored while it was still within the retention (20 days ago): its partition made on demand.
    const earlier = await writePositions(db, fixture.siteId, [message(longAgo), message(longAgo + 1000)], {
      nowMs: now - 20 * DAY_MS,
    });
    expect(earlier.accepted).toBe(2);
    await writePositions(db, fixture.siteId, [message(now - 60_000)]);
    expect(await partitions(db)).toContain(partitionName(longAgo));
    const rollupsBefore = rowsOf(
      await db.execute(
        sql`select count(*)::int as n, sum(seconds)::int as s from presence_minutes where site_id = ${fixture.siteId} and bucket < ${new Date(now - DAY_MS).toISOString()}`,
      ),
    )[0];
    expect(rollupsBefore).toEqual({ n: 1, s: 2 });

    const partitioning = await startPositionPartitions({ db, logger: silent, retentionDays: 30 });
    await partitioning.close();

    expect(await partitions(db)).not.toContain(partitionName(longAgo));
    expect(rowsOf(await db.execute(sql`select to_regclass(${partitionName(longAgo)}) as t`))[0].t).toBeNull();
    const left = await db.select().from(schema.positions).where(eq(schema.positions.siteId, fixture.siteId));
    expect(left.map((row) => row.ts.getTime())).toEqual([now - 60_000]);
    const rollupsAfter = rowsOf(
      await db.execute(
        sql`select count(*)::int as n, sum(seconds)::int as s from presence_minutes where site_id = ${fixture.siteId} and bucket < ${new Date(now - DAY_MS).toISOString()}`,
      ),
    )[0];
    expect(rollupsAfter).toEqual(rollupsBefore);
    expect(
      rowsOf(
        await db.execute(
          sql`select sum(worker_seconds)::int as s from presence_cell_minutes where site_id = ${fixture.siteId} and bucket = ${new Date(bucketStart(longAgo)).toISOString()}`,
        ),
      )[0].s,
    ).toBe(2);
  });

  it('refuses a position older than the retention with a count and stores the rest of the batch', async () => {
    const now = Date.now();
    const tooOld = now - 45 * DAY_MS;
    const fresh = new Date(now - 2000).toISOString();
    const outcome = await ingestPositionEntries(
      db,
      fixture.siteId,
      [
        { ...positionAt(fixture, tag, POINTS.eastWing, 0), ts: new Date(tooOld).toISOString() },
        { ...positionAt(fixture, tag, POINTS.eastWing, 0), ts: fresh },
      ],
      new Date(now),
    );
    expect(outcome.accepted).toBe(1);
    expect(outcome.rejections.map((r) => r.reason)).toEqual(['beyondRetention']);
    const stored = await db
      .select()
      .from(schema.positions)
      .where(eq(schema.positions.ts, new Date(fresh)));
    expect(stored).toHaveLength(1);
    // Nothing was made for the refused day.
    expect(await partitions(db)).not.toContain(partitionName(tooOld));
  });
});
