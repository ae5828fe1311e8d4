import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../server/db/demoSeed';
import {
  activities,
  activityCodes,
  buildings,
  crewAssignments,
  crewManagers,
  crews,
  floors,
  locationGroups,
  locationGroupZones,
  presenceMinutes,
  users,
  workers,
  zones,
} from '../../server/db/schema';
import {
  ACTIVITY_ACTIONS,
  ACTIVITY_STATUS_MESSAGES,
  ACTIVITY_STATUSES,
  type ActivityStatus,
  refusalOf,
  transitionFor,
} from '../../src/domain/activityStatus';
import { messageKeyOf } from '../../src/domain/messageCatalog';
import type { Role } from '../../src/domain/roles';
import type { Activity } from '../../src/domain/schemas/productivity';
import { PRODUCTIVITY_MESSAGES } from '../../src/domain/schemas/productivity';
import { siteInstant } from '../../src/domain/siteClock';
import { startDemoSiteSuite, suiteRequests } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

// The demo site runs on Asia/Dubai time (UTC+4); a day far from the demo's own activities.
const DAY = '2026-03-10';
const ZONE = 'Asia/Dubai';
const at = (day: string, hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return siteInstant(day, h * 3600 + m * 60, ZONE);
};
const RING: [number, number][] = [
  [55.3002, 25.1998],
  [55.3008, 25.1998],
  [55.3008, 25.1992],
];

const ROLES: Role[] = [
  'group-of-sites-admin',
  'group-of-sites-viewer',
  'crew-manager',
  'site-engineer',
  'safety-demo',
];

