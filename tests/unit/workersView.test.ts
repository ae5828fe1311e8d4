import { describe, expect, it } from 'vitest';
import { workerListQuery } from '../../src/api/workers/workerList';
import { toWorkerDisplay, type WorkerFlat } from '../../src/domain/workers';
import { workerMessages } from '../../src/domain/workerValidation';
import { cellText, helmetDotColor, WORKER_COLUMNS } from '../../src/views/workers/workerColumns';
import { pictureProblem } from '../../src/views/workers/workerProblems';
import { buildWorkbook, exportFileName } from '../../src/views/workers/workersExport';

const flat: WorkerFlat = {
  id: 7,
  media_url: null,
  name: 'Amal',
  site_id: 1,
  worker_tag_id: 'T-7',
  contact_number: null,
  helmet_color: 'orange',
  created_at: '2026-01-02T10:00:00Z',
  updated_at: '2026-01-03T10:00:00Z',
  inventory_id: 3,
  inventory_assigned_at: '2026-01-02T10:00:00Z',
  is_online: true,
  is_active: false,
  worker_role_id: null,
  worker_role_name: 'Rigger',
  wnt_inventory_id: 'HLM-0003',
  building_name: null,
  floor_name: null,
  zone_name: null,
  last_seen: null,
  last_active_at: null,
  subcontractor_id: null,
  subcontractor_name: null,
  crew_name: null,
  workshift_name: null,
};

describe('worker list helpers', () => {
  it('leaves unset filters and a blank search out of the list query', () => {
    expect(
      workerListQuery({
        page: 2,
        perPage: 50,
        sort: { field: 'name', direction: 'desc' },
        search: '  ',
        roleId: null,
      }),
    ).toEqual({
      page: 2,
      perPage: 50,
      sort: 'name,desc',
      search: undefined,
      roleId: undefined,
      subcontractorId: undefined,
      crewId: undefined,
      workshiftId: undefined,
      status: undefined,
    });
    expect(
      workerListQuery({
        page: 1,
        perPage: 5,
        sort: { field: 'name', direction: 'asc' },
        search: ' ab ',
        status: 'offline',
        crewId: 4,
      }),
    ).toMatchObject({
      search: 'ab',
      status: 'offline',
      crewId: 4,
    });
  });

  it('draws a helmet dot only for a colour name or a #hex', () => {
    expect(helmetDotColor('Orange')).toBe('orange');
    expect(helmetDotColor('#fa0')).toBe('#fa0');
    expect(helmetDotColor('-NA-')).toBeNull();
    expect(helmetDotColor('url(x)')).toBeNull();
  });

  it('gives each column its display text, the status through the translator', () => {
    const display = toWorkerDisplay(flat, { placeholder: '-NA-', now: new Date('2026-01-05T00:00:00Z') });
    expect(cellText(display, 'helmet', String)).toBe('HLM-0003');
    expect(cellText(display, 'status', (s) => `<${s}>`)).toBe('<inactive>');
    expect(cellText(display, 'crew_name', String)).toBe('-NA-');
    expect(cellText(display, 'created_at', String)).toBe('2026-01-02');
    expect(new Set(WORKER_COLUMNS.map((c) => c.key)).size).toBe(WORKER_COLUMNS.length);
  });

  it('refuses pictures that are not PNG/JPEG or exceed 3 MB, in the spec words', () => {
    expect(pictureProblem({ name: 'a.png', type: 'image/png', size: 1000 })).toBeNull();
    expect(pictureProblem({ name: 'a.jpg', type: 'image/jpeg', size: 3 * 1024 * 1024 })).toBeNull();
    expect(pictureProblem({ name: 'a.gif', type: 'image/gif', size: 1000 })).toBe(workerMessages.image);
    expect(pictureProblem({ name: 'a.png', type: 'image/png', size: 3 * 1024 * 1024 + 1 })).toBe(
      workerMessages.image,
    );
  });

  it('names the export after the site and the day, and writes a readable workbook', async () => {
    expect(exportFileName('Tower A / North', new Date('2026-03-04T12:00:00Z'))).toBe(
      'workers-Tower-A-North-2026-03-04.xlsx',
    );
    expect(exportFileName('برج ١', new Date('2026-03-04T12:00:00Z'))).toBe('workers-برج-١-2026-03-04.xlsx');
    const bytes = await buildWorkbook(
      'Workers',
      [{ header: 'Name', value: (row: { n: string }) => row.n }],
      [{ n: 'Amal' }, { n: 'Omar' }],
    );
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('Name');
    expect(sheet.getRow(3).getCell(1).value).toBe('Omar');
  });
});
