import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../server/db/demoSeed';
import {
  buildings,
  crews,
  floors,
  subcontractors,
  workerRoles,
  workshifts,
  zones,
} from '../../server/db/schema';
import {
  BULK_KIND_DEFINITIONS,
  BULK_MESSAGES,
  type BulkKind,
  bulkKind,
  invalidCell,
  notOnSite,
} from '../../src/domain/bulkKinds';
import { messages } from '../../src/domain/messages';
import { bulkUpload, commitDraft, draftRows, kindWorkbook } from './helpers/bulkUploadFixture';
import { startDemoSiteSuite } from './helpers/demoSiteSuite';
import { libreOfficeWorkbook } from './helpers/libreOffice';
import type { TestApp } from './helpers/testApp';

type Cells = Record<string, string | undefined>;

interface KindCase {
  kind: BulkKind;
  /** Rows that commit on the demo site (after the cases before this one). */
  valid: () => Cells[];
  /** A row with one mistake, the column it is reported on and the spec's message. */
  invalid: () => { row: Cells; column: string; message: string };
  /** The rows this kind writes, counted. */
  count: string;
  /** How many rows `count` grows by when `valid` commits. */
  grows: number;
}

/**
 * Every upload kind, in an order where each can lean on what the ones before committed (activity
 * codes before activities, location groups before assignments to them): a valid file commits;
 * an invalid row gets the spec's message; a file with one bad row commits nothing; the same file
 * again is recognised and its rows are duplicates.
 */
