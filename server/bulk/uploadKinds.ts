import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { nameKey, parseNumberCell, parseYesNoCell } from '../../src/domain/bulkCells';
import { BULK_MESSAGES, type BulkKind, invalidCell } from '../../src/domain/bulkKinds';
import { calendarDateIn } from '../../src/domain/calendarDate';
import { messages } from '../../src/domain/messages';
import { validateWorker } from '../../src/domain/workerValidation';
import type { Executor } from '../db/executor';
import {
  activities,
  activityCodes,
  crewAssignments,
  crewGroupCrews,
  crewGroups,
  crewManagers,
  crews,
  locationGroups,
  locationGroupZones,
  manualAttendance,
  reportedHours,
  type sites,
  subcontractorGroupMembers,
  subcontractorGroups,
  workerLocationAssignments,
  workerRoleGroupMembers,
  workerRoleGroups,
  workerStatusAssignments,
  workers,
  workshiftAssignments,
} from '../db/schema';

type SiteRow = typeof sites.$inferSelect;

export interface RowError {
  column: string;
  message: string;
}

/** A row that passed its cell checks: normalised cells and the ids its list and worker cells name. */
export interface ValidRow {
  rowNumber: number;
  cells: Record<string, string>;
  /** Column key → the id the cell names; absent when the cell is empty. */
  ids: Record<string, number>;
}

export interface CommitContext {
  site: SiteRow;
  uploadId: string;
}

/** What an upload kind adds to the generic column rules: cross-column checks, duplicates, the write. */
export interface UploadKindHandler {
  /** Checks across a row's cells, once each cell passed its own. */
  rowErrors?(row: ValidRow): RowError[];
  /** The row's identity against what the site already holds; null when it has none. */
  siteKey(row: ValidRow): string | null;
  /** The column a "<label> name already exists!" against the site is reported on. */
  siteKeyColumn: string;
  /** Every identity the site already holds, in the form of siteKey. */
  existingKeys(db: Executor, site: SiteRow): Promise<Set<string>>;
  /** Writes the rows (all valid) inside the commit's transaction. */
  commit(tx: Executor, rows: readonly ValidRow[], context: CommitContext): Promise<void>;
}

const CHUNK = 1000;

async function insertChunked<T extends PgTable>(
  tx: Executor,
  table: T,
  values: T['$inferInsert'][],
): Promise<void> {
  for (let start = 0; start < values.length; start += CHUNK) {
    await tx.insert(table).values(values.slice(start, start + CHUNK));
  }
}

const keyOf = (...parts: (string | number)[]) => parts.join('\u001f');

async function keySet(db: Executor, query: ReturnType<typeof sql>): Promise<Set<string>> {
  const result = (await db.execute(query)) as unknown as { rows: { key: string }[] };
  return new Set(result.rows.map((row) => row.key));
}

const orNull = (text: string | undefined) => (text === undefined || text === '' ? null : text);

/** Groups made of other rows: one row per member, the group created by the upload. */
function groupKind(options: {
  groupColumn: string;
  memberColumn: string;
  groups: typeof crewGroups;
  insertMembers: (tx: Executor, members: { groupId: number; memberId: number }[]) => Promise<void>;
}): UploadKindHandler {
  const { groupColumn, memberColumn, groups } = options;
  return {
    siteKey: (row) => nameKey(row.cells[groupColumn]),
    siteKeyColumn: groupColumn,
    existingKeys: (db, site) =>
      keySet(
        db,
        sql`select lower(trim(${groups.name})) as key from ${groups} where ${groups.siteId} = ${site.id}`,
      ),
    async commit(tx, rows, { site }) {
      const names = new Map<string, string>();
      for (const row of rows) {
        const key = nameKey(row.cells[groupColumn]);
        if (!names.has(key)) names.set(key, row.cells[groupColumn].trim());
      }
      if (rows.length === 0) return;
      const created = await tx
        .insert(groups)
        .values([...names.values()].map((name) => ({ siteId: site.id, name })))
        .returning({ id: groups.id, name: groups.name });
      const idOf = new Map(created.map((group) => [nameKey(group.name), group.id]));
      const members = new Map<string, { groupId: number; memberId: number }>();
      for (const row of rows) {
        const groupId = idOf.get(nameKey(row.cells[groupColumn])) as number;
        const memberId = row.ids[memberColumn];
        members.set(keyOf(groupId, memberId), { groupId, memberId });
      }
      await options.insertMembers(tx, [...members.values()]);
    },
  };
}

const workerDay = (row: ValidRow, dayColumn: string) => keyOf(row.ids.worker_tag_id, row.cells[dayColumn]);

