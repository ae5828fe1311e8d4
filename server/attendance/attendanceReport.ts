import {
  addDays,
  addHourlyPresence,
  attendanceDay,
  daysBetween,
  hoursOf,
  type ManualEntry,
} from '../../src/domain/attendance';
import { currentAssignment } from '../../src/domain/currentAssignment';
import type {
  AttendanceReport,
  AttendanceRow,
  HourlyHeadcount,
  SubcontractorTotal,
} from '../../src/domain/schemas/attendance';
import { siteInstant } from '../../src/domain/siteClock';
import type { ShiftTimes } from '../../src/domain/workshiftClock';
import type { Db } from '../db/database';
import {
  attendanceWorkers,
  datedAssignments,
  manualAttendanceRows,
  type PresenceSource,
  presenceSpans,
  type ShiftRow,
  siteShiftsAndCrews,
} from './attendanceQueries';

export interface AttendanceFilters {
  crewId?: number;
  subcontractorId?: number;
  workerRoleId?: number;
  workshiftId?: number;
}

export interface AttendanceRequest {
  site: { id: number; timezone: string };
  /** YYYY-MM-DD, site-local, both included. */
  from: string;
  to: string;
  filters: AttendanceFilters;
  /** The workers a crew manager may see (its crews' current members); null: every worker. */
  scope: ReadonlySet<number> | null;
  offlineAfterSeconds: number;
  nowMs: number;
  source?: PresenceSource;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const round2 = (value: number) => Math.round(value * 100) / 100;

function shiftTimesOf(shift: ShiftRow | undefined): ShiftTimes | null {
  return shift
    ? {
        startTime: shift.startTime,
        endTime: shift.endTime,
        breaks: shift.breaks,
        nonWorkingDays: shift.nonWorkingDays,
      }
    : null;
}

interface TotalAccumulator extends SubcontractorTotal {
  workerIds: Set<number>;
  onSiteSeconds: number;
  shiftSeconds: number;
  overtimeSeconds: number;
  effectiveSeconds: number;
}

/**
 * The whole report over the range (every row, latest day first, workers by name on a day); the
 * route pages the rows. Totals and headcount cover every row the filters keep.
 */
export async function buildAttendanceReport(db: Db, request: AttendanceRequest): Promise<AttendanceReport> {
  const { site, from, to, filters, scope } = request;
  const report: AttendanceReport = {
    from,
    to,
    timezone: site.timezone,
    row_count: 0,
    rows: [],
    totals: [],
    headcount: [],
  };
  const workers = (await attendanceWorkers(db, site.id, filters)).filter((w) => !scope || scope.has(w.id));
  const days = daysBetween(from, to).reverse();
  const counts = days.map(() => new Array<number>(24).fill(0));
  report.headcount = headcountOf(counts);
  if (workers.length === 0) return report;

  const narrowed =
    scope !== null || filters.subcontractorId !== undefined || filters.workerRoleId !== undefined;
  const ids = narrowed ? workers.map((w) => w.id) : null;
  const window = {
    fromMs: siteInstant(from, 0, site.timezone),
    // A night shift's day runs on into the next; two days after `to` covers the longest.
    toMs: Math.min(siteInstant(addDays(to, 2), 0, site.timezone), request.nowMs + 60_000),
  };
  const [{ shifts, crews }, crewsOf, shiftsOf, manuals, presence] = await Promise.all([
    siteShiftsAndCrews(db, site.id),
    datedAssignments(db, 'crew', site.id, to, ids),
    datedAssignments(db, 'workshift', site.id, to, ids),
    manualAttendanceRows(db, site.id, from, to, ids),
    window.toMs > window.fromMs
      ? presenceSpans(db, request.source ?? 'rollups', site.id, window, request.offlineAfterSeconds, ids)
      : Promise.resolve(new Map()),
  ]);

  const totals = new Map<string, TotalAccumulator>();
  days.forEach((day, dayIndex) => {
    const dayStartMs = siteInstant(day, 0, site.timezone);
    const previousDay = addDays(day, -1);
    for (const worker of workers) {
      const crew = currentAssignment(crewsOf.get(worker.id) ?? [], day);
      if (filters.crewId !== undefined && crew?.targetId !== filters.crewId) continue;
      const assignments = shiftsOf.get(worker.id) ?? [];
      const shiftAssignment = currentAssignment(assignments, day);
      if (filters.workshiftId !== undefined && shiftAssignment?.targetId !== filters.workshiftId) continue;
      const shift = shiftAssignment ? shifts.get(shiftAssignment.targetId) : undefined;
      const previous = currentAssignment(assignments, previousDay);
      const manualRow = manuals.get(`${worker.id}|${day}`);
      const manual: ManualEntry | null = manualRow
        ? { present: manualRow.present, checkIn: manualRow.checkIn, checkOut: manualRow.checkOut }
        : null;
      const result = attendanceDay({
        day,
        timeZone: site.timezone,
        shift: shiftTimesOf(shift),
        previousShift: shiftTimesOf(previous ? shifts.get(previous.targetId) : undefined),
        presence: presence.get(worker.id) ?? [],
        offlineAfterSeconds: request.offlineAfterSeconds,
        manual,
        nowMs: request.nowMs,
      });
      addHourlyPresence(counts[dayIndex] as number[], result.presence, dayStartMs);
      const row: AttendanceRow = {
        worker_id: worker.id,
        worker_name: worker.name,
        worker_tag_id: worker.tag,
        day,
        crew_id: crew?.targetId ?? null,
        crew_name: crew ? (crews.get(crew.targetId) ?? null) : null,
        workshift_id: shift?.id ?? null,
        workshift_name: shift?.name ?? null,
        shift_start: shift?.startTime ?? null,
        shift_end: shift?.endTime ?? null,
        subcontractor_id: worker.subcontractorId,
        subcontractor_name: worker.subcontractorName,
        worker_role_name: worker.workerRoleName,
        first_seen: iso(result.firstSeenMs),
        last_seen: iso(result.lastSeenMs),
        on_site_hours: hoursOf(result.onSiteSeconds),
        break_hours: hoursOf(result.breakSeconds),
        shift_hours: hoursOf(result.shiftSeconds),
        overtime_hours: hoursOf(result.overtimeSeconds),
        worked_hours: hoursOf(result.workedSeconds),
        manual: manualRow
          ? {
              present: manualRow.present,
              check_in: manualRow.checkIn,
              check_out: manualRow.checkOut,
              notes: manualRow.notes,
              hours: result.manualSeconds === null ? null : hoursOf(result.manualSeconds),
            }
          : null,
        effective_hours: hoursOf(result.effectiveSeconds),
        late: result.late,
        absent: result.absent,
        status: result.status,
      };
      report.rows.push(row);
      addToTotals(totals, row, result);
    }
  });
  report.headcount = headcountOf(counts);
  report.row_count = report.rows.length;
  report.totals = [...totals.values()]
    .map(({ workerIds, onSiteSeconds, shiftSeconds, overtimeSeconds, effectiveSeconds, ...total }) => ({
      ...total,
      workers: workerIds.size,
      on_site_hours: hoursOf(onSiteSeconds),
      shift_hours: hoursOf(shiftSeconds),
      overtime_hours: hoursOf(overtimeSeconds),
      effective_hours: hoursOf(effectiveSeconds),
    }))
    .sort((a, b) =>
      a.subcontractor_name === null
        ? 1
        : b.subcontractor_name === null
          ? -1
          : a.subcontractor_name.localeCompare(b.subcontractor_name),
    );
  return report;
}

function addToTotals(
  totals: Map<string, TotalAccumulator>,
  row: AttendanceRow,
  seconds: { onSiteSeconds: number; shiftSeconds: number; overtimeSeconds: number; effectiveSeconds: number },
): void {
  const key = String(row.subcontractor_id);
  let total = totals.get(key);
  if (!total) {
    total = {
      subcontractor_id: row.subcontractor_id,
      subcontractor_name: row.subcontractor_name,
      workers: 0,
      present_days: 0,
      absent_days: 0,
      late_days: 0,
      on_site_hours: 0,
      shift_hours: 0,
      overtime_hours: 0,
      effective_hours: 0,
      workerIds: new Set(),
      onSiteSeconds: 0,
      shiftSeconds: 0,
      overtimeSeconds: 0,
      effectiveSeconds: 0,
    };
    totals.set(key, total);
  }
  total.workerIds.add(row.worker_id);
  if (row.status === 'present') total.present_days++;
  if (row.absent) total.absent_days++;
  if (row.late) total.late_days++;
  total.onSiteSeconds += seconds.onSiteSeconds;
  total.shiftSeconds += seconds.shiftSeconds;
  total.overtimeSeconds += seconds.overtimeSeconds;
  total.effectiveSeconds += seconds.effectiveSeconds;
}

function headcountOf(counts: readonly number[][]): HourlyHeadcount[] {
  return Array.from({ length: 24 }, (_, hour) => {
    const values = counts.map((day) => day[hour] ?? 0);
    const sum = values.reduce((a, b) => a + b, 0);
    return {
      hour,
      average: values.length ? round2(sum / values.length) : 0,
      peak: values.length ? Math.max(...values) : 0,
    };
  });
}
