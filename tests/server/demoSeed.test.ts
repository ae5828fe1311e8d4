import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE, demoEmail, seedDemo } from '../../server/db/demoSeed';
import {
  crewAssignments,
  crewManagers,
  crews,
  floors,
  inventoryItems,
  networks,
  sites,
  subcontractors,
  users,
  workerRoles,
  workers,
  workshiftAssignments,
  workshifts,
} from '../../server/db/schema';
import { cornerRing } from '../../src/domain/floorValidation';
import { containsPoint } from '../../src/domain/polygon';
import { localTime, shiftStateAtLocal } from '../../src/domain/workshiftClock';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createTestDatabase } from './helpers/testDatabase';

describe('the demo workforce and devices', () => {
  let t: TestApp;
  let siteId: number;
  let today: string;

  beforeAll(async () => {
    t = await startTestApp();
    const [site] = await t.db.select().from(sites).where(eq(sites.name, DEMO_SITE));
    siteId = site.id;
    today = localTime(new Date(), site.timezone).date;
  });
  afterAll(() => t.close());

  it('gives each of 200 workers a helmet that is offline and has no position yet', async () => {
    const people = await t.db.select().from(workers).where(eq(workers.siteId, siteId));
    expect(people).toHaveLength(200);
    expect(new Set(people.map((w) => w.name)).size).toBe(200);
    expect(new Set(people.map((w) => w.name.split(' ')[0])).size).toBeGreaterThan(30);
    for (const worker of people) {
      expect(worker.workerRoleId, worker.name).not.toBeNull();
      expect(worker.subcontractorId, worker.name).not.toBeNull();
      expect(worker.helmetColor, worker.name).toMatch(/^#[0-9A-F]{6}$/);
    }
    const helmets = await t.db
      .select()
      .from(inventoryItems)
      .where(and(eq(inventoryItems.siteId, siteId), eq(inventoryItems.type, 'helmet')));
    expect(helmets).toHaveLength(200);
    expect(new Set(helmets.map((h) => h.workerId))).toEqual(new Set(people.map((w) => w.id)));
    expect(helmets.map((h) => h.wntInventoryId).sort()[0]).toBe('HLM-0001');
    for (const helmet of helmets) {
      expect(helmet).toMatchObject({
        isOnline: false,
        isActive: false,
        floorId: null,
        lat: null,
        lastSeen: null,
      });
      expect(helmet.assignedAt).toBeInstanceOf(Date);
      expect(helmet.networkId).not.toBeNull();
    }
  });

  it('has 6 roles, 5 subcontractors, 8 crews and a crew manager over two of them', async () => {
    const countOf = async (table: typeof workerRoles | typeof subcontractors | typeof crews) =>
      (await t.db.select({ n: sql<number>`count(*)::int` }).from(table).where(eq(table.siteId, siteId)))[0].n;
    expect(await countOf(workerRoles)).toBe(6);
    expect(await countOf(subcontractors)).toBe(5);
    expect(await countOf(crews)).toBe(8);
    const [manager] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('crew-manager')));
    const managed = await t.db.select().from(crewManagers).where(eq(crewManagers.userId, manager.id));
    expect(managed).toHaveLength(2);
  });

  it('puts every worker in a crew and a work shift that already apply today', async () => {
    const crewRows = await t.db.select().from(crewAssignments);
    const shiftRows = await t.db.select().from(workshiftAssignments);
    expect(new Set(crewRows.map((r) => r.workerId)).size).toBe(200);
    expect(new Set(shiftRows.map((r) => r.workerId)).size).toBe(200);
    for (const row of [...crewRows, ...shiftRows]) expect(row.assignedAt < today).toBe(true);
  });

  it('has day, night and around-the-clock shifts, so someone is on duty at every hour of the week', async () => {
    const shifts = await t.db.select().from(workshifts).where(eq(workshifts.siteId, siteId));
    expect(shifts).toHaveLength(3);
    const night = shifts.find((s) => s.name === 'Night shift')!;
    expect(night.endTime < night.startTime).toBe(true);
    expect(night.breaks.length).toBeGreaterThan(0);
    const staffed = await t.db
      .select({ shiftId: workshiftAssignments.workshiftId, n: sql<number>`count(*)::int` })
      .from(workshiftAssignments)
      .groupBy(workshiftAssignments.workshiftId);
    for (let minute = 0; minute < 7 * 1440; minute += 15) {
      const local = { weekday: Math.floor(minute / 1440), minutes: minute % 1440 };
      const working = shifts.filter(
        (shift) =>
          shiftStateAtLocal(shift, local) === 'working' &&
          staffed.some((s) => s.shiftId === shift.id && s.n > 0),
      );
      expect(working.length, `weekday ${local.weekday} minute ${local.minutes}`).toBeGreaterThan(0);
    }
  });

  it('places approved anchors inside every floor, one sink each, on the site networks; three await approval', async () => {
    const siteNetworks = (await t.db.select().from(networks).where(eq(networks.siteId, siteId))).map(
      (n) => n.id,
    );
    const floorRows = await t.db.select().from(floors);
    expect(floorRows).toHaveLength(6);
    const unapproved: string[] = [];
    for (const floor of floorRows) {
      const onFloor = await t.db.select().from(inventoryItems).where(eq(inventoryItems.floorId, floor.id));
      // Installation mode's demo: anchors mounted but not yet approved have no placed position.
      for (const d of onFloor.filter((d) => d.type === 'anchor' && !d.isApproved)) {
        expect([d.lat, d.long], d.wntInventoryId).toEqual([null, null]);
        unapproved.push(`${floor.name}: ${d.wntInventoryId}`);
      }
      const devices = onFloor.filter((d) => d.type !== 'anchor' || d.isApproved);
      const anchors = devices.filter((d) => d.type === 'anchor');
      expect(anchors.length, floor.name).toBeGreaterThanOrEqual(4);
      expect(
        devices.filter((d) => d.type === 'sink'),
        floor.name,
      ).toHaveLength(1);
      const ring = cornerRing({
        a: { lat: floor.aLat, long: floor.aLong },
        b: { lat: floor.bLat, long: floor.bLong },
        c: { lat: floor.cLat, long: floor.cLong },
        d: { lat: floor.dLat, long: floor.dLong },
      });
      for (const d of devices) {
        expect(d.wntInventoryId).toMatch(d.type === 'anchor' ? /^ANC-\d{4}$/ : /^SNK-\d{4}$/);
        expect(containsPoint(ring, [d.long!, d.lat!]), d.wntInventoryId).toBe(true);
        expect(siteNetworks).toContain(d.networkId);
      }
    }
    expect(unapproved.sort()).toEqual(['Level 1: ANC-0101', 'Level 1: ANC-0102', 'Level 1: ANC-0103']);
  });

  it('seeds the same workers on every run', async () => {
    const again = await createTestDatabase();
    try {
      await seedDemo(again.db);
      const names = async (db: typeof t.db) =>
        (await db.select({ name: workers.name }).from(workers).orderBy(workers.workerTagId)).map(
          (r) => r.name,
        );
      expect(await names(again.db)).toEqual(await names(t.db));
    } finally {
      await again.dispose();
    }
  });
});
