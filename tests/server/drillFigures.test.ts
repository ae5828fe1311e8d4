import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evacuationAlarms,
  evacuationMarks,
  evacuationRollPeople,
  evacuationSessions,
  evacuationStatusEvents,
  evacuationWorkers,
  workers,
} from '../../server/db/schema';
import { buildSafetyApp } from '../../server/safety/safetyApp';
import type { EvacuationStatus } from '../../src/domain/evacuation';
import {
  type DemoFloorFixture,
  demoFloor,
  type HelmetFixture,
  seedWorkerWithHelmet,
} from './helpers/ingestFixture';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { pdfText } from './helpers/pdfText';
import { startTestApp, type TestApp } from './helpers/testApp';

/** Three past drills of Tower A seeded row by row, with figures worked out by hand below. */
describe('drill figures: each report and the comparison across past drills', () => {
  let t: TestApp;
  let safety: FastifyInstance;
  let other: OtherTenant;
  let fixture: DemoFloorFixture;
  let token: string;
  let people: Record<'amal' | 'bilal' | 'carla' | 'dana', HelmetFixture>;
  const oldest = randomUUID();
  const middle = randomUUID();
  const empty = randomUUID();
  const running = randomUUID();
  const foreign = randomUUID();
  const startOf = {
    [oldest]: new Date('2025-03-01T08:00:00.000Z'),
    [middle]: new Date('2025-04-02T08:00:00.000Z'),
    [empty]: new Date('2025-05-01T08:00:00.000Z'),
  };
  const at = (sessionId: string, seconds: number) => new Date(startOf[sessionId].getTime() + seconds * 1000);

  /** An included worker's row and changes; `row` holds what the service would have stored. */
  async function include(
    sessionId: string,
    helmet: HelmetFixture,
    row: { status: EvacuationStatus; accountedAt?: number; safeAt?: number; leftFloorAt?: number },
    changes: [EvacuationStatus, number][],
  ) {
    const time = (seconds: number | undefined) => (seconds === undefined ? null : at(sessionId, seconds));
    await t.db.insert(evacuationWorkers).values({
      sessionId,
      workerId: helmet.workerId,
      inventoryItemId: helmet.inventoryId,
      status: row.status,
      includedAt: at(sessionId, 0),
      statusChangedAt: at(sessionId, changes.at(-1)?.[1] ?? 0),
      safeAt: time(row.safeAt),
      accountedAt: time(row.accountedAt),
      originFloorId: fixture.floor.id,
      leftFloorAt: time(row.leftFloorAt),
    });
    await t.db.insert(evacuationStatusEvents).values(
      changes.map(([toStatus, seconds], index) => ({
        sessionId,
        workerId: helmet.workerId,
        fromStatus: index === 0 ? null : changes[index - 1][0],
        toStatus,
        cause: index === 0 ? 'start' : 'position',
        at: at(sessionId, seconds),
      })),
    );
  }

  beforeAll(async () => {
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    fixture = await demoFloor(t.db);
    safety = await buildSafetyApp({ db: t.db, config: t.config });
    await safety.ready();
    token = await t.loginAs('group-of-sites-viewer');

    const scope = {
      siteId: fixture.siteId,
      floorIds: [fixture.floor.id],
      zoneIds: [],
      assemblyZoneIds: [fixture.zoneId('East wing')],
      evacuationFloorIds: [fixture.floor.id],
    };
    await t.db.insert(evacuationSessions).values([
      { ...scope, id: oldest, startedAt: startOf[oldest], endedAt: at(oldest, 600) },
      { ...scope, id: middle, startedAt: startOf[middle], endedAt: at(middle, 900) },
      { ...scope, id: empty, startedAt: startOf[empty], endedAt: at(empty, 60) },
      // Still running: not a past drill.
      { ...scope, id: running, startedAt: new Date('2025-06-01T08:00:00Z') },
      {
        ...scope,
        id: foreign,
        siteId: other.siteId,
        floorIds: [other.floorId],
        assemblyZoneIds: [],
        evacuationFloorIds: [other.floorId],
        startedAt: startOf[middle],
        endedAt: at(middle, 60),
      },
    ]);
    people = {
      amal: await seedWorkerWithHelmet(t.db, fixture.siteId, 'DRL-AMAL'),
      bilal: await seedWorkerWithHelmet(t.db, fixture.siteId, 'DRL-BILAL'),
      carla: await seedWorkerWithHelmet(t.db, fixture.siteId, 'DRL-CARLA'),
      dana: await seedWorkerWithHelmet(t.db, fixture.siteId, 'DRL-DANA'),
    };
    // A name a spreadsheet would take for a formula, and an Arabic one.
    const names = { amal: 'Amal Haddad', bilal: '=Bilal Nasser', carla: 'Carla Diaz', dana: 'سمير حداد' };
    for (const [key, helmet] of Object.entries(people)) {
      helmet.workerName = names[key as keyof typeof names];
      await t.db.update(workers).set({ name: helmet.workerName }).where(eq(workers.id, helmet.workerId));
    }

    // The oldest drill: Amal safe at 120 s, Bilal at 200 s.
    await include(oldest, people.amal, { status: 'safe', safeAt: 120, accountedAt: 120, leftFloorAt: 100 }, [
      ['autoAcknowledge', 0],
      ['safe', 120],
    ]);
    await include(oldest, people.bilal, { status: 'safe', safeAt: 200, accountedAt: 200, leftFloorAt: 150 }, [
      ['autoAcknowledge', 0],
      ['safe', 200],
    ]);

    // The middle drill: Amal safe at 60 s, back inside at 70 s, safe again at 80 s; Bilal pressed
    // the button at 30 s and was marked at 90 s; Carla was marked at 150 s by mistake and unmarked
    // at 160 s; Dana never heard from; a visitor added and marked at 100 s.
    await include(middle, people.amal, { status: 'safe', safeAt: 60, accountedAt: 60, leftFloorAt: 50 }, [
      ['autoAcknowledge', 0],
      ['safe', 60],
      ['reEntered', 70],
      ['safe', 80],
    ]);
    await include(middle, people.bilal, { status: 'marked', accountedAt: 30 }, [
      ['autoAcknowledge', 0],
      ['manualAcknowledge', 30],
      ['marked', 90],
    ]);
    await include(middle, people.carla, { status: 'offline', accountedAt: 150 }, [
      ['offline', 0],
      ['marked', 150],
      ['offline', 160],
    ]);
    await include(middle, people.dana, { status: 'offline' }, [['offline', 0]]);
    const [visitor] = await t.db
      .insert(evacuationRollPeople)
      .values({ sessionId: middle, name: 'Visitor', addedAt: at(middle, 100) })
      .returning();
    await t.db.insert(evacuationMarks).values([
      { sessionId: middle, workerId: people.bilal.workerId, reason: 'seen', markedAt: at(middle, 90) },
      {
        sessionId: middle,
        workerId: people.carla.workerId,
        reason: 'wrong person',
        markedAt: at(middle, 150),
        undoneAt: at(middle, 160),
      },
      { sessionId: middle, rollPersonId: visitor.id, reason: 'seen', markedAt: at(middle, 100) },
    ]);
    await t.db.insert(evacuationAlarms).values(
      [
        [people.amal, at(middle, 2)],
        [people.bilal, null],
        [people.carla, at(middle, 3)],
      ].map(([helmet, deliveredAt], index) => ({
        sessionId: middle,
        commandId: `alarm-${index}`,
        inventoryItemId: (helmet as HelmetFixture).inventoryId,
        workerId: (helmet as HelmetFixture).workerId,
        kind: 'evacuate',
        sentAt: at(middle, 0),
        deliveredAt: deliveredAt as Date | null,
      })),
    );
  });
  afterAll(async () => {
    await safety?.close();
    await t?.close();
  });

  const get = (url: string, bearer = token) =>
    safety.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } });

  // Muster times 60, 90, 150 s (Carla's mark counts: she was accounted for then); a roll of five.
  const middleFigures = () => ({
    rollSize: 5,
    mustered: 3,
    medianSecondsToMuster: 90,
    // Rank 1.8 between 90 and 150.
    p90SecondsToMuster: 138,
    maxSecondsToMuster: 150,
    // Three of five at 100 s (Amal, Bilal, the visitor); never five, Dana being lost.
    secondsTo50Percent: 100,
    secondsTo90Percent: null,
    secondsTo100Percent: null,
    floorsCleared: [{ floorId: fixture.floor.id, clearedAfterSeconds: null, remaining: 2 }],
    alarmsSent: 3,
    // Bilal's never confirmed, Dana was never sent one.
    alarmsUndelivered: 2,
    marksMade: 3,
    marksUndone: 1,
    reEntries: 1,
  });

  it("compares the site's past drills, oldest first, without the running one", async () => {
    const response = await get(`/api/safety/sites/${fixture.siteId}/evacuations/figures`);
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.map((d: { evacuationSessionId: string }) => d.evacuationSessionId)).toEqual([
      oldest,
      middle,
      empty,
    ]);
    expect(data[0]).toMatchObject({
      startedAt: startOf[oldest].toISOString(),
      endedAt: at(oldest, 600).toISOString(),
      figures: {
        rollSize: 2,
        medianSecondsToMuster: 160,
        p90SecondsToMuster: 192,
        maxSecondsToMuster: 200,
        secondsTo50Percent: 120,
        secondsTo90Percent: 200,
        secondsTo100Percent: 200,
        floorsCleared: [{ floorId: fixture.floor.id, clearedAfterSeconds: 150, remaining: 0 }],
      },
    });
    expect(data[1].figures).toEqual(middleFigures());
    expect(data[2].figures).toMatchObject({
      rollSize: 0,
      medianSecondsToMuster: null,
      secondsTo100Percent: null,
      floorsCleared: [{ floorId: fixture.floor.id, clearedAfterSeconds: 0, remaining: 0 }],
    });
  });

  it('gives the report the same figures, each worker’s time to muster and the floors by name', async () => {
    const response = await get(`/api/safety/evacuations/${middle}/report`);
    expect(response.statusCode).toBe(200);
    const report = response.json().data;
    expect(report.figures).toEqual(middleFigures());
    expect(
      Object.fromEntries(
        report.workers.map((w: { name: string; timeToMusterSeconds: number | null }) => [
          w.name,
          w.timeToMusterSeconds,
        ]),
      ),
    ).toEqual({ 'Amal Haddad': 60, '=Bilal Nasser': 90, 'Carla Diaz': 150, 'سمير حداد': null });
    expect(report.floorsCleared).toEqual([
      {
        floorId: fixture.floor.id,
        place: { building: 'North Block', floor: 'Level 1', zone: null },
        clearedAfterSeconds: null,
        remaining: 2,
      },
    ]);
    // The fields readers already had are still there.
    expect(report.neverAccounted.map((w: { name: string }) => w.name)).toEqual(['سمير حداد']);
    expect(report.countsAtEnd).toMatchObject({ included: 4, safe: 1, marked: 1, offline: 2 });
  });

  it('exports the figures as a Figures sheet beside Summary and Workers, formulas neutralised', async () => {
    const response = await get(`/api/safety/evacuations/${middle}/report.xlsx`);
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Summary', 'Workers', 'Figures']);
    const figures = new Map<string, unknown>();
    workbook.getWorksheet('Figures')?.eachRow((row, index) => {
      if (index > 1) figures.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    expect(Object.fromEntries(figures)).toEqual({
      'People on the roll': 5,
      'Workers mustered': 3,
      'Median time to muster (s)': 90,
      '90th percentile time to muster (s)': 138,
      'Maximum time to muster (s)': 150,
      '50 % accounted for after (s)': 100,
      '90 % accounted for after (s)': '',
      '100 % accounted for after (s)': '',
      'Alarms sent': 3,
      'Alarms undelivered': 2,
      'Marks made': 3,
      'Marks undone': 1,
      'Re-entries': 1,
      'Floor cleared after (s): Level 1 · North Block': '',
    });
    const names: unknown[] = [];
    workbook.getWorksheet('Workers')?.eachRow((row, index) => {
      if (index > 1) names.push(row.getCell(1).value);
    });
    expect(names).toContain("'=Bilal Nasser");
    expect(names).not.toContain('=Bilal Nasser');
  });

  it('exports the report as a PDF with the header, the figures, the floors and who was never accounted for', async () => {
    const response = await get(`/api/safety/evacuations/${middle}/report.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="evacuation-report-2025-04-02.pdf"',
    );
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const lines = pdfText(bytes);
    const shownFor = (label: string) => lines[lines.indexOf(label) + 1];
    expect(lines).toContain('Tower A');
    expect(shownFor('Evacuation session')).toBe(middle);
    expect(shownFor('Median time to muster')).toBe('90 s (1:30)');
    expect(shownFor('90th percentile time to muster')).toBe('138 s (2:18)');
    expect(shownFor('Maximum time to muster')).toBe('150 s (2:30)');
    expect(shownFor('50 % accounted for after')).toBe('100 s (1:40)');
    expect(shownFor('100 % accounted for after')).toBe('not reached');
    expect(shownFor('Alarms undelivered')).toBe('2');
    // The floor is named in the header (evacuated) and then among the floors cleared.
    expect(lines[lines.lastIndexOf('Level 1 · North Block') + 1]).toBe('not cleared (2 still there)');
    expect(lines).toContain('Never accounted for (1)');
    // The Arabic name is drawn right to left: its glyphs stand in reverse reading order.
    expect(lines.map((line) => [...line].reverse().join(''))).toContain('سمير حداد');
  });

  it("answers 404 for another client's site and session, and 403 to a crew manager", async () => {
    expect((await get(`/api/safety/sites/${other.siteId}/evacuations/figures`)).statusCode).toBe(404);
    expect((await get(`/api/safety/evacuations/${foreign}/report.pdf`)).statusCode).toBe(404);
    const crewManager = await t.loginAs('crew-manager');
    expect(
      (await get(`/api/safety/sites/${fixture.siteId}/evacuations/figures`, crewManager)).statusCode,
    ).toBe(403);
    expect((await get(`/api/safety/evacuations/${middle}/report.pdf`, crewManager)).statusCode).toBe(403);
  });
});