export const UPLOAD_KIND_HANDLERS: Record<BulkKind, UploadKindHandler> = {
  workers: {
    rowErrors(row) {
      // The single-record form's rules and messages (src/domain/workerValidation.ts).
      const { errors } = validateWorker({
        name: row.cells.name,
        worker_tag_id: row.cells.worker_tag_id,
        contact_number: row.cells.contact_number,
        helmet_color: row.cells.helmet_color,
      });
      return Object.entries(errors).map(([column, message]) => ({ column, message: message as string }));
    },
    siteKey: (row) => (row.cells.worker_tag_id ? nameKey(row.cells.worker_tag_id) : null),
    siteKeyColumn: 'worker_tag_id',
    existingKeys: (db, site) =>
      keySet(
        db,
        sql`select lower(trim(${workers.workerTagId})) as key from ${workers}
            where ${workers.siteId} = ${site.id} and ${workers.workerTagId} is not null`,
      ),
    async commit(tx, rows, { site }) {
      if (rows.length === 0) return;
      const today = calendarDateIn(site.timezone);
      // Ids drawn first, then one insert per table from arrays: drizzle's multi-row VALUES spent
      // most of a 10,000-worker commit binding parameters (bench/bulkUpload.bench.ts).
      const drawn = (await tx.execute(
        sql`select nextval(pg_get_serial_sequence('workers', 'id'))::int as id from generate_series(1, ${rows.length})`,
      )) as unknown as { rows: { id: number }[] };
      const ids = drawn.rows.map((row) => Number(row.id));
      const column = <T>(pick: (row: ValidRow) => T) => sql.param(rows.map(pick));
      await tx.execute(sql`
        insert into ${workers} (id, site_id, name, worker_tag_id, contact_number, helmet_color, worker_role_id, subcontractor_id)
        select id, ${site.id}, name, tag, contact, color, role, subcontractor
        from unnest(${sql.param(ids)}::int[], ${column((row) => row.cells.name.trim())}::text[],
          ${column((row) => orNull(row.cells.worker_tag_id))}::text[], ${column((row) => orNull(row.cells.contact_number))}::text[],
          ${column((row) => orNull(row.cells.helmet_color))}::text[], ${column((row) => row.ids.worker_role ?? null)}::int[],
          ${column((row) => row.ids.subcontractor ?? null)}::int[])
          as batch(id, name, tag, contact, color, role, subcontractor)`);
      const joined = (key: 'crew' | 'workshift') =>
        rows.flatMap((row, index) =>
          row.ids[key] === undefined ? [] : [{ workerId: ids[index], groupId: row.ids[key] }],
        );
      const crewRows = joined('crew');
      const shiftRows = joined('workshift');
      if (crewRows.length > 0)
        await tx.execute(sql`
          insert into ${crewAssignments} (crew_id, worker_id, assigned_at)
          select crew, worker, ${today}::date
          from unnest(${sql.param(crewRows.map((r) => r.groupId))}::int[], ${sql.param(crewRows.map((r) => r.workerId))}::int[]) as batch(crew, worker)`);
      if (shiftRows.length > 0)
        await tx.execute(sql`
          insert into ${workshiftAssignments} (workshift_id, worker_id, assigned_at)
          select shift, worker, ${today}::date
          from unnest(${sql.param(shiftRows.map((r) => r.groupId))}::int[], ${sql.param(shiftRows.map((r) => r.workerId))}::int[]) as batch(shift, worker)`);
    },
  },

  crewWorkshiftAssignments: {
    rowErrors: (row) =>
      row.ids.crew === undefined && row.ids.workshift === undefined
        ? [{ column: 'crew', message: messages.required('Crew or Work shift') }]
        : [],
    siteKey: (row) => workerDay(row, 'assigned_at'),
    siteKeyColumn: 'assigned_at',
    existingKeys: (db, site) =>
      keySet(
        db,
        sql`select ${crewAssignments.workerId} || chr(31) || ${crewAssignments.assignedAt}::text as key
              from ${crewAssignments} join ${workers} on ${workers.id} = ${crewAssignments.workerId}
             where ${workers.siteId} = ${site.id}
            union
            select ${workshiftAssignments.workerId} || chr(31) || ${workshiftAssignments.assignedAt}::text
              from ${workshiftAssignments} join ${workers} on ${workers.id} = ${workshiftAssignments.workerId}
             where ${workers.siteId} = ${site.id}`,
      ),
    async commit(tx, rows) {
      await insertChunked(
        tx,
        crewAssignments,
        rows.flatMap((row) =>
          row.ids.crew === undefined
            ? []
            : [{ crewId: row.ids.crew, workerId: row.ids.worker_tag_id, assignedAt: row.cells.assigned_at }],
        ),
      );
      await insertChunked(
        tx,
        workshiftAssignments,
        rows.flatMap((row) =>
          row.ids.workshift === undefined
            ? []
            : [
                {
                  workshiftId: row.ids.workshift,
                  workerId: row.ids.worker_tag_id,
                  assignedAt: row.cells.assigned_at,
                },
              ],
        ),
      );
    },
  },

  locationGroups: groupKind({
    groupColumn: 'location_group',
    memberColumn: 'zone',
    groups: locationGroups,
    insertMembers: (tx, members) =>
      insertChunked(
        tx,
        locationGroupZones,
        members.map((m) => ({ groupId: m.groupId, zoneId: m.memberId })),
      ),
  }),

  locationAssignments: {
    siteKey: (row) => keyOf(row.ids.location_group, row.ids.zone),
    siteKeyColumn: 'zone',
    existingKeys: (db, site) =>
      keySet(
        db,
        sql`select ${locationGroupZones.groupId} || chr(31) || ${locationGroupZones.zoneId} as key
              from ${locationGroupZones} join ${locationGroups} on ${locationGroups.id} = ${locationGroupZones.groupId}
             where ${locationGroups.siteId} = ${site.id}`,
      ),
    commit: (tx, rows) =>
      insertChunked(
        tx,
        locationGroupZones,
        rows.map((row) => ({ groupId: row.ids.location_group, zoneId: row.ids.zone })),
      ),
  },

  workerLocationAssignments: {
    siteKey: (row) => workerDay(row, 'assigned_at'),
    siteKeyColumn: 'assigned_at',
    existingKeys: (db, site) =>
      keySet(
        db,
        sql`select ${workerLocationAssignments.workerId} || chr(31) || ${workerLocationAssignments.assignedAt}::text as key
              from ${workerLocationAssignments} join ${workers} on ${workers.id} = ${workerLocationAssignments.workerId}
             where ${workers.siteId} = ${site.id}`,
      ),
    commit: (tx, rows) =>
      insertChunked(
        tx,
        workerLocationAssignments,
        rows.map((row) => ({
          workerId: row.ids.worker_tag_id,
          locationGroupId: row.ids.location_group,
          assignedAt: row.cells.assigned_at,
        })),
      ),
  },

  attendance: {
    rowErrors(row) {
      const present = parseYesNoCell(row.cells.present);
      if (present === false && (row.cells.check_in || row.cells.check_out))
        return [{ column: 'check_in', message: BULK_MESSAGES.absentWithTimes }];
      if (present && !row.cells.check_in)
        return [{ column: 'check_in', message: messages.required('Check in') }];
      return [];
    },
    siteKey: (row) => workerDay(row, 'day'),
    siteKeyColumn: 'day',
    existingKeys: (db, site) =>
      keySet(
        db,
        sql`select ${manualAttendance.workerId} || chr(31) || ${manualAttendance.day}::text as key
              from ${manualAttendance} where ${manualAttendance.siteId} = ${site.id}`,
      ),
    commit: (tx, rows, { site, uploadId }) =>
      insertChunked(
        tx,
        manualAttendance,
        rows.map((row) => ({
          siteId: site.id,
          workerId: row.ids.worker_tag_id,
          day: row.cells.day,
          present: parseYesNoCell(row.cells.present) === true,
          checkIn: orNull(row.cells.check_in),
          checkOut: orNull(row.cells.check_out),
          notes: orNull(row.cells.notes),
          uploadId,
        })),
      ),
  },

  workerStatusAssignments: {
    rowErrors: (row) =>
      row.cells.ends_on && row.cells.ends_on < row.cells.starts_on
        ? [{ column: 'ends_on', message: BULK_MESSAGES.endBeforeStart }]
        : [],
    siteKey: (row) => keyOf(row.ids.worker_tag_id, row.ids.status, row.cells.starts_on),
    siteKeyColumn: 'starts_on',
    existingKeys: (db, site) =>
      keySet(
        db,
        sql`select ${workerStatusAssignments.workerId} || chr(31) || ${workerStatusAssignments.statusId}
                   || chr(31) || ${workerStatusAssignments.startsOn}::text as key
              from ${workerStatusAssignments} join ${workers} on ${workers.id} = ${workerStatusAssignments.workerId}
             where ${workers.siteId} = ${site.id}`,
      ),
    commit: (tx, rows) =>
      insertChunked(
        tx,
        workerStatusAssignments,
        rows.map((row) => ({
          workerId: row.ids.worker_tag_id,
          statusId: row.ids.status,
          startsOn: row.cells.starts_on,
          endsOn: orNull(row.cells.ends_on),
          notes: orNull(row.cells.notes),
        })),
      ),
  },

  crewGroups: groupKind({
    groupColumn: 'crew_group',
    memberColumn: 'crew',
    groups: crewGroups,
    insertMembers: (tx, members) =>
      insertChunked(
        tx,
        crewGroupCrews,
        members.map((m) => ({ groupId: m.groupId, crewId: m.memberId })),
      ),
  }),

  crewManagers: {
    siteKey: (row) => keyOf(row.ids.crew, row.ids.manager_email),
    siteKeyColumn: 'manager_email',
    existingKeys: (db, site) =>
      keySet(
        db,
        sql`select ${crewManagers.crewId} || chr(31) || ${crewManagers.userId} as key
              from ${crewManagers} join ${crews} on ${crews.id} = ${crewManagers.crewId}
             where ${crews.siteId} = ${site.id}`,
      ),
    commit: (tx, rows) =>
      insertChunked(
        tx,
        crewManagers,
        rows.map((row) => ({ crewId: row.ids.crew, userId: row.ids.manager_email })),
      ),
  },

  subcontractorGroups: groupKind({
    groupColumn: 'subcontractor_group',
    memberColumn: 'subcontractor',
    groups: subcontractorGroups,
    insertMembers: (tx, members) =>
      insertChunked(
        tx,
        subcontractorGroupMembers,
        members.map((m) => ({ groupId: m.groupId, subcontractorId: m.memberId })),
      ),
  }),

  workerRoleGroups: groupKind({
    groupColumn: 'worker_role_group',
    memberColumn: 'worker_role',
    groups: workerRoleGroups,
    insertMembers: (tx, members) =>
      insertChunked(
        tx,
        workerRoleGroupMembers,
        members.map((m) => ({ groupId: m.groupId, workerRoleId: m.memberId })),
      ),
  }),

  reportHours: {
    siteKey: (row) => workerDay(row, 'day'),
    siteKeyColumn: 'day',
    existingKeys: (db, site) =>
      keySet(
        db,
        sql`select ${reportedHours.workerId} || chr(31) || ${reportedHours.day}::text as key
              from ${reportedHours}
             where ${reportedHours.siteId} = ${site.id} and ${reportedHours.activityId} is null`,
      ),
    commit: (tx, rows, { site, uploadId }) =>
      insertChunked(
        tx,
        reportedHours,
        rows.map((row) => ({
          siteId: site.id,
          workerId: row.ids.worker_tag_id,
          day: row.cells.day,
          hours: String(parseNumberCell(row.cells.hours)),
          notes: orNull(row.cells.notes),
          uploadId,
        })),
      ),
  },

  activities: {
    siteKey: (row) => keyOf(nameKey(row.cells.name), row.cells.day),
    siteKeyColumn: 'name',
    existingKeys: (db, site) =>
      keySet(
        db,
        sql`select lower(trim(${activities.name})) || chr(31) || ${activities.day}::text as key
              from ${activities} where ${activities.siteId} = ${site.id}`,
      ),
    commit: (tx, rows, { site, uploadId }) =>
      insertChunked(
        tx,
        activities,
        rows.map((row) => ({
          siteId: site.id,
          activityCodeId: row.ids.activity_code,
          name: row.cells.name.trim(),
          crewId: row.ids.crew ?? null,
          locationGroupId: row.ids.location_group ?? null,
          day: row.cells.day,
          plannedQuantity: String(parseNumberCell(row.cells.planned_quantity)),
          targetQuantity: row.cells.target_quantity
            ? String(parseNumberCell(row.cells.target_quantity))
            : null,
          plannedHours: String(parseNumberCell(row.cells.planned_hours)),
          uploadId,
        })),
      ),
  },

  activityCodes: {
    rowErrors: (row) =>
      parseNumberCell(row.cells.target_rate) === 0
        ? [{ column: 'target_rate', message: invalidCell('Target rate') }]
        : [],
    siteKey: (row) => nameKey(row.cells.code),
    siteKeyColumn: 'code',
    existingKeys: (db, site) =>
      keySet(
        db,
        sql`select lower(trim(${activityCodes.code})) as key from ${activityCodes} where ${activityCodes.siteId} = ${site.id}`,
      ),
    commit: (tx, rows, { site }) =>
      insertChunked(
        tx,
        activityCodes,
        rows.map((row) => ({
          siteId: site.id,
          code: row.cells.code.trim(),
          name: row.cells.name.trim(),
          uom: row.cells.uom.trim(),
          targetRate: String(parseNumberCell(row.cells.target_rate)),
        })),
      ),
  },
};
