import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ActivityStatus } from '../../src/domain/activityStatus';
import { addDays } from '../../src/domain/attendance';
import { seededRandom } from '../../src/domain/seededRandom';
import { localTime } from '../../src/domain/workshiftClock';
import { ensureDelayCodes } from '../productivity/delayCodes';
import type { Db } from './database';
import {
  activities,
  activityCodes,
  activityDelays,
  activityStatusChanges,
  buildings,
  crews,
  delayCodes,
  floors,
  locationGroups,
  locationGroupZones,
  users,
  zones,
} from './schema';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The demo's activity codes: what each crew installs, at its target rate per hour. */
const CODES = [
  { code: 'FRM', name: 'Formwork erection', uom: 'm2', targetRate: '12', crew: 'Formwork A', planned: 96 },
  { code: 'FRS', name: 'Formwork striking', uom: 'm2', targetRate: '18', crew: 'Formwork B', planned: 120 },
  { code: 'RBR', name: 'Rebar fixing', uom: 't', targetRate: '0.5', crew: 'Rebar', planned: 4 },
  { code: 'CON', name: 'Concrete pour', uom: 'm3', targetRate: '8', crew: 'Concrete pour', planned: 60 },
  {
    code: 'MEP',
    name: 'Conduit installation',
    uom: 'm',
    targetRate: '20',
    crew: 'MEP first fix',
    planned: 160,
  },
  { code: 'PLS', name: 'Plastering', uom: 'm2', targetRate: '6', crew: 'Finishes', planned: 48 },
] as const;

/** How an activity normally gets to a status: the statuses it passed through, in order. */
const PATHS: Record<ActivityStatus, readonly ActivityStatus[]> = {
  assigned: ['assigned'],
  in_progress: ['assigned', 'in_progress'],
  delayed: ['assigned', 'in_progress', 'delayed'],
  done: ['assigned', 'in_progress', 'done'],
  in_review: ['assigned', 'in_progress', 'done', 'in_review'],
  approved_by_cm: ['assigned', 'in_progress', 'done', 'in_review', 'approved_by_cm'],
  approved: ['assigned', 'in_progress', 'done', 'in_review', 'approved_by_cm', 'approved'],
};

/** The status of an activity `age` days old (0: today): older work is further along. */
function statusOf(age: number, crewIndex: number, random: () => number): ActivityStatus {
  if (age === 0) return crewIndex % 3 === 0 ? 'assigned' : crewIndex % 3 === 1 ? 'in_progress' : 'delayed';
  if (age === 1) return crewIndex % 2 === 0 ? 'done' : 'in_review';
  if (age <= 3) return random() < 0.5 ? 'in_review' : 'approved_by_cm';
  return random() < 0.3 ? 'approved_by_cm' : 'approved';
}

const twoDecimals = (value: number) => (Math.round(value * 100) / 100).toFixed(2);

/**
 * The demo's eTQR productivity (issue 21): six activity codes, the default delay codes, and a week
 * of activities (today and the six days before, site-local) for the six day crews in mixed
 * statuses: today's assigned, in progress or delayed; yesterday's done or in review; older ones in
 * review, approved by their crew manager or approved, with installed quantities, booked and actual
 * hours (today's actual hours come from presence), some delays, and each status change recorded.
 * Deterministic (a seeded generator); part of the one seeding transaction.
 */