describe('bulk uploads, every kind', () => {
  let t: TestApp;
  let siteId: number;
  let admin: string;
  const names = { role: '', sub: '', crew: '', crew2: '', unmanagedCrew: '', shift: '', zone: '', zone2: '' };

  beforeAll(async () => {
    let tokens: Record<string, string>;
    ({ t, siteId, tokens } = await startDemoSiteSuite(['group-of-sites-admin']));
    admin = tokens['group-of-sites-admin'];
    const first = async (
      table: typeof workerRoles | typeof subcontractors | typeof crews | typeof workshifts,
    ) =>
      (
        await t.db.select({ name: table.name }).from(table).where(eq(table.siteId, siteId)).orderBy(table.id)
      ).map((row) => row.name);
    names.role = (await first(workerRoles))[0];
    names.sub = (await first(subcontractors))[0];
    [names.crew, names.crew2] = await first(crews);
    names.shift = (await first(workshifts))[0];
    const unmanaged = (await t.db.execute(
      sql`select name from crews where site_id = ${siteId} and id not in (select crew_id from crew_managers) order by id limit 1`,
    )) as unknown as { rows: { name: string }[] };
    names.unmanagedCrew = unmanaged.rows[0].name;
    const zoneRows = await t.db
      .select({ building: buildings.name, floor: floors.name, zone: zones.name })
      .from(zones)
      .innerJoin(floors, eq(floors.id, zones.floorId))
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(eq(buildings.siteId, siteId))
      .orderBy(zones.id);
    [names.zone, names.zone2] = zoneRows.map((z) => `${z.building} / ${z.floor} / ${z.zone}`);
  });
  afterAll(() => t.close());

  const tag = (n: number) => `EMP-${1000 + n}`;

  const cases: KindCase[] = [
    {
      kind: 'workers',
      valid: () => [
        {
          name: 'Bulk Worker One',
          worker_tag_id: 'BULK-1',
          contact_number: '971500000001',
          worker_role: names.role,
          subcontractor: names.sub,
          crew: names.crew,
          workshift: names.shift,
        },
        { name: 'Bulk Worker Two', worker_tag_id: 'BULK-2', helmet_color: 'yellow' },
      ],
      invalid: () => ({
        row: { name: 'Bulk Worker Bad', worker_tag_id: 'BULK-3', contact_number: '12ab' },
        column: 'contact_number',
        message: messages.onlyDigits('Contact number'),
      }),
      // The workers, and the crew and work shift the first one joins today.
      count: `select (select count(*) from workers where worker_tag_id like 'BULK-%')
        + (select count(*) from crew_assignments a join workers w on w.id = a.worker_id where w.worker_tag_id = 'BULK-1')
        + (select count(*) from workshift_assignments a join workers w on w.id = a.worker_id where w.worker_tag_id = 'BULK-1')`,
      grows: 4,
    },
    {
      kind: 'crewWorkshiftAssignments',
      valid: () => [
        { worker_tag_id: tag(1), crew: names.crew2, assigned_at: '2026-12-01' },
        { worker_tag_id: tag(2), workshift: names.shift, assigned_at: '01/12/2026' },
      ],
      invalid: () => ({
        row: { worker_tag_id: 'NOBODY-1', crew: names.crew, assigned_at: '2026-12-01' },
        column: 'worker_tag_id',
        message: notOnSite('Worker tag id'),
      }),
      count: `select (select count(*) from crew_assignments where assigned_at = '2026-12-01') + (select count(*) from workshift_assignments where assigned_at = '2026-12-01')`,
      grows: 2,
    },
    {
      kind: 'locationGroups',
      valid: () => [
        { location_group: 'Bulk core', zone: names.zone },
        { location_group: 'Bulk core', zone: names.zone2 },
      ],
      invalid: () => ({
        row: { location_group: 'Bulk other', zone: 'No such zone' },
        column: 'zone',
        message: notOnSite('Zone'),
      }),
      count: 'select count(*) from location_group_zones',
      grows: 2,
    },
    {
      kind: 'locationAssignments',
      valid: () => [{ location_group: 'Bulk shell', zone: names.zone }],
      invalid: () => ({
        row: { location_group: 'Bulk core', zone: '' },
        column: 'zone',
        message: messages.required('Zone'),
      }),
      count: 'select count(*) from location_group_zones',
      grows: 1,
    },
    {
      kind: 'workerLocationAssignments',
      valid: () => [{ worker_tag_id: tag(3), location_group: 'Bulk core', assigned_at: '2026-12-01' }],
      invalid: () => ({
        row: { worker_tag_id: tag(4), location_group: 'Bulk core', assigned_at: '31/02/2026' },
        column: 'assigned_at',
        message: invalidCell('Assigned at'),
      }),
      count: 'select count(*) from worker_location_assignments',
      grows: 1,
    },
    {
      kind: 'attendance',
      valid: () => [
        { worker_tag_id: tag(1), day: '2026-11-20', present: 'Yes', check_in: '07:00', check_out: '16:30' },
        { worker_tag_id: tag(2), day: '2026-11-20', present: 'No' },
      ],
      invalid: () => ({
        row: { worker_tag_id: tag(3), day: '2026-11-20', present: 'Yes', check_in: '25:00' },
        column: 'check_in',
        message: invalidCell('Check in'),
      }),
      count: 'select count(*) from manual_attendance',
      grows: 2,
    },
    {
      kind: 'workerStatusAssignments',
      valid: () => [
        {
          worker_tag_id: tag(5),
          status: 'injured',
          starts_on: '2026-11-01',
          ends_on: '2026-11-30',
          notes: 'Ankle',
        },
      ],
      invalid: () => ({
        row: { worker_tag_id: tag(6), status: 'On holiday', starts_on: '2026-11-01' },
        column: 'status',
        message: notOnSite('Status'),
      }),
      count: 'select count(*) from worker_status_assignments',
      grows: 1,
    },
    {
      kind: 'crewGroups',
      valid: () => [
        { crew_group: 'Bulk crews', crew: names.crew },
        { crew_group: 'Bulk crews', crew: names.crew2 },
      ],
      invalid: () => ({
        row: { crew_group: 'B', crew: names.crew },
        column: 'crew_group',
        message: messages.minChars('Crew group', 2),
      }),
      count: 'select count(*) from crew_group_crews',
      grows: 2,
    },
    {
      kind: 'crewManagers',
      valid: () => [{ crew: names.unmanagedCrew, manager_email: demoEmail('crew-manager') }],
      invalid: () => ({
        row: { crew: names.crew, manager_email: demoEmail('group-of-sites-viewer') },
        column: 'manager_email',
        message: notOnSite('Manager e-mail'),
      }),
      count: 'select count(*) from crew_managers',
      grows: 1,
    },
    {
      kind: 'subcontractorGroups',
      valid: () => [{ subcontractor_group: 'Bulk subs', subcontractor: names.sub }],
      invalid: () => ({
        row: { subcontractor_group: '', subcontractor: names.sub },
        column: 'subcontractor_group',
        message: messages.required('Subcontractor group'),
      }),
      count: 'select count(*) from subcontractor_group_members',
      grows: 1,
    },
    {
      kind: 'workerRoleGroups',
      valid: () => [{ worker_role_group: 'Bulk trades', worker_role: names.role }],
      invalid: () => ({
        row: { worker_role_group: 'Bulk other trades', worker_role: 'Astronaut' },
        column: 'worker_role',
        message: notOnSite('Worker role'),
      }),
      count: 'select count(*) from worker_role_group_members',
      grows: 1,
    },
    {
      kind: 'reportHours',
      valid: () => [{ worker_tag_id: tag(1), day: '2026-11-20', hours: '8.5' }],
      invalid: () => ({
        row: { worker_tag_id: tag(2), day: '2026-11-20', hours: '25' },
        column: 'hours',
        message: invalidCell('Hours'),
      }),
      count: 'select count(*) from reported_hours',
      grows: 1,
    },
    {
      kind: 'activityCodes',
      valid: () => [{ code: 'BLK-01', name: 'Block work', uom: 'm2', target_rate: '2.5' }],
      invalid: () => ({
        row: { code: 'BLK-02', name: 'Block work 2', uom: 'm2', target_rate: 'fast' },
        column: 'target_rate',
        message: invalidCell('Target rate'),
      }),
      count: 'select count(*) from activity_codes',
      grows: 1,
    },
    {
      kind: 'activities',
      valid: () => [
        {
          name: 'Block wall L1',
          activity_code: 'blk-01',
          day: '2026-12-02',
          crew: names.crew,
          location_group: 'Bulk core',
          planned_quantity: '40',
          planned_hours: '16',
        },
      ],
      invalid: () => ({
        row: {
          name: 'Block wall L2',
          activity_code: 'BLK-01',
          day: '2026-12-02',
          planned_quantity: '-4',
          planned_hours: '16',
        },
        column: 'planned_quantity',
        message: invalidCell('Planned quantity'),
      }),
      count: 'select count(*) from activities',
      grows: 1,
    },
  ];

  const countOf = async (query: string) => {
    const result = (await t.db.execute(sql.raw(query))) as unknown as { rows: Record<string, unknown>[] };
    return Number(Object.values(result.rows[0])[0]);
  };

  it('commits an attendance sheet kept in LibreOffice Calc, its dates and times as LibreOffice stores them', {
    timeout: 120_000,
  }, async () => {
    const definition = bulkKind('attendance');
    const bytes = await libreOfficeWorkbook(
      `Worker tag id,Date,Present,Check in,Check out,Notes\n${tag(20)},2026-11-21,Yes,07:05,15:30,Gate\n${tag(21)},2026-11-21,No,,,\n`,
      'attendance',
    );
    const before = await countOf('select count(*) from manual_attendance');
    const upload = await bulkUpload(t, admin, siteId, definition, bytes, { mode: 'commit' });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(upload.json.data).toMatchObject({ status: 'committed', row_count: 2, error_row_count: 0 });
    expect(await countOf('select count(*) from manual_attendance')).toBe(before + 2);
    const stored = (await t.db.execute(
      sql`select day::text as day, check_in, check_out, present from manual_attendance where notes = 'Gate'`,
    )) as unknown as { rows: { day: string; check_in: string; check_out: string; present: boolean }[] };
    expect(stored.rows).toEqual([
      { day: '2026-11-21', check_in: '07:05', check_out: '15:30', present: true },
    ]);
  });

  it("answers every template call of the main API and the bulk sub-API with the kind's .xlsx", async () => {
    for (const definition of BULK_KIND_DEFINITIONS) {
      const urls = [
        `/api/sites/${siteId}/${definition.mainTemplatePath}`,
        `/bulk/api/sites/${siteId}/${definition.bulkPath}/template`,
      ];
      if (definition.siteFreeTemplatePath) urls.push(`/bulk/api/${definition.siteFreeTemplatePath}`);
      for (const url of urls) {
        const response = await t.call(admin, { method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-type']).toContain('spreadsheetml');
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
        const [sheet, help] = workbook.worksheets;
        expect((sheet.getRow(1).values as unknown[]).slice(1), url).toEqual(
          definition.columns.map((c) => c.label),
        );
        expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
        expect(help.name).toBe('Columns');
        expect(help.rowCount).toBeGreaterThanOrEqual(definition.columns.length + 1);
      }
    }
  });

  it('has a case for every kind', () => {
    expect(new Set(cases.map((c) => c.kind)).size).toBe(14);
  });

  for (const kindCase of cases) {
    it(`${kindCase.kind}: a bad row commits nothing, a valid file commits, the same file again is a duplicate`, async () => {
      const definition = bulkKind(kindCase.kind);
      // The "location assignment" case adds a zone to a group it makes first, on the site.
      if (kindCase.kind === 'locationAssignments') {
        const made = await bulkUpload(
          t,
          admin,
          siteId,
          bulkKind('locationGroups'),
          await kindWorkbook(bulkKind('locationGroups'), [
            { location_group: 'Bulk shell', zone: names.zone2 },
          ]),
          { mode: 'commit' },
        );
        expect(made.statusCode, made.body).toBe(200);
      }
      const before = await countOf(kindCase.count);
      const bad = kindCase.invalid();
      const mixed = await bulkUpload(
        t,
        admin,
        siteId,
        definition,
        await kindWorkbook(definition, [...kindCase.valid(), bad.row]),
      );
      expect(mixed.statusCode, mixed.body).toBe(200);
      expect(mixed.json.data).toMatchObject({
        status: 'draft',
        row_count: kindCase.valid().length + 1,
        error_row_count: 1,
      });
      const rows = await draftRows(t, admin, siteId, mixed.uploadId);
      const badRow = rows.find((row) => row.errors.length > 0);
      expect(badRow?.row_number).toBe(kindCase.valid().length + 2);
      expect(badRow?.errors).toContainEqual({ column: bad.column, message: bad.message });
      const refused = await commitDraft(t, admin, siteId, mixed.uploadId);
      expect(refused.statusCode).toBe(422);
      expect(refused.json.message).toBe(BULK_MESSAGES.hasErrors);
      expect(await countOf(kindCase.count)).toBe(before);

      const bytes = await kindWorkbook(definition, kindCase.valid());
      const good = await bulkUpload(t, admin, siteId, definition, bytes);
      expect(good.json.data).toMatchObject({ status: 'draft', error_row_count: 0, same_file_as: null });
      const committed = await commitDraft(t, admin, siteId, good.uploadId);
      expect(committed.statusCode, committed.body).toBe(200);
      expect(committed.json).toMatchObject({ message: 'Upload Success', data: { status: 'committed' } });
      expect(await countOf(kindCase.count)).toBe(before + kindCase.grows);

      const again = await bulkUpload(t, admin, siteId, definition, bytes);
      expect(again.json.data).toMatchObject({
        same_file_as: good.uploadId,
        error_row_count: kindCase.valid().length,
      });
      const duplicates = await draftRows(t, admin, siteId, again.uploadId);
      for (const row of duplicates)
        expect(row.errors.map((e) => e.message)).toContain(messages.duplicateName(definition.label));
      expect((await commitDraft(t, admin, siteId, again.uploadId)).statusCode).toBe(422);
      expect(await countOf(kindCase.count)).toBe(before + kindCase.grows);
    });
  }
});
