import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../server/db/demoSeed';
import {
  buildings,
  crewAssignments,
  crewManagers,
  crews,
  floors,
  manualAttendance,
  presenceMinutes,
  subcontractors,
  users,
  workers,
  workshiftAssignments,
  workshifts,
} from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import type { AttendanceRow, SubcontractorTotal } from '../../src/domain/schemas/attendance';
import { siteInstant } from '../../src/domain/siteClock';
import { startDemoSiteSuite, suiteRequests } from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

// The demo site runs on Asia/Dubai time (UTC+4).
const DAY = '2026-03-10';
const ZONE = 'Asia/Dubai';
const at = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return siteInstant(DAY, h * 3600 + m * 60, ZONE);
};

describe('daily attendance report', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let tokens: Record<Role, string>;
  let subId: number;
  let crewA: number;
  let crewB: number;
  let shiftId: number;
  let seenId: number;
  let typedId: number;

  beforeAll(async () => {
    ({ t, other, siteId, tokens } = await startDemoSiteSuite([
      'group-of-sites-admin',
      'group-of-sites-viewer',
      'crew-manager',
      'site-engineer',
    ]));
    const db = t.db;
    [{ id: subId }] = await db.insert(subcontractors).values({ siteId, name: 'Attendance Sub' }).returning();
    [{ id: crewA }] = await db.insert(crews).values({ siteId, name: 'Attendance crew A' }).returning();
    [{ id: crewB }] = await db.insert(crews).values({ siteId, name: 'Attendance crew B' }).returning();
    const [manager] = await db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('crew-manager')));
    await db.insert(crewManagers).values({ crewId: crewA, userId: manager.id });
    [{ id: shiftId }] = await db
      .insert(workshifts)
      .values({
        siteId,
        name: 'Attendance day',
        startTime: '08:00',
        endTime: '17:00',
        breaks: [{ start: '12:00', end: '13:00' }],
      })
      .returning();
    const [seen, typed] = await db
      .insert(workers)
      .values([
        { siteId, name: 'Amal Seen', subcontractorId: subId, workerTagId: 'ATT-1' },
        { siteId, name: '=Typed Only', subcontractorId: subId, workerTagId: 'ATT-2' },
      ])
      .returning();
    seenId = seen.id;
    typedId = typed.id;
    await db.insert(crewAssignments).values([
      { crewId: crewA, workerId: seenId, assignedAt: '2026-01-01' },
      { crewId: crewB, workerId: typedId, assignedAt: '2026-01-01' },
    ]);
    await db.insert(workshiftAssignments).values([
      { workshiftId: shiftId, workerId: seenId, assignedAt: '2026-01-01' },
      { workshiftId: shiftId, workerId: typedId, assignedAt: '2026-01-01' },
    ]);
    const [floor] = await db
      .select({ id: floors.id })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(eq(buildings.siteId, siteId))
      .limit(1);
    // 07:30–17:30 on site, the helmet silent 10:00–11:00.
    const minutes: (typeof presenceMinutes.$inferInsert)[] = [];
    for (let ms = at('07:30'); ms < at('17:30'); ms += 60_000) {
      if (ms >= at('10:00') && ms < at('11:00')) continue;
      minutes.push({ siteId, workerId: seenId, floorId: floor.id, bucket: new Date(ms), seconds: 60 });
    }
    await db.insert(presenceMinutes).values(minutes);
    await db.insert(manualAttendance).values({
      siteId,
      workerId: typedId,
      day: DAY,
      checkIn: '08:00',
      checkOut: '16:00',
      present: true,
      notes: 'Gate register',
    });
  });
  afterAll(() => t.close());

  const { get } = suiteRequests(
    () => t,
    () => tokens['group-of-sites-admin'],
  );
  const daily = (query: string, token?: string) =>
    get(`/api/sites/${siteId}/attendance/daily?from=${DAY}&to=${DAY}${query}`, token);

  it('computes hours from presence and keeps the manual attendance beside it, with totals per subcontractor', async () => {
    const response = await daily(`&subcontractor_id=${subId}`);
    expect(response.statusCode).toBe(200);
    const rows = response.json.data.rows as AttendanceRow[];
    expect(rows.map((r) => r.worker_name)).toEqual(['=Typed Only', 'Amal Seen']);
    const seen = rows.find((r) => r.worker_id === seenId);
    expect(seen).toMatchObject({
      day: DAY,
      crew_name: 'Attendance crew A',
      workshift_name: 'Attendance day',
      first_seen: '2026-03-10T03:30:00.000Z',
      last_seen: '2026-03-10T13:30:00.000Z',
      on_site_hours: 9,
      break_hours: 1,
      shift_hours: 7,
      overtime_hours: 1,
      effective_hours: 8,
      late: false,
      absent: false,
      status: 'present',
      manual: null,
    });
    const typed = rows.find((r) => r.worker_id === typedId);
    expect(typed).toMatchObject({
      on_site_hours: 0,
      effective_hours: 7,
      absent: false,
      status: 'present',
      manual: { present: true, check_in: '08:00', check_out: '16:00', hours: 7, notes: 'Gate register' },
    });
    const totals = response.json.data.totals as SubcontractorTotal[];
    expect(totals).toEqual([
      expect.objectContaining({
        subcontractor_name: 'Attendance Sub',
        workers: 2,
        present_days: 2,
        absent_days: 0,
        on_site_hours: 9,
        effective_hours: 15,
      }),
    ]);
    const headcount = response.json.data.headcount as { hour: number; peak: number }[];
    expect(headcount).toHaveLength(24);
    expect(headcount[7]?.peak).toBe(1);
    expect(headcount[10]?.peak).toBe(0);
    expect(response.json.meta).toEqual({ page: 1, perPage: 50, total: 2 });
  });

  it('filters by crew and shift on the day, and pages', async () => {
    const crew = await daily(`&crew_id=${crewB}`);
    expect((crew.json.data.rows as AttendanceRow[]).map((r) => r.worker_id)).toEqual([typedId]);
    const shift = await daily(`&workshift_id=${shiftId}&perPage=1&page=2`);
    expect(shift.json.meta).toEqual({ page: 2, perPage: 1, total: 2 });
    expect((shift.json.data.rows as AttendanceRow[]).map((r) => r.worker_id)).toEqual([seenId]);
  });

  it('shows a crew manager only its crews, even when it names another crew', async () => {
    const own = await daily(`&subcontractor_id=${subId}`, tokens['crew-manager']);
    expect(own.statusCode).toBe(200);
    expect((own.json.data.rows as AttendanceRow[]).map((r) => r.worker_id)).toEqual([seenId]);
    const otherCrew = await daily(`&crew_id=${crewB}`, tokens['crew-manager']);
    expect(otherCrew.statusCode).toBe(200);
    expect(otherCrew.json.data.rows).toEqual([]);
    expect(otherCrew.json.data.totals).toEqual([]);
  });

  it('lets a site viewer read, refuses a site engineer and hides another client’s site', async () => {
    expect((await daily('', tokens['group-of-sites-viewer'])).statusCode).toBe(200);
    expect((await daily('', tokens['site-engineer'])).statusCode).toBe(403);
    const otherAdmin = await t.login(other.email('group-of-sites-admin'));
    expect((await daily('', otherAdmin)).statusCode).toBe(404);
    const theirs = await get(`/api/sites/${other.siteId}/attendance/daily?from=${DAY}&to=${DAY}`);
    expect(theirs.statusCode).toBe(404);
  });

  it('answers bad input with 422 naming the field, never 500', async () => {
    const url = (query: string) => `/api/sites/${siteId}/attendance/daily?${query}`;
    const impossible = await get(url('from=2026-02-30&to=2026-03-01'));
    expect(impossible.statusCode).toBe(422);
    expect(impossible.json.errors).toEqual({
      from: 'From must be a date written YYYY-MM-DD, e.g. 2026-11-26',
    });
    const backwards = await get(url('from=2026-03-10&to=2026-03-09'));
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json.errors).toEqual({ to: 'To must be on or after From' });
    const tooLong = await get(url('from=2026-01-01&to=2026-03-01'));
    expect(tooLong.json.errors).toEqual({ to: 'A report may span at most 31 days' });
    const notAnId = await get(url(`from=${DAY}&crew_id=abc`));
    expect(notAnId.statusCode).toBe(422);
    expect(Object.keys(notAnId.json.errors ?? {})).toEqual(['crew_id']);
    const hugePage = await get(url('perPage=100000'));
    expect(hugePage.statusCode).toBe(422);
    expect(Object.keys(hugePage.json.errors ?? {})).toEqual(['perPage']);
  });

  it('exports the rows and totals as .xlsx with formulas neutralised', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}/attendance/daily/export?from=${DAY}&to=${DAY}&subcontractor_id=${subId}`,
      headers: { authorization: `Bearer ${tokens['group-of-sites-viewer']}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Attendance');
    if (!sheet) throw new Error('no Attendance sheet');
    const values = (row: number) => (sheet.getRow(row).values as unknown[]).slice(1);
    expect(values(1).slice(0, 3)).toEqual(['Date', 'Worker', 'Worker tag']);
    expect(values(2).slice(0, 2)).toEqual(['10/03/2026', "'=Typed Only"]);
    expect(values(3)).toEqual(expect.arrayContaining(['Amal Seen', '07:30', '17:30', 9, 7, 8]));
    const totals = workbook.getWorksheet('Subcontractors');
    if (!totals) throw new Error('no Subcontractors sheet');
    expect((totals.getRow(2).values as unknown[]).slice(1, 3)).toEqual(['Attendance Sub', 2]);
    const refused = await t.call(tokens['site-engineer'], {
      method: 'GET',
      url: `/api/sites/${siteId}/attendance/daily/export?from=${DAY}`,
    });
    expect(refused.statusCode).toBe(403);
  });
});
