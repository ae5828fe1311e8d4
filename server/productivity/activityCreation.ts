import { sql } from 'drizzle-orm';
import { isCalendarDate } from '../../src/domain/calendarDate';
import { isHoursFigure, isQuantityFigure } from '../../src/domain/productivity';
import { type CreateActivityBody, PRODUCTIVITY_MESSAGES } from '../../src/domain/schemas/productivity';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { activities } from '../db/schema';
import { conflict, notFound, unprocessable } from '../http/errors';
import { requiredName } from '../http/input';

const exists = async (db: Db, query: ReturnType<typeof sql>) => {
  const result = (await db.execute(query)) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
};

/** What the body names must be the site's: another's is as unknown as a missing one (404). */
async function requireSiteReferences(db: Db, siteId: number, body: CreateActivityBody) {
  const checks: [string, number | null | undefined, ReturnType<typeof sql>][] = [
    [
      'Activity code',
      body.activity_code_id,
      sql`select 1 from activity_codes where id = ${body.activity_code_id} and site_id = ${siteId}`,
    ],
    ['Crew', body.crew_id, sql`select 1 from crews where id = ${body.crew_id ?? 0} and site_id = ${siteId}`],
    [
      'Location group',
      body.location_group_id,
      sql`select 1 from location_groups where id = ${body.location_group_id ?? 0} and site_id = ${siteId}`,
    ],
    [
      'Zone',
      body.zone_id,
      sql`select 1 from zones z join floors f on f.id = z.floor_id join buildings b on b.id = f.building_id
          where z.id = ${body.zone_id ?? 0} and b.site_id = ${siteId}`,
    ],
  ];
  for (const [label, id, query] of checks)
    if (id !== null && id !== undefined && !(await exists(db, query))) throw notFound(label);
}

/**
 * POST /sites/{id}/activity: a new activity, assigned, version 1. Everything it names must be the
 * site's (404 otherwise, as for another client's ids); a crew manager plans only for the crews it manages.
 */
export async function createActivity(
  db: Db,
  principal: Principal,
  siteId: number,
  body: CreateActivityBody,
): Promise<number> {
  const name = requiredName(body.name);
  await requireSiteReferences(db, siteId, body);
  const errors: Record<string, string> = {};
  const day = body.day.trim();
  if (!isCalendarDate(day)) errors.day = PRODUCTIVITY_MESSAGES.dayInvalid;
  if (!isQuantityFigure(body.planned_quantity))
    errors.planned_quantity = PRODUCTIVITY_MESSAGES.plannedQuantityInvalid;
  if (!isHoursFigure(body.planned_hours)) errors.planned_hours = PRODUCTIVITY_MESSAGES.plannedHoursInvalid;
  const target = body.target_quantity ?? null;
  if (target !== null && !isQuantityFigure(target))
    errors.target_quantity = PRODUCTIVITY_MESSAGES.targetQuantityInvalid;
  const crewId = body.crew_id ?? null;
  if (principal.role === 'crew-manager') {
    const manages =
      crewId !== null &&
      (await exists(
        db,
        sql`select 1 from crew_managers where crew_id = ${crewId} and user_id = ${principal.id}`,
      ));
    if (!manages) errors.crew_id = PRODUCTIVITY_MESSAGES.crewNotYours;
  }
  const groupId = body.location_group_id ?? null;
  const zoneId = body.zone_id ?? null;
  if (Object.keys(errors).length > 0) throw unprocessable(errors);
  try {
    const [created] = await db
      .insert(activities)
      .values({
        siteId,
        activityCodeId: body.activity_code_id,
        name,
        crewId,
        locationGroupId: groupId,
        zoneId,
        day,
        targetQuantity: target === null ? null : String(target),
        plannedQuantity: String(body.planned_quantity),
        plannedHours: String(body.planned_hours),
      })
      .returning({ id: activities.id });
    return created.id;
  } catch (error) {
    if (uniqueViolation(error)) throw conflict(PRODUCTIVITY_MESSAGES.duplicateActivity);
    throw error;
  }
}
