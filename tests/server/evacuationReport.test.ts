import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../server/db/demoSeed';
import {
  evacuationSessions,
  evacuationStatusEvents,
  evacuationWorkers,
  inventoryItems,
  users,
  workers,
} from '../../server/db/schema';
import { buildSafetyApp } from '../../server/safety/safetyApp';
import type { EvacuationStatus } from '../../src/domain/evacuation';
import type { Role } from '../../src/domain/roles';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

const START = new Date('2025-04-02T08:00:00.000Z');
const at = (seconds: number) => new Date(START.getTime() + seconds * 1000);

describe('evacuation sessions and reports', () => {
  let t: TestApp;
  let safety: FastifyInstance;
  let other: OtherTenant;
  let fixture: DemoFloorFixture;
  let otherClientAdmin: string;
  let helmets: Record<'amal' | 'bilal' | 'carla', HelmetFixture>;
  const sessionId = randomUUID();
  const olderSessionId = randomUUID();
  const foreignSessionId = randomUUID();
  const tokens = {} as Record<Role, string>;

  async function addWorker(
    helmet: HelmetFixture,
    row: { status: EvacuationStatus; safeAt?: Date; acknowledgedAt?: Date; accountedAt?: Date },
    changes: [EvacuationStatus | null, EvacuationStatus, number][],
  ) {
    await t.db.insert(evacuationWorkers).values({
      sessionId,
      workerId: helmet.workerId,
      inventoryItemId: helmet.inventoryId,
      includedAt: START,
      statusChangedAt: at(changes.at(-1)?.[2] ?? 0),
      ...row,
    });
    await t.db.insert(evacuationStatusEvents).values(
      changes.map(([fromStatus, toStatus, seconds]) => ({
        sessionId,
        workerId: helmet.workerId,
        fromStatus,
        toStatus,
        cause: seconds === 0 ? 'start' : 'position',
        at: at(seconds),
      })),
    );
  }

  beforeAll(async () => {
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    fixture = await demoFloor(t.db);
    // The safety listener's REST routes need no live channel.
    safety = await buildSafetyApp({ db: t.db, config: t.config });
    await safety.ready();
    for (const role of ['group-of-sites-admin', 'group-of-sites-viewer', 'crew-manager'] as const)
      tokens[role] = await t.loginAs(role);
    otherClientAdmin = await t.login(other.email('client-admin'));
    const [admin] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('group-of-sites-admin')));

    const session = {
      siteId: fixture.siteId,
      floorIds: [fixture.floor.id],
      zoneIds: [],
      assemblyZoneIds: [fixture.zoneId('East wing')],
      evacuationFloorIds: [fixture.floor.id],
    };
    await t.db.insert(evacuationSessions).values([
      {
        ...session,
        id: olderSessionId,
        startedAt: new Date('2025-03-01T08:00:00Z'),
        endedAt: new Date('2025-03-01T08:10:00Z'),
      },
      {
        ...session,
        id: sessionId,
        startedAt: START,
        startedBy: admin.id,
        endedAt: at(900),
        endedBy: admin.id,
      },
      {
        ...session,
        id: foreignSessionId,
        siteId: other.siteId,
        floorIds: [other.floorId],
        assemblyZoneIds: [],
        evacuationFloorIds: [other.floorId],
        startedAt: START,
        endedAt: at(60),
      },
    ]);
    helmets = {
      amal: await seedWorkerWithHelmet(t.db, fixture.siteId, 'REP-AMAL'),
      bilal: await seedWorkerWithHelmet(t.db, fixture.siteId, 'REP-BILAL'),
      carla: await seedWorkerWithHelmet(t.db, fixture.siteId, 'REP-CARLA'),
    };
    const names = { amal: 'Amal Haddad', bilal: 'Bilal Nasser', carla: 'Carla Diaz' };
    for (const [key, helmet] of Object.entries(helmets)) {
      await t.db
        .update(inventoryItems)
        .set({ isOnline: true })
        .where(eq(inventoryItems.id, helmet.inventoryId));
      helmet.workerName = names[key as keyof typeof names];
      await t.db.update(workers).set({ name: helmet.workerName }).where(eq(workers.id, helmet.workerId));
    }
    // Amal acknowledged at 40 s and was safe at 95 s; Bilal safe at 130 s; Carla went offline, never accounted for.
    await addWorker(
      helmets.amal,
      { status: 'safe', safeAt: at(95), acknowledgedAt: at(40), accountedAt: at(40) },
      [
        [null, 'autoAcknowledge', 0],
        ['autoAcknowledge', 'manualAcknowledge', 40],
        ['manualAcknowledge', 'safe', 95],
      ],
    );
    await addWorker(helmets.bilal, { status: 'safe', safeAt: at(130), accountedAt: at(130) }, [
      [null, 'autoAcknowledge', 0],
      ['autoAcknowledge', 'safe', 130],
    ]);
    await addWorker(helmets.carla, { status: 'offline' }, [
      [null, 'autoAcknowledge', 0],
      ['autoAcknowledge', 'offline', 300],
    ]);
  });
  afterAll(async () => {
    await safety?.close();
    await t?.close();
  });

  const get = (token: string, url: string, options: Partial<InjectOptions> = {}) =>
    safety.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` }, ...options });

  it("lists a site's sessions newest first with their counts", async () => {
    const response = await get(
      tokens['group-of-sites-viewer'],
      `/api/safety/sites/${fixture.siteId}/evacuations`,
    );
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.map((s: { evacuationSessionId: string }) => s.evacuationSessionId)).toEqual([
      sessionId,
      olderSessionId,
    ]);
    expect(data[0]).toMatchObject({
      siteId: fixture.siteId,
      startedAt: START.toISOString(),
      endedAt: at(900).toISOString(),
      started: false,
      startedBy: 'Demo Site Admin',
      endedBy: 'Demo Site Admin',
      counts: { included: 3, safe: 2, manualAcknowledge: 0, autoAcknowledge: 0, offline: 1, stillInside: 1 },
    });
    expect(data[1].counts.included).toBe(0);
  });

  it('reports time to safety per worker, who was never accounted for, and the end counts', async () => {
    const response = await get(tokens['group-of-sites-admin'], `/api/safety/evacuations/${sessionId}/report`);
    expect(response.statusCode).toBe(200);
    const report = response.json().data;
    expect(
      report.workers.map((w: { name: string; timeToSafetySeconds: number | null; finalStatus: string }) => [
        w.name,
        w.timeToSafetySeconds,
        w.finalStatus,
      ]),
    ).toEqual([
      ['Amal Haddad', 95, 'safe'],
      ['Bilal Nasser', 130, 'safe'],
      ['Carla Diaz', null, 'offline'],
    ]);
    expect(report.workers[0]).toMatchObject({
      wntInventoryId: 'REP-AMAL',
      timeToAccountedSeconds: 40,
      statusChanges: 3,
    });
    expect(report.neverAccounted.map((w: { name: string }) => w.name)).toEqual(['Carla Diaz']);
    expect(report.timeUntilAllAccountedSeconds).toBeNull();
    expect(report.durationSeconds).toBe(900);
    expect(report.countsAtEnd).toMatchObject({ included: 3, safe: 2, offline: 1 });
  });

  it('exports the report as an .xlsx with a Summary, a Workers and a Figures sheet', async () => {
    const response = await get(
      tokens['group-of-sites-viewer'],
      `/api/safety/evacuations/${sessionId}/report.xlsx`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="evacuation-report-2025-04-02.xlsx"',
    );

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Summary', 'Workers', 'Figures']);
    const summary = new Map<string, unknown>();
    workbook.getWorksheet('Summary')?.eachRow((row, index) => {
      if (index > 1) summary.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    expect(summary.get('Site')).toBe('Tower A');
    expect(summary.get('Started at')).toBe(START.toISOString());
    expect(summary.get('Workers included')).toBe(3);
    expect(summary.get('Safe')).toBe(2);
    expect(summary.get('Never accounted for')).toBe(1);
    expect(summary.get('Time until everyone was accounted for (s)')).toBe('');

    const rows: unknown[][] = [];
    workbook.getWorksheet('Workers')?.eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1));
    });
    expect(rows[0].slice(0, 6)).toEqual([
      'Worker',
      'Helmet',
      'Included at',
      'Final status',
      'Safe at',
      'Time to safety (s)',
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[3], r[4], r[5], r[9]])).toEqual([
      ['Amal Haddad', 'REP-AMAL', 'safe', at(95).toISOString(), 95, 'no'],
      ['Bilal Nasser', 'REP-BILAL', 'safe', at(130).toISOString(), 130, 'no'],
      ['Carla Diaz', 'REP-CARLA', 'offline', '', '', 'yes'],
    ]);
  });

  it("answers 404 for another client's session and site, and 403 to a crew manager", async () => {
    for (const url of [
      `/api/safety/evacuations/${foreignSessionId}/report`,
      `/api/safety/evacuations/${foreignSessionId}/report.xlsx`,
      `/api/safety/evacuations/${randomUUID()}/report`,
      `/api/safety/sites/${other.siteId}/evacuations`,
    ]) {
      expect((await get(tokens['group-of-sites-admin'], url)).statusCode, url).toBe(404);
    }
    expect((await get(otherClientAdmin, `/api/safety/evacuations/${sessionId}/report`)).statusCode).toBe(404);
    expect(
      (await get(otherClientAdmin, `/api/safety/evacuations/${foreignSessionId}/report`)).statusCode,
    ).toBe(200);
    for (const url of [
      `/api/safety/evacuations/${sessionId}/report`,
      `/api/safety/sites/${fixture.siteId}/evacuations`,
    ])
      expect((await get(tokens['crew-manager'], url)).statusCode, url).toBe(403);
  });
});
