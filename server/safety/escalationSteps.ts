import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  ESCALATION_MESSAGES,
  type EscalationLevel,
  incidentTransition,
  nextEscalationDue,
  statusesAllowing,
} from '../../src/domain/escalation';
import {
  type IncidentStatus,
  type IncidentType,
  isDeviceIncident,
  type SafetyIncident,
} from '../../src/domain/incidents';
import type { Db } from '../db/database';
import { incidentEvents, incidents, sites } from '../db/schema';
import { queueEmail } from '../mail/outbox';
import { selectIncidents } from './incidentStore';
import { levelRecipients } from './safetyContacts';
import { escalationLevelsOf } from './safetySettings';

/** How incidents are named in e-mails. */
export const INCIDENT_LABELS: Record<IncidentType, string> = {
  sos: 'SOS alarm',
  fall: 'Fall detected',
  noMotion: 'No motion',
  restrictedZone: 'Restricted zone entered',
  reEntry: 'Re-entered the evacuated area',
  anchorMoved: 'Anchor moved',
  permitAreaEntry: 'Permit area entered',
};

/** Who took a step: a person, or null for the scheduler. */
export type StepActor = { id: number; name: string } | null;

export type StepOutcome = { done: true; siteId: number } | { done: false; message: string };

export interface EscalationContext {
  now: Date;
  /** The console's address, for the link in the e-mails. */
  publicUrl: string;
  log?: FastifyBaseLogger;
}

function escalationEmail(
  incident: SafetyIncident,
  siteName: string,
  level: EscalationLevel,
  by: StepActor,
  publicUrl: string,
) {
  const what = INCIDENT_LABELS[incident.type];
  const device = isDeviceIncident(incident.type);
  const worker = device
    ? `anchor ${incident.wntInventoryId}`
    : (incident.workerName ?? `helmet ${incident.wntInventoryId}`);
  const place = [siteName, incident.floorName, incident.zoneName].filter(Boolean).join(' / ');
  const why = by
    ? `${by.name} escalated safety incident #${incident.id} to level ${level.level}.`
    : `Safety incident #${incident.id} was not acknowledged within ${level.afterMinutes} minutes and escalated to level ${level.level}.`;
  return {
    subject: `Safety incident escalated (level ${level.level}): ${what} — ${worker}`,
    body: [
      why,
      '',
      `Incident: ${what}`,
      device ? `Node: ${incident.wntInventoryId}` : `Worker: ${worker} (helmet ${incident.wntInventoryId})`,
      `Place: ${place}`,
      `Happened at: ${incident.ts}`,
      `Escalated at: ${incident.escalatedAt ?? ''}`,
      '',
      'Acknowledge it on the safety screen to stop further escalation.',
    ].join('\n'),
    link: `${publicUrl}/safety`,
  };
}

/**
 * Moves an incident one level up, in the caller's transaction: status escalated, the level's
 * e-mails in the outbox, its event, the next step's time (null after the last level). The row is
 * locked first; the scheduler (`onlyIfDue`) skips a row another process holds and one not due,
 * so two servers never escalate the same step twice. `expectedLevel` refuses a step the caller
 * did not see coming (someone else escalated meanwhile).
 */
export async function escalateIncident(
  tx: Db,
  incidentId: number,
  by: StepActor,
  context: EscalationContext,
  options: { onlyIfDue?: boolean; expectedLevel?: number } = {},
): Promise<StepOutcome | null> {
  const { now } = context;
  const query = tx
    .select({
      siteId: incidents.siteId,
      type: incidents.type,
      status: incidents.status,
      level: incidents.level,
      siteName: sites.name,
    })
    .from(incidents)
    .innerJoin(sites, eq(sites.id, incidents.siteId))
    .where(
      and(
        eq(incidents.id, incidentId),
        options.onlyIfDue
          ? and(
              sql`${incidents.nextEscalationAt} <= ${now.toISOString()}::timestamptz`,
              inArray(incidents.status, statusesAllowing('escalate')),
            )
          : undefined,
      ),
    );
  const [row] = options.onlyIfDue
    ? await query.for('update', { of: incidents, skipLocked: true })
    : await query.for('update', { of: incidents });
  if (!row) return null;
  if (options.expectedLevel !== undefined && options.expectedLevel !== row.level)
    return { done: false, message: ESCALATION_MESSAGES.levelChanged };
  const levels = (await escalationLevelsOf(tx, [row.siteId])).get(row.siteId) ?? [];
  const transition = incidentTransition(
    { status: row.status as IncidentStatus, level: row.level },
    'escalate',
    levels.length,
  );
  if (!transition.allowed) {
    // A due step past the last level (the levels were shortened): stop the clock, tell no one.
    if (options.onlyIfDue)
      await tx.update(incidents).set({ nextEscalationAt: null }).where(eq(incidents.id, incidentId));
    return { done: false, message: transition.message };
  }
  const level = row.level + 1;
  await tx
    .update(incidents)
    .set({
      status: transition.status,
      level,
      escalatedAt: now,
      escalatedBy: by?.id ?? null,
      // A device's incident climbs only by hand.
      nextEscalationAt: isDeviceIncident(row.type as IncidentType)
        ? null
        : nextEscalationDue(levels, level, now),
    })
    .where(eq(incidents.id, incidentId));
  await tx
    .insert(incidentEvents)
    .values({ incidentId, kind: 'escalated', level, by: by?.id ?? null, at: now });
  const [incident] = await selectIncidents(tx, { ids: [incidentId] });
  const email = escalationEmail(incident, row.siteName, levels[level - 1], by, context.publicUrl);
  for (const to of await levelRecipients(tx, row.siteId, levels[level - 1]))
    await queueEmail(tx, { to, ...email }, context.log);
  return { done: true, siteId: row.siteId };
}

/**
 * Acknowledges or resolves an incident in one conditional UPDATE, so of two people at once one
 * wins and the other is told why not; either way the automatic escalation stops.
 */
export async function settleIncident(
  tx: Db,
  incidentId: number,
  action: 'acknowledge' | 'resolve',
  by: { id: number },
  now: Date,
): Promise<StepOutcome> {
  const set =
    action === 'acknowledge'
      ? { status: 'acknowledged', acknowledgedAt: now, acknowledgedBy: by.id }
      : { status: 'resolved', resolvedAt: now, resolvedBy: by.id };
  const [row] = await tx
    .update(incidents)
    .set({ ...set, nextEscalationAt: null })
    .where(and(eq(incidents.id, incidentId), inArray(incidents.status, statusesAllowing(action))))
    .returning({ siteId: incidents.siteId, level: incidents.level });
  if (!row) {
    const [current] = await tx
      .select({ status: incidents.status, level: incidents.level })
      .from(incidents)
      .where(eq(incidents.id, incidentId));
    const refusal = incidentTransition(
      { status: current.status as IncidentStatus, level: current.level },
      action,
      Number.POSITIVE_INFINITY,
    );
    return { done: false, message: refusal.allowed ? ESCALATION_MESSAGES.levelChanged : refusal.message };
  }
  await tx.insert(incidentEvents).values({
    incidentId,
    kind: action === 'acknowledge' ? 'acknowledged' : 'resolved',
    level: row.level,
    by: by.id,
    at: now,
  });
  return { done: true, siteId: row.siteId };
}