describe('eTQR productivity routes', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let tokens: Record<Role, string>;
  let crewA: number;
  let crewB: number;
  let codeId: number;
  let zoneA: number;
  let zoneB: number;
  let groupId: number;
  let otherCodeId: number;
  let otherActivityId: number;

  beforeAll(async () => {
    ({ t, other, siteId, tokens } = await startDemoSiteSuite(ROLES));
    const db = t.db;
    [{ id: crewA }] = await db.insert(crews).values({ siteId, name: 'Productivity crew A' }).returning();
    [{ id: crewB }] = await db.insert(crews).values({ siteId, name: 'Productivity crew B' }).returning();
    const [manager] = await db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('crew-manager')));
    await db.insert(crewManagers).values({ crewId: crewA, userId: manager.id });
    [{ id: codeId }] = await db
      .insert(activityCodes)
      .values({ siteId, code: 'PRD-CONC', name: 'Concrete pour', uom: 'm3', targetRate: '10' })
      .returning();
    const [floor] = await db
      .select({ id: floors.id })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(eq(buildings.siteId, siteId))
      .limit(1);
    [{ id: zoneA }] = await db
      .insert(zones)
      .values({ floorId: floor.id, name: 'Productivity zone A', kind: 'work', coordinates: RING })
      .returning();
    [{ id: zoneB }] = await db
      .insert(zones)
      .values({ floorId: floor.id, name: 'Productivity zone B', kind: 'work', coordinates: RING })
      .returning();
    [{ id: groupId }] = await db
      .insert(locationGroups)
      .values({ siteId, name: 'Productivity level' })
      .returning();
    await db.insert(locationGroupZones).values([
      { groupId, zoneId: zoneA },
      { groupId, zoneId: zoneB },
    ]);
    const [inA, inB, late] = await db
      .insert(workers)
      .values([
        { siteId, name: 'Prod crew A worker' },
        { siteId, name: 'Prod crew B worker' },
        { siteId, name: 'Prod joins A later' },
      ])
      .returning();
    await db.insert(crewAssignments).values([
      { crewId: crewA, workerId: inA.id, assignedAt: '2026-01-01' },
      { crewId: crewB, workerId: inB.id, assignedAt: '2026-01-01' },
      { crewId: crewB, workerId: late.id, assignedAt: '2026-01-01' },
      // Joins crew A the day after: on DAY it is still crew B's.
      { crewId: crewA, workerId: late.id, assignedAt: '2026-03-11' },
    ]);
    const minutes: (typeof presenceMinutes.$inferInsert)[] = [];
    const spell = (workerId: number, zoneId: number | null, day: string, from: string, count: number) => {
      for (let i = 0; i < count; i++)
        minutes.push({
          siteId,
          workerId,
          floorId: floor.id,
          zoneId,
          bucket: new Date(at(day, from) + i * 60_000),
          seconds: 60,
        });
    };
    spell(inA.id, zoneA, DAY, '08:00', 90); // 1.50 h in zone A
    spell(inA.id, zoneB, DAY, '10:00', 60); // 1.00 h in zone B
    spell(inA.id, null, DAY, '12:00', 120); // on the floor outside every zone
    spell(inA.id, zoneA, '2026-03-09', '23:00', 45); // the site-local day before
    spell(inB.id, zoneA, DAY, '08:00', 30); // crew B, 0.50 h in zone A
    spell(late.id, zoneA, DAY, '13:00', 60); // crew B on DAY, though crew A's from the next day
    await db.insert(presenceMinutes).values(minutes);
    [{ id: otherCodeId }] = await db
      .insert(activityCodes)
      .values({ siteId: other.siteId, code: 'DEPOT', name: 'Depot code', uom: 'm', targetRate: '1' })
      .returning();
    [{ id: otherActivityId }] = await db
      .insert(activities)
      .values({
        siteId: other.siteId,
        activityCodeId: otherCodeId,
        name: 'Depot activity',
        day: DAY,
        plannedQuantity: '1',
        plannedHours: '1',
        status: 'in_review',
      })
      .returning();
  });
  afterAll(() => t.close());

  const { get, post } = suiteRequests(
    () => t,
    () => tokens['group-of-sites-admin'],
  );
  const base = () => `/api/sites/${siteId}`;
  let serial = 0;
  const create = async (
    fields: Record<string, unknown> = {},
    as: string = tokens['group-of-sites-admin'],
  ): Promise<Activity> => {
    const reply = await post(
      `${base()}/activity`,
      {
        name: `Pour ${++serial}`,
        activity_code_id: codeId,
        day: DAY,
        crew_id: crewA,
        zone_id: zoneA,
        planned_quantity: 40,
        planned_hours: 4,
        ...fields,
      },
      as,
    );
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json.data as Activity;
  };
  const setStatus = async (id: number, status: ActivityStatus) => {
    const [row] = await t.db
      .update(activities)
      .set({ status, version: sql`${activities.version} + 1` })
      .where(eq(activities.id, id))
      .returning({ version: activities.version });
    return row.version;
  };
  const bulk = (changes: unknown[], as?: string) => post(`${base()}/activity/bulk`, { changes }, as);
  const approve = (items: { id: number; version: number }[], as?: string) =>
    post(`${base()}/activity/approve/bulk`, { activities: items }, as);

  describe('delay codes and activity codes', () => {
    it('gives a site the default delay codes on first read, once', async () => {
      const first = await get(`${base()}/delay-codes`);
      expect(first.statusCode).toBe(200);
      expect(first.json.data.map((c: { code: string }) => c.code)).toEqual([
        'DES',
        'EQP',
        'MAT',
        'OTH',
        'PER',
        'WEA',
      ]);
      expect(first.json.data.find((c: { code: string }) => c.code === 'WEA').name).toBe('Weather');
      const again = await get(`${base()}/delay-codes`, tokens['crew-manager']);
      expect(again.json.data).toEqual(first.json.data);
    });

    it('lists the site’s activity codes with their target rate as a number', async () => {
      const reply = await get(`${base()}/activity-code`, tokens['group-of-sites-viewer']);
      expect(reply.statusCode).toBe(200);
      expect(reply.json.data).toContainEqual({
        id: codeId,
        code: 'PRD-CONC',
        name: 'Concrete pour',
        uom: 'm3',
        target_rate: 10,
      });
      expect(reply.json.data.map((c: { id: number }) => c.id)).not.toContain(otherCodeId);
    });
  });

  describe('creating an activity', () => {
    it('creates an assigned activity at version 1 with the actions the caller may take', async () => {
      const reply = await post(`${base()}/activity`, {
        name: '  Slab L2 east ',
        activity_code_id: codeId,
        day: DAY,
        crew_id: crewA,
        zone_id: zoneA,
        target_quantity: 50,
        planned_quantity: 40,
        planned_hours: 4,
      });
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json.message).toBe('Activity is created successfully');
      const activity = reply.json.data as Activity;
      expect(activity).toMatchObject({
        name: 'Slab L2 east',
        day: DAY,
        status: 'assigned',
        version: 1,
        crew: { id: crewA, name: 'Productivity crew A' },
        zone: { id: zoneA, name: 'Productivity zone A' },
        activity_code: { id: codeId, code: 'PRD-CONC', target_rate: 10 },
        target_quantity: 50,
        installed_quantity: null,
        earned_hours: null,
        gain_hours: null,
        loss_hours: null,
        actions: ['start'],
      });
      const duplicate = await post(`${base()}/activity`, {
        name: 'slab l2 EAST',
        activity_code_id: codeId,
        day: DAY,
        planned_quantity: 1,
        planned_hours: 1,
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json.message).toBe(PRODUCTIVITY_MESSAGES.duplicateActivity);
    });

    it('answers 404 for a code, crew, zone or group that is not the site’s', async () => {
      const valid = {
        name: 'Foreign refs',
        activity_code_id: codeId,
        day: DAY,
        planned_quantity: 1,
        planned_hours: 1,
      };
      const cases: [Record<string, number>, string][] = [
        [{ activity_code_id: otherCodeId }, 'Activity code not found'],
        [{ crew_id: 2_000_000 }, 'Crew not found'],
        [{ zone_id: 2_000_000 }, 'Zone not found'],
        [{ location_group_id: 2_000_000 }, 'Location group not found'],
      ];
      for (const [fields, message] of cases) {
        const reply = await post(`${base()}/activity`, { ...valid, ...fields });
        expect(reply.statusCode, message).toBe(404);
        expect(reply.json.message).toBe(message);
        expect(messageKeyOf(message)?.key).toBe('server.reply.notFound');
      }
    });

    it('refuses figures with a message naming the field', async () => {
      const reply = await post(`${base()}/activity`, {
        name: 'Bad figures',
        activity_code_id: codeId,
        day: '2026-02-30',
        target_quantity: -1,
        planned_quantity: 1.234,
        planned_hours: 1_000_000,
      });
      expect(reply.statusCode).toBe(422);
      expect(reply.json.errors).toEqual({
        day: PRODUCTIVITY_MESSAGES.dayInvalid,
        target_quantity: PRODUCTIVITY_MESSAGES.targetQuantityInvalid,
        planned_quantity: PRODUCTIVITY_MESSAGES.plannedQuantityInvalid,
        planned_hours: PRODUCTIVITY_MESSAGES.plannedHoursInvalid,
      });
      const blank = await post(`${base()}/activity`, {
        name: '   ',
        activity_code_id: codeId,
        day: DAY,
        planned_quantity: 1,
        planned_hours: 1,
      });
      expect(blank.statusCode).toBe(422);
      expect(blank.json.errors?.name).toBe('Name is required');
    });

    it('lets a crew manager plan for its own crews only; a viewer and the safety demo not at all', async () => {
      const own = await create({}, tokens['crew-manager']);
      expect(own.crew?.id).toBe(crewA);
      for (const crew_id of [crewB, null]) {
        const refused = await post(
          `${base()}/activity`,
          {
            name: `CM other ${crew_id}`,
            activity_code_id: codeId,
            day: DAY,
            crew_id,
            planned_quantity: 1,
            planned_hours: 1,
          },
          tokens['crew-manager'],
        );
        expect(refused.statusCode).toBe(422);
        expect(refused.json.errors?.crew_id).toBe(PRODUCTIVITY_MESSAGES.crewNotYours);
      }
      const body = {
        name: 'Viewer try',
        activity_code_id: codeId,
        day: DAY,
        planned_quantity: 1,
        planned_hours: 1,
      };
      expect((await post(`${base()}/activity`, body, tokens['group-of-sites-viewer'])).statusCode).toBe(403);
      expect((await post(`${base()}/activity`, body, tokens['safety-demo'])).statusCode).toBe(403);
      expect((await get(`${base()}/activity`, tokens['safety-demo'])).statusCode).toBe(403);
    });
  });

  describe('presence-derived hours', () => {
    it('counts the crew’s worker-hours inside the zone on the site-local day', async () => {
      const inZone = await create({ zone_id: zoneA });
      // Crew A's worker 90 minutes in zone A; crew B's worker and the worker joining A later not counted.
      expect(inZone.presence_hours).toBe(1.5);
      expect(inZone.actual_hours).toBe(1.5);
      expect(inZone.actual_hours_typed).toBe(false);
      const otherZone = await create({ zone_id: zoneB });
      expect(otherZone.presence_hours).toBe(1);
      const crewBInA = await create({ crew_id: crewB, zone_id: zoneA });
      // Crew B's two workers: 30 and 60 minutes.
      expect(crewBInA.presence_hours).toBe(1.5);
      const group = await create({ zone_id: null, location_group_id: groupId });
      expect(group.presence_hours).toBe(2.5);
      expect(group.location_group).toEqual({ id: groupId, name: 'Productivity level' });
      const noZone = await create({ zone_id: null });
      expect(noZone.presence_hours).toBeNull();
      const nobody = await create({ crew_id: null, zone_id: zoneA });
      expect(nobody.presence_hours).toBeNull();
      const emptyDay = await create({ day: '2026-03-12' });
      expect(emptyDay.presence_hours).toBe(0);
    });

    it('counts 0 for a worker outside every zone of the activity', async () => {
      const [emptyZone] = await t.db
        .insert(zones)
        .values({
          floorId: (await t.db.select().from(zones).where(eq(zones.id, zoneA)))[0].floorId,
          name: 'Productivity empty zone',
          kind: 'work',
          coordinates: RING,
        })
        .returning();
      const activity = await create({ zone_id: emptyZone.id });
      expect(activity.presence_hours).toBe(0);
      expect(activity.actual_hours).toBe(0);
    });
  });

  describe('booking and gain or loss', () => {
    it('computes earned, gain and loss from the installed quantity, the target rate and the actual hours', async () => {
      const activity = await create({ zone_id: zoneA });
      const booked = await bulk([
        { id: activity.id, version: activity.version, installed_quantity: 30, booked_hours: 2.25 },
      ]);
      expect(booked.statusCode, booked.body).toBe(200);
      const [result] = booked.json.data.results;
      expect(result.ok).toBe(true);
      // 30 m3 at 10 m3/h earn 3.00 h against 1.50 presence hours.
      expect(result.activity).toMatchObject({
        installed_quantity: 30,
        booked_hours: 2.25,
        earned_hours: 3,
        actual_hours: 1.5,
        gain_hours: 1.5,
        loss_hours: 0,
        version: 2,
      });
      const typed = await bulk([{ id: activity.id, version: 2, actual_hours: 4.5 }]);
      expect(typed.json.data.results[0].activity).toMatchObject({
        actual_hours: 4.5,
        actual_hours_typed: true,
        presence_hours: 1.5,
        gain_hours: 0,
        loss_hours: 1.5,
        version: 3,
      });
      const back = await bulk([{ id: activity.id, version: 3, actual_hours: null }]);
      expect(back.json.data.results[0].activity).toMatchObject({
        actual_hours: 1.5,
        actual_hours_typed: false,
        gain_hours: 1.5,
      });
    });

    it('books and removes delays with a site delay code', async () => {
      const activity = await create();
      const codes = (await get(`${base()}/delay-codes`)).json.data as { id: number; code: string }[];
      const weather = codes.find((c) => c.code === 'WEA')?.id as number;
      const material = codes.find((c) => c.code === 'MAT')?.id as number;
      const added = await bulk([
        {
          id: activity.id,
          version: 1,
          add_delays: [
            { delay_code_id: weather, hours_lost: 1.25, notes: 'Sandstorm' },
            { delay_code_id: material, hours_lost: 0.5 },
          ],
        },
      ]);
      const booked = added.json.data.results[0].activity as Activity;
      expect(booked.delays.map((d) => [d.delay_code.code, d.hours_lost, d.notes])).toEqual([
        ['WEA', 1.25, 'Sandstorm'],
        ['MAT', 0.5, null],
      ]);
      expect(booked.delay_lost_hours).toBe(1.75);
      const removed = await bulk([{ id: activity.id, version: 2, remove_delay_ids: [booked.delays[1].id] }]);
      expect(removed.json.data.results[0].activity.delay_lost_hours).toBe(1.25);
      const foreign = await bulk([
        { id: activity.id, version: 3, add_delays: [{ delay_code_id: 2_000_000, hours_lost: 1 }] },
        { id: activity.id, version: 3, remove_delay_ids: [2_000_000] },
      ]);
      expect(foreign.json.data.results[0]).toEqual({
        id: activity.id,
        ok: false,
        message: PRODUCTIVITY_MESSAGES.delayCodeUnknown,
      });
      expect(foreign.json.data.results[1].message).toBe(PRODUCTIVITY_MESSAGES.duplicateRow);
    });

    it('refuses a booking on an activity no longer bookable', async () => {
      const activity = await create();
      const version = await setStatus(activity.id, 'in_review');
      const reply = await bulk([{ id: activity.id, version, booked_hours: 3 }]);
      expect(reply.json.data.results[0]).toEqual({
        id: activity.id,
        ok: false,
        message: 'An activity that is in_review can no longer be booked',
      });
      expect(messageKeyOf(reply.json.data.results[0].message)).toEqual({
        key: 'server.activity.notBookable',
        params: { from: 'in_review' },
      });
    });
  });

  describe('one bulk of changes', () => {
    it('writes the good rows in one go and leaves a bad one unchanged', async () => {
      const one = await create();
      const two = await create();
      const bad = await create();
      const reply = await bulk([
        { id: one.id, version: 1, installed_quantity: 10, action: 'start' },
        { id: bad.id, version: 1, booked_hours: -2, action: 'start' },
        { id: two.id, version: 1, booked_hours: 1.5 },
        { id: two.id, version: 1 },
      ]);
      expect(reply.statusCode).toBe(200);
      const results = reply.json.data.results;
      expect(results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, true, false]);
      expect(results[0].activity).toMatchObject({
        status: 'in_progress',
        installed_quantity: 10,
        version: 2,
      });
      expect(results[1].message).toBe(PRODUCTIVITY_MESSAGES.bookedHoursInvalid);
      expect(results[3].message).toBe(PRODUCTIVITY_MESSAGES.duplicateRow);
      const [unchanged] = await t.db.select().from(activities).where(eq(activities.id, bad.id));
      expect(unchanged).toMatchObject({ status: 'assigned', version: 1, bookedHours: null });
      // An id the caller does not reach (another client's, or none) refuses the whole request, writing nothing.
      for (const id of [otherActivityId, bad.id + 100_000]) {
        const hidden = await bulk([
          { id: bad.id, version: 1, action: 'start' },
          { id, version: 1, action: 'start' },
        ]);
        expect(hidden.statusCode).toBe(404);
        expect(hidden.json.message).toBe('Activity not found');
      }
      const [stillBad] = await t.db.select().from(activities).where(eq(activities.id, bad.id));
      expect(stillBad).toMatchObject({ status: 'assigned', version: 1 });
      const [foreign] = await t.db.select().from(activities).where(eq(activities.id, otherActivityId));
      expect(foreign.status).toBe('in_review');
      const nothing = await bulk([{ id: bad.id, version: 1 }]);
      expect(nothing.json.data.results[0].message).toBe(PRODUCTIVITY_MESSAGES.nothingToChange);
    });

    it('refuses a stale version and does not write over the newer row', async () => {
      const activity = await create();
      await bulk([{ id: activity.id, version: 1, booked_hours: 5 }]);
      const stale = await bulk([{ id: activity.id, version: 1, booked_hours: 1, action: 'start' }]);
      expect(stale.json.data.results[0]).toEqual({
        id: activity.id,
        ok: false,
        message: ACTIVITY_STATUS_MESSAGES.stale,
      });
      const [row] = await t.db.select().from(activities).where(eq(activities.id, activity.id));
      expect(row).toMatchObject({ bookedHours: '5.00', status: 'assigned', version: 2 });
    });

    it('needs a reason to reject, keeps it, and clears it on the next submission; the history tells who', async () => {
      const activity = await create();
      const version = await setStatus(activity.id, 'in_review');
      const noReason = await bulk([{ id: activity.id, version, action: 'reject', reason: '  ' }]);
      expect(noReason.json.data.results[0].message).toBe(ACTIVITY_STATUS_MESSAGES.reasonRequired);
      const rejected = await bulk([
        { id: activity.id, version, action: 'reject', reason: 'Quantities too high' },
      ]);
      expect(rejected.json.data.results[0].activity).toMatchObject({
        status: 'in_progress',
        rejection_reason: 'Quantities too high',
      });
      const finished = await bulk([{ id: activity.id, version: version + 1, action: 'finish' }]);
      const submitted = await bulk([{ id: activity.id, version: version + 2, action: 'submit' }]);
      expect(finished.json.data.results[0].ok).toBe(true);
      expect(submitted.json.data.results[0].activity).toMatchObject({
        status: 'in_review',
        rejection_reason: null,
      });
      const detail = await get(`${base()}/activity/${activity.id}`, tokens['crew-manager']);
      expect(detail.statusCode).toBe(200);
      expect(
        detail.json.data.history.map(
          (h: { from_status: string; to_status: string; reason: string | null }) => [
            h.from_status,
            h.to_status,
            h.reason,
          ],
        ),
      ).toEqual([
        ['in_review', 'in_progress', 'Quantities too high'],
        ['in_progress', 'done', null],
        ['done', 'in_review', null],
      ]);
      expect(detail.json.data.history[0].changed_by_name).toBeTruthy();
      expect(Date.parse(detail.json.data.history[0].changed_at)).not.toBeNaN();
    });
  });

  describe('the transition table, whole', () => {
    it('answers every status × action × role as transitionFor does', async () => {
      const activity = await create();
      const mismatches: string[] = [];
      for (const role of ['group-of-sites-admin', 'crew-manager', 'site-engineer'] as const) {
        for (const from of ACTIVITY_STATUSES) {
          for (const action of ACTIVITY_ACTIONS) {
            const version = await setStatus(activity.id, from);
            const reply =
              action === 'approve'
                ? await approve([{ id: activity.id, version }], tokens[role])
                : await bulk([{ id: activity.id, version, action, reason: 'Checked' }], tokens[role]);
            const result = reply.json.data?.results?.[0];
            const [row] = await t.db.select().from(activities).where(eq(activities.id, activity.id));
            const edge = transitionFor(role, from, action);
            const expected = edge
              ? { ok: true, status: edge.to, version: version + 1 }
              : { ok: false, status: from, version, message: refusalOf(role, from, action) };
            const actual = {
              ok: result?.ok,
              status: row.status,
              version: row.version,
              ...(result?.ok ? {} : { message: result?.message }),
            };
            if (JSON.stringify(actual) !== JSON.stringify(expected))
              mismatches.push(
                `${role} ${from} ${action}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`,
              );
          }
        }
      }
      expect(mismatches).toEqual([]);
    });

    it('records each status change once with who made it', async () => {
      const activity = await create();
      await bulk([{ id: activity.id, version: 1, action: 'start' }], tokens['site-engineer']);
      const changes = (await t.db.execute(sql`
        select from_status, to_status, changed_by from activity_status_changes where activity_id = ${activity.id}`)) as unknown as {
        rows: { from_status: string; to_status: string; changed_by: number }[];
      };
      const [engineer] = await t.db
        .select()
        .from(users)
        .where(eq(users.email, demoEmail('site-engineer')));
      expect(changes.rows).toEqual([
        { from_status: 'assigned', to_status: 'in_progress', changed_by: engineer.id },
      ]);
    });
  });

  describe('bulk approval', () => {
    it('approves what it may, refuses stale and forbidden rows per row, and counts them', async () => {
      const rows = [await create(), await create(), await create(), await create()];
      const versions = await Promise.all(rows.map((row) => setStatus(row.id, 'in_review')));
      versions[3] = await setStatus(rows[3].id, 'done');
      const reply = await approve(
        [
          { id: rows[0].id, version: versions[0] },
          { id: rows[1].id, version: versions[1] - 1 },
          { id: rows[2].id, version: versions[2] },
          { id: rows[3].id, version: versions[3] },
        ],
        tokens['crew-manager'],
      );
      // rows[3] was moved on before: approving it is refused by the table, not written.
      expect(reply.statusCode).toBe(200);
      expect(reply.json.message).toBe('2 of 4 activities approved');
      expect(messageKeyOf(reply.json.message as string)).toEqual({
        key: 'server.activity.approvedCount',
        params: { approved: 2, requested: 4 },
      });
      expect(reply.json.data.results).toEqual([
        { id: rows[0].id, ok: true, status: 'approved_by_cm' },
        { id: rows[1].id, ok: false, message: ACTIVITY_STATUS_MESSAGES.stale },
        { id: rows[2].id, ok: true, status: 'approved_by_cm' },
        { id: rows[3].id, ok: false, message: 'An activity that is done cannot be approved' },
      ]);
      const [stale] = await t.db.select().from(activities).where(eq(activities.id, rows[1].id));
      expect(stale).toMatchObject({ status: 'in_review', version: versions[1] });
      // Final approval is the admins'.
      const again = await approve([{ id: rows[0].id, version: versions[0] + 1 }], tokens['crew-manager']);
      expect(again.json.data.results[0].message).toBe(
        'Your role cannot approve an activity that is approved_by_cm',
      );
      const final = await approve([{ id: rows[0].id, version: versions[0] + 1 }]);
      expect(final.json.message).toBe('1 of 1 activities approved');
      expect(final.json.data.results[0]).toEqual({ id: rows[0].id, ok: true, status: 'approved' });
      const done = await approve([{ id: rows[0].id, version: versions[0] + 2 }]);
      expect(done.json.data.results[0].message).toBe('An activity that is approved cannot be approved');
    });

    it('refuses an empty or oversized request and writers only', async () => {
      expect((await approve([])).statusCode).toBe(422);
      const tooMany = Array.from({ length: 5001 }, (_, i) => ({ id: i + 1, version: 1 }));
      expect((await approve(tooMany)).statusCode).toBe(422);
      expect((await approve([{ id: 1, version: 1 }], tokens['group-of-sites-viewer'])).statusCode).toBe(403);
      expect(
        (await bulk([{ id: 1, version: 1, action: 'start' }], tokens['group-of-sites-viewer'])).statusCode,
      ).toBe(403);
      expect((await approve([{ id: 1, version: 1 }], tokens['safety-demo'])).statusCode).toBe(403);
    });
  });

  describe('reading', () => {
    it('lists the range with a summary over every filtered row, not the page', async () => {
      const day = '2026-03-20';
      const codes = (await get(`${base()}/delay-codes`)).json.data as { id: number; code: string }[];
      const weather = codes.find((c) => c.code === 'WEA')?.id as number;
      const gainer = await create({ day, zone_id: null });
      const loser = await create({ day, zone_id: null, crew_id: crewB });
      const unknown = await create({ day, zone_id: null });
      await bulk([
        // 30 at 10/h earn 3 against 2 typed: gain 1.
        {
          id: gainer.id,
          version: 1,
          installed_quantity: 30,
          actual_hours: 2,
          add_delays: [{ delay_code_id: weather, hours_lost: 0.75 }],
        },
        // 5 at 10/h earn 0.5 against 2.25: loss 1.75.
        {
          id: loser.id,
          version: 1,
          installed_quantity: 5,
          actual_hours: 2.25,
          add_delays: [{ delay_code_id: weather, hours_lost: 1.5 }],
        },
        { id: unknown.id, version: 1, installed_quantity: 5 },
      ]);
      const reply = await get(`${base()}/activity?from=${day}&to=${day}&perPage=1&sort=name,desc`);
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json.meta).toEqual({ page: 1, perPage: 1, total: 3 });
      expect(reply.json.data).toHaveLength(1);
      expect(reply.json.data[0].name).toBe([gainer.name, loser.name, unknown.name].sort().reverse()[0]);
      expect((reply.json as unknown as { summary: unknown }).summary).toEqual({
        by_crew: [
          { crew_id: crewA, crew_name: 'Productivity crew A', gain_hours: 1, loss_hours: 0 },
          { crew_id: crewB, crew_name: 'Productivity crew B', gain_hours: 0, loss_hours: 1.75 },
        ],
        by_delay_code: [{ delay_code_id: weather, code: 'WEA', name: 'Weather', hours_lost: 2.25 }],
      });
      const managed = await get(`${base()}/activity?from=${day}&to=${day}`, tokens['crew-manager']);
      expect(managed.json.data.map((a: Activity) => a.crew?.id)).toEqual([crewA, crewA]);
      expect((managed.json as unknown as { summary: { by_crew: unknown[] } }).summary.by_crew).toHaveLength(
        1,
      );
      const filtered = await get(
        `${base()}/activity?from=${day}&to=${day}&crew_id=${crewB}&status=assigned&search=pour`,
      );
      expect(filtered.json.data.map((a: Activity) => a.id)).toEqual([loser.id]);
    });

    it('reads a selection of the caller’s rows in the order asked for', async () => {
      const mine = await create();
      const theirs = await create({ crew_id: crewB });
      const all = await get(`${base()}/activity/bulk?ids=${theirs.id},${mine.id},${otherActivityId}`);
      expect(all.json.data.map((a: Activity) => a.id)).toEqual([theirs.id, mine.id]);
      const managed = await get(
        `${base()}/activity/bulk?ids=${theirs.id},${mine.id}`,
        tokens['crew-manager'],
      );
      expect(managed.json.data.map((a: Activity) => a.id)).toEqual([mine.id]);
      expect(managed.json.data[0].actions).toEqual(['start']);
      const viewer = await get(`${base()}/activity/bulk?ids=${mine.id}`, tokens['group-of-sites-viewer']);
      expect(viewer.json.data[0].actions).toEqual([]);
      for (const ids of ['1,x', '0', '', Array.from({ length: 1001 }, (_, i) => i + 1).join(',')]) {
        const bad = await get(`${base()}/activity/bulk?ids=${ids}`);
        expect(bad.statusCode, ids).toBe(422);
        expect(bad.json.errors?.ids).toBe(PRODUCTIVITY_MESSAGES.idsInvalid);
      }
    });

    it('hides another crew’s activity from a crew manager and another client’s from everyone', async () => {
      const theirs = await create({ crew_id: crewB });
      expect((await get(`${base()}/activity/${theirs.id}`)).statusCode).toBe(200);
      expect((await get(`${base()}/activity/${theirs.id}`, tokens['crew-manager'])).statusCode).toBe(404);
      const mine = await create();
      const refused = await bulk(
        [
          { id: mine.id, version: 1, action: 'start' },
          { id: theirs.id, version: 1, action: 'start' },
        ],
        tokens['crew-manager'],
      );
      expect(refused.statusCode).toBe(404);
      const approval = await approve([{ id: theirs.id, version: 1 }], tokens['crew-manager']);
      expect(approval.statusCode).toBe(404);
      const [untouched] = await t.db.select().from(activities).where(eq(activities.id, mine.id));
      expect(untouched).toMatchObject({ status: 'assigned', version: 1 });
      expect((await get(`${base()}/activity/${otherActivityId}`)).statusCode).toBe(404);
      const foreignSite = `/api/sites/${other.siteId}`;
      const answers = [
        await get(`${foreignSite}/activity`),
        await get(`${foreignSite}/activity/${otherActivityId}`),
        await get(`${foreignSite}/activity/bulk?ids=${otherActivityId}`),
        await get(`${foreignSite}/delay-codes`),
        await get(`${foreignSite}/activity-code`),
        await post(`${foreignSite}/activity`, {
          name: 'X',
          activity_code_id: otherCodeId,
          day: DAY,
          planned_quantity: 1,
          planned_hours: 1,
        }),
        await bulk([{ id: otherActivityId, version: 1, action: 'start' }]).then(() =>
          post(`${foreignSite}/activity/bulk`, {
            changes: [{ id: otherActivityId, version: 1, action: 'start' }],
          }),
        ),
        await post(`${foreignSite}/activity/approve/bulk`, {
          activities: [{ id: otherActivityId, version: 1 }],
        }),
      ];
      expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);
      const [foreign] = await t.db.select().from(activities).where(eq(activities.id, otherActivityId));
      expect(foreign).toMatchObject({ status: 'in_review', version: 1 });
    });

    it('refuses a bad range or sort with the field named', async () => {
      const cases: [string, Record<string, string>][] = [
        ['from=2026-13-01', { from: PRODUCTIVITY_MESSAGES.fromInvalid }],
        ['from=2026-03-10&to=nope', { to: PRODUCTIVITY_MESSAGES.toInvalid }],
        ['from=2026-03-10&to=2026-03-09', { to: PRODUCTIVITY_MESSAGES.toBeforeFrom }],
        ['from=2026-01-01&to=2026-12-31', { to: PRODUCTIVITY_MESSAGES.rangeTooLong }],
        ['sort=budget,asc', { sort: PRODUCTIVITY_MESSAGES.sortInvalid }],
        ['sort=day,up', { sort: PRODUCTIVITY_MESSAGES.sortInvalid }],
      ];
      for (const [query, errors] of cases) {
        const reply = await get(`${base()}/activity?${query}`);
        expect(reply.statusCode, query).toBe(422);
        expect(reply.json.errors, query).toEqual(errors);
      }
      expect((await get(`${base()}/activity?status=finished`)).statusCode).toBe(422);
    });

    it('defaults to the site-local week of today', async () => {
      const reply = await get(`${base()}/activity`, tokens['group-of-sites-viewer']);
      expect(reply.statusCode).toBe(200);
      const days = (reply.json.data as Activity[]).map((a) => a.day);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
      for (const day of days)
        expect(Math.abs(Date.parse(day) - Date.parse(today))).toBeLessThan(7 * 86_400_000);
    });
  });
});
