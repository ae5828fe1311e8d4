import ExcelJS from 'exceljs';
import type { AttendanceReport, AttendanceRow } from '../../src/domain/schemas/attendance';
import { clockTime } from '../../src/domain/siteClock';
import { neutraliseFormula } from '../../src/domain/spreadsheetText';

/**
 * The report as an .xlsx workbook: an Attendance sheet (one row per worker and day, clock times
 * on the site's wall clock, hours as numbers with two decimals) and a Subcontractors sheet (the
 * totals a site pays for). Every text cell is neutralised, so a name starting with "=" stays text.
 */

type Cell = string | number;

const clock = (iso: string | null, timeZone: string) =>
  iso === null ? '' : clockTime(Date.parse(iso), timeZone).slice(0, 5);
const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** DD/MM/YYYY, as the console shows a day (spec §9). */
const dayText = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

const ROW_COLUMNS: readonly {
  header: string;
  width: number;
  value(row: AttendanceRow, zone: string): Cell;
}[] = [
  { header: 'Date', width: 12, value: (r) => dayText(r.day) },
  { header: 'Worker', width: 28, value: (r) => r.worker_name },
  { header: 'Worker tag', width: 14, value: (r) => r.worker_tag_id ?? '' },
  { header: 'Subcontractor', width: 22, value: (r) => r.subcontractor_name ?? '' },
  { header: 'Worker role', width: 18, value: (r) => r.worker_role_name ?? '' },
  { header: 'Crew', width: 18, value: (r) => r.crew_name ?? '' },
  { header: 'Work shift', width: 18, value: (r) => r.workshift_name ?? '' },
  {
    header: 'Shift hours',
    width: 13,
    value: (r) => (r.shift_start ? `${r.shift_start}–${r.shift_end}` : ''),
  },
  { header: 'First seen', width: 11, value: (r, zone) => clock(r.first_seen, zone) },
  { header: 'Last seen', width: 11, value: (r, zone) => clock(r.last_seen, zone) },
  { header: 'Hours on site', width: 13, value: (r) => r.on_site_hours },
  { header: 'Hours in shift', width: 13, value: (r) => r.shift_hours },
  { header: 'Overtime', width: 11, value: (r) => r.overtime_hours },
  { header: 'Breaks on site', width: 13, value: (r) => r.break_hours },
  { header: 'Manual present', width: 14, value: (r) => (r.manual ? yesNo(r.manual.present) : '') },
  { header: 'Manual check-in', width: 14, value: (r) => r.manual?.check_in ?? '' },
  { header: 'Manual check-out', width: 15, value: (r) => r.manual?.check_out ?? '' },
  { header: 'Manual hours', width: 13, value: (r) => r.manual?.hours ?? '' },
  { header: 'Manual notes', width: 24, value: (r) => r.manual?.notes ?? '' },
  { header: 'Effective hours', width: 14, value: (r) => r.effective_hours },
  { header: 'Late', width: 7, value: (r) => yesNo(r.late) },
  { header: 'Absent', width: 8, value: (r) => yesNo(r.absent) },
  { header: 'Status', width: 10, value: (r) => r.status },
];

const HOURS_FORMAT = '#,##0.00';

export async function attendanceWorkbook(report: AttendanceReport, siteName: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sitewatch';
  const sheet = workbook.addWorksheet('Attendance', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = ROW_COLUMNS.map((column, index) => ({
    header: column.header,
    key: `c${index}`,
    width: column.width,
  }));
  for (const row of report.rows) {
    sheet.addRow(ROW_COLUMNS.map((column) => neutraliseFormula(column.value(row, report.timezone))));
  }
  for (const header of [
    'Hours on site',
    'Hours in shift',
    'Overtime',
    'Breaks on site',
    'Manual hours',
    'Effective hours',
  ]) {
    sheet.getColumn(ROW_COLUMNS.findIndex((c) => c.header === header) + 1).numFmt = HOURS_FORMAT;
  }
  sheet.getRow(1).font = { bold: true };
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: ROW_COLUMNS.length } };

  const totals = workbook.addWorksheet('Subcontractors', { views: [{ state: 'frozen', ySplit: 1 }] });
  totals.columns = [
    { header: 'Subcontractor', key: 'name', width: 28 },
    { header: 'Workers', key: 'workers', width: 10 },
    { header: 'Days present', key: 'present', width: 13 },
    { header: 'Days absent', key: 'absent', width: 12 },
    { header: 'Days late', key: 'late', width: 10 },
    { header: 'Hours on site', key: 'onSite', width: 14, style: { numFmt: HOURS_FORMAT } },
    { header: 'Hours in shift', key: 'shift', width: 14, style: { numFmt: HOURS_FORMAT } },
    { header: 'Overtime', key: 'overtime', width: 12, style: { numFmt: HOURS_FORMAT } },
    { header: 'Effective hours', key: 'effective', width: 15, style: { numFmt: HOURS_FORMAT } },
  ];
  for (const total of report.totals) {
    totals.addRow({
      name: neutraliseFormula(total.subcontractor_name ?? 'No subcontractor'),
      workers: total.workers,
      present: total.present_days,
      absent: total.absent_days,
      late: total.late_days,
      onSite: total.on_site_hours,
      shift: total.shift_hours,
      overtime: total.overtime_hours,
      effective: total.effective_hours,
    });
  }
  totals.getRow(1).font = { bold: true };
  totals.addRow([]);
  totals.addRow([
    neutraliseFormula(`${siteName}: ${dayText(report.from)} – ${dayText(report.to)} (${report.timezone})`),
  ]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
