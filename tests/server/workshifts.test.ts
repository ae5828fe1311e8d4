import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workshiftAssignments, workshifts } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import { BREAK_MESSAGES } from '../../src/domain/workshiftBreaks';
import {
  addOtherTenantWorker,
  startDemoSiteSuite,
  suiteRequests,
  workerIdsOf,
} from './helpers/demoSiteSuite';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

interface Workshift {
  id: number;
  name: string;
  category: string;
  non_working_days: number[];
  start: string;
  end: string;
  breaks: { start: string; end: string }[];
}

describe('workshifts', () => {
  let t: TestApp;
  let other: OtherTenant;
  let siteId: number;
  let otherShiftId: number;
  let otherWorkerId: number;
  let siteWorkerIds: number[];
  let tokens: Record<Role, string>;

  beforeAll(async () => {
    ({ t, other, siteId, tokens } = await startDemoSiteSuite([
      'group-of-sites-admin',
      'group-of-sites-viewer',
      'crew-manager',
      'site-engineer',
    ]));
    [{ id: otherShiftId }] = await t.db
      .insert(workshifts)
      .values({ siteId: other.siteId, name: 'Depot day', startTime: '08:00', endTime: '16:00' })
      .returning();
    otherWorkerId = await addOtherTenantWorker(t.db, other);
    siteWorkerIds = await workerIdsOf(t.db, siteId);
  });
  afterAll(() => t.close());

  const admin = () => tokens['group-of-sites-admin'];
  const { get, post } = suiteRequests(() => t, admin);
  const create = (body: object) => post(`/api/sites/${siteId}/workshifts`, body);
  const shift = (name: string, start: string, end: string, breaks: { start: string; end: string }[]) => ({
    name,
    category: 'Test',
    non_working_days: [5, 0, 5],
    start,
    end,
    breaks,
  });

  it('lists the demo shifts sorted by name; viewers and crew managers read, engineers may not', async () => {
    const response = await get(`/api/sites/${siteId}/workshifts`);
    expect(response.statusCode).toBe(200);
    const list = response.json.data as Workshift[];
    expect(list.map((s) => s.name)).toEqual(['Control room', 'Day shift', 'Night shift']);
    expect(list[2]).toMatchObject({ start: '18:00', end: '06:00', non_working_days: [5], category: 'Night' });
    expect((await get(`/api/sites/${siteId}/workshifts?search=NIGHT`)).json.data).toHaveLength(1);
    expect((await get(`/api/sites/${siteId}/workshifts`, tokens['group-of-sites-viewer'])).statusCode).toBe(
      200,
    );
    expect((await get(`/api/sites/${siteId}/workshifts`, tokens['crew-manager'])).statusCode).toBe(200);
    expect((await get(`/api/sites/${siteId}/workshifts`, tokens['site-engineer'])).statusCode).toBe(403);
    // Crew managers may define shifts (DESIGN §4); viewers may not.
    expect(
      (
        await post(
          `/api/sites/${siteId}/workshifts`,
          shift('Crew manager shift', '08:00', '16:00', []),
          tokens['crew-manager'],
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await post(
          `/api/sites/${siteId}/workshifts`,
          shift('Viewer shift', '08:00', '16:00', []),
          tokens['group-of-sites-viewer'],
        )
      ).statusCode,
    ).toBe(403);
  });

  it('creates a shift crossing midnight with breaks after midnight', async () => {
    const response = await create(
      shift(' Late shift ', '20:00', '04:00', [
        { start: '23:00', end: '23:30' },
        { start: '01:00', end: '01:15' },
      ]),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json.message).toBe('Workshift is created successfully');
    expect(response.json.data).toMatchObject({
      name: 'Late shift',
      category: 'Test',
      non_working_days: [0, 5],
      start: '20:00',
      end: '04:00',
    });
    const edited = await post(`/api/sites/${siteId}/workshifts/${response.json.data.id}`, {
      breaks: [{ start: '02:00', end: '02:30' }],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json.data.breaks).toEqual([{ start: '02:00', end: '02:30' }]);
    // Moving the end before the break puts the break outside the shift.
    const shorter = await post(`/api/sites/${siteId}/workshifts/${response.json.data.id}`, { end: '01:00' });
    expect(shorter.statusCode).toBe(422);
    expect(shorter.json.errors).toEqual({ breaks: BREAK_MESSAGES.outside });
  });

  it('answers each break message with 422 on breaks', async () => {
    const cases: [string, ReturnType<typeof shift>][] = [
      [BREAK_MESSAGES.duration, shift('B1', '08:00', '10:00', [{ start: '09:00', end: '08:30' }])],
      [
        BREAK_MESSAGES.sequential,
        shift('B2', '08:00', '17:00', [
          { start: '12:00', end: '13:00' },
          { start: '10:00', end: '10:15' },
        ]),
      ],
      [
        BREAK_MESSAGES.conflicting,
        shift('B3', '22:00', '06:00', [
          { start: '23:30', end: '00:30' },
          { start: '00:15', end: '01:00' },
        ]),
      ],
      [BREAK_MESSAGES.outside, shift('B4', '22:00', '06:00', [{ start: '06:30', end: '07:00' }])],
    ];
    for (const [message, body] of cases) {
      const response = await create(body);
      expect(response.statusCode, message).toBe(422);
      expect(response.json.errors).toEqual({ breaks: message });
      expect(response.json.message).toBe(message);
    }
  });

  it('answers 422 for malformed fields and 409 for a duplicate name', async () => {
    const missing = await create({ name: 'No times' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json.errors).toMatchObject({ start: 'Start is required', end: 'End is required' });
    expect((await create(shift('Bad time', '24:00', '06:00', []))).statusCode).toBe(422);
    expect(
      (await create({ ...shift('Bad day', '08:00', '16:00', []), non_working_days: [7] })).statusCode,
    ).toBe(422);
    expect(
      (await create(shift('Bad break', '08:00', '16:00', [{ start: '9:00', end: '10:00' }]))).statusCode,
    ).toBe(422);
    expect((await create(shift('  ', '08:00', '16:00', []))).json.errors).toEqual({
      name: 'Name is required',
    });
    const dup = await create(shift(' day SHIFT ', '08:00', '16:00', []));
    expect(dup.statusCode).toBe(409);
    expect(dup.json.message).toBe('Workshift name already exists!');
  });

  it("answers 404 for another client's site or work shift", async () => {
    expect((await get(`/api/sites/${other.siteId}/workshifts`)).statusCode).toBe(404);
    expect((await post(`/api/sites/${siteId}/workshifts/${otherShiftId}`, { name: 'Mine' })).statusCode).toBe(
      404,
    );
    expect(
      (
        await post(`/api/sites/${siteId}/workers/workshifts/${otherShiftId}/assign`, {
          workerIds: [siteWorkerIds[0]],
          assigned_at: '2026-01-01',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('assigns workers to a shift in one transaction', async () => {
    const [day] = (await get(`/api/sites/${siteId}/workshifts?search=day`)).json.data as Workshift[];
    const url = `/api/sites/${siteId}/workers/workshifts/${day.id}/assign`;
    const count = async () =>
      (await t.db.select().from(workshiftAssignments).where(eq(workshiftAssignments.workshiftId, day.id)))
        .length;
    const before = await count();
    const refused = await post(url, {
      workerIds: [siteWorkerIds[0], otherWorkerId],
      assigned_at: '2026-04-01',
    });
    expect(refused.statusCode).toBe(404);
    expect(await count()).toBe(before);
    const assigned = await post(url, { workerIds: siteWorkerIds.slice(0, 2), assigned_at: '2026-04-01' });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json.data).toEqual({ assigned: 2, assigned_at: '2026-04-01' });
    expect(await count()).toBe(before + 2);
    expect((await post(url, { workerIds: [siteWorkerIds[0]], assigned_at: '01/04/2026' })).statusCode).toBe(
      422,
    );
  });
});