export async function seedDemoProductivity(
  tx: Tx,
  siteId: number,
  timezone: string,
  now: Date,
): Promise<void> {
  const random = seededRandom(20_261_127);
  const today = localTime(now, timezone).date;
  const crewRows = await tx
    .select({ id: crews.id, name: crews.name })
    .from(crews)
    .where(
      and(
        eq(crews.siteId, siteId),
        inArray(
          crews.name,
          CODES.map((code) => code.crew),
        ),
      ),
    );
  const crewIdOf = new Map(crewRows.map((row) => [row.name, row.id]));
  const codeRows = await tx
    .insert(activityCodes)
    .values(CODES.map(({ code, name, uom, targetRate }) => ({ siteId, code, name, uom, targetRate })))
    .returning({ id: activityCodes.id, code: activityCodes.code });
  const codeIdOf = new Map(codeRows.map((row) => [row.code, row.id]));
  await ensureDelayCodes(tx, siteId);
  const delayRows = await tx
    .select({ id: delayCodes.id, code: delayCodes.code })
    .from(delayCodes)
    .where(eq(delayCodes.siteId, siteId))
    .orderBy(asc(delayCodes.id));
  const northZones = await tx
    .select({ id: zones.id, name: zones.name, floor: floors.name })
    .from(zones)
    .innerJoin(floors, eq(floors.id, zones.floorId))
    .innerJoin(buildings, eq(buildings.id, floors.buildingId))
    .where(and(eq(buildings.siteId, siteId), eq(buildings.name, 'North Block'), eq(zones.kind, 'work')))
    .orderBy(asc(zones.id));
  const [group] = await tx
    .insert(locationGroups)
    .values({ siteId, name: 'North Block fit-out' })
    .returning({ id: locationGroups.id });
  const fitOut = northZones.filter((zone) => zone.name === 'Fit-out area');
  if (fitOut.length > 0)
    await tx
      .insert(locationGroupZones)
      .values(fitOut.map((zone) => ({ groupId: group.id, zoneId: zone.id })));
  const people = await tx
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(inArray(users.role, ['crew-manager', 'group-of-sites-admin']));
  const crewManager = people.find((user) => user.role === 'crew-manager')?.id ?? null;
  const admin = people.find((user) => user.role === 'group-of-sites-admin')?.id ?? null;

  const planned = CODES.flatMap((code, crewIndex) => {
    const crewId = crewIdOf.get(code.crew);
    const codeId = codeIdOf.get(code.code);
    if (crewId === undefined || codeId === undefined) return [];
    return [6, 5, 4, 3, 2, 1, 0].map((age) => {
      const status = statusOf(age, crewIndex, random);
      const started = status !== 'assigned';
      const rate = Number(code.targetRate);
      const plannedHours = Math.round((code.planned / rate) * 100) / 100;
      // Crews run between 80 % and 115 % of their target rate.
      const output = 0.8 + random() * 0.35;
      const actualHours = Math.round(plannedHours * (0.85 + random() * 0.3) * 4) / 4;
      const installed = started ? (actualHours * rate * output * (age === 0 ? 0.5 : 1)).toFixed(2) : null;
      const zone = northZones.length > 0 ? northZones[(crewIndex + age) % northZones.length] : null;
      const inGroup = crewIndex === 5;
      return {
        status,
        delayed: status === 'delayed' || (started && random() < 0.2),
        values: {
          siteId,
          activityCodeId: codeId,
          name: `${code.name} ${zone ? `${zone.floor} ${zone.name}` : ''}`.trim(),
          crewId,
          zoneId: inGroup ? null : (zone?.id ?? null),
          locationGroupId: inGroup ? group.id : null,
          day: addDays(today, -age),
          targetQuantity: twoDecimals(code.planned * 1.1),
          plannedQuantity: twoDecimals(code.planned),
          plannedHours: twoDecimals(plannedHours),
          status,
          installedQuantity: installed,
          bookedHours: started ? twoDecimals(actualHours) : null,
          // Today's actual hours are the presence figure; earlier days were typed from the timesheets.
          actualHours: started && age > 0 ? twoDecimals(actualHours) : null,
          version: PATHS[status].length + (started ? 1 : 0),
        },
      };
    });
  });
  if (planned.length === 0) return;
  const rows = await tx
    .insert(activities)
    .values(planned.map((plan) => plan.values))
    .returning({ id: activities.id });
  const changes: (typeof activityStatusChanges.$inferInsert)[] = [];
  const delays: (typeof activityDelays.$inferInsert)[] = [];
  for (const [index, plan] of planned.entries()) {
    const activityId = rows[index].id;
    const path = PATHS[plan.status];
    for (let step = 1; step < path.length; step++)
      changes.push({
        activityId,
        fromStatus: path[step - 1],
        toStatus: path[step],
        changedBy: path[step] === 'approved' ? admin : crewManager,
      });
    if (plan.delayed && delayRows.length > 0) {
      const code = delayRows[Math.floor(random() * delayRows.length)];
      delays.push({
        activityId,
        delayCodeId: code.id,
        hoursLost: twoDecimals(0.5 + Math.floor(random() * 6) * 0.25),
        notes: code.code === 'WEA' ? 'High wind, crane stood down' : null,
        createdBy: crewManager,
      });
    }
  }
  if (changes.length > 0) await tx.insert(activityStatusChanges).values(changes);
  if (delays.length > 0) await tx.insert(activityDelays).values(delays);
}
