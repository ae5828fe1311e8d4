import { ALARM_EVENT_TYPES } from '../../src/domain/incidents';
import type { Rejection } from '../../src/domain/ingestValidation';
import type { HelmetEventMessage } from '../../src/domain/live';
import type { Db } from '../db/database';
import { helmetEvents, incidents } from '../db/schema';
import type { CommittedHelmetEvent } from '../live/liveChanges';
import { scheduleRaisedIncidents } from '../safety/incidentStore';
import { chunks } from './chunks';
import { helmetsByTag } from './helmetsByTag';

export interface HelmetEventWriteResult {
  rejections: Rejection[];
  accepted: number;
  /** The accepted events with their helmet and worker, for the fan-out. */
  helmetEvents: CommittedHelmetEvent[];
  /** Incidents raised by alarms in this write. */
  incidentIds: number[];
}

const ROWS_PER_INSERT = 1000;

const isAlarm = (type: string) => (ALARM_EVENT_TYPES as readonly string[]).includes(type);

/**
 * Stores helmet button events of one site in one transaction, with the worker wearing the helmet
 * at that moment. One row per (helmet, type, ts): a redelivered event inserts nothing. An alarm
 * (SOS, fall, no motion) also raises an incident at the helmet's last known floor and zone, with
 * its escalation schedule, in the same transaction and just as idempotent, so an alarm is never
 * stored without its incident.
 */
export async function writeHelmetEvents(
  db: Db,
  siteId: number,
  messages: readonly HelmetEventMessage[],
): Promise<HelmetEventWriteResult> {
  const rejections: Rejection[] = [];
  if (messages.length === 0) return { rejections, accepted: 0, helmetEvents: [], incidentIds: [] };
  return db.transaction(async (tx) => {
    const helmetByTag = await helmetsByTag(
      tx,
      siteId,
      messages.map((m) => m.tag),
      { lock: false },
    );
    const rows: (typeof helmetEvents.$inferInsert)[] = [];
    const incidentRows: (typeof incidents.$inferInsert)[] = [];
    for (const message of messages) {
      const helmet = helmetByTag.get(message.tag);
      if (!helmet) {
        rejections.push({ reason: 'unknownTag', entry: message });
        continue;
      }
      const event = {
        siteId,
        inventoryItemId: helmet.id,
        workerId: helmet.workerId,
        type: message.type,
        ts: new Date(message.ts),
      };
      rows.push(event);
      if (isAlarm(message.type))
        incidentRows.push({ ...event, floorId: helmet.floorId, zoneId: helmet.zoneId });
    }
    for (const slice of chunks(rows, ROWS_PER_INSERT))
      await tx.insert(helmetEvents).values(slice).onConflictDoNothing();
    const incidentIds: number[] = [];
    for (const slice of chunks(incidentRows, ROWS_PER_INSERT)) {
      const inserted = await tx
        .insert(incidents)
        .values(slice)
        .onConflictDoNothing()
        .returning({ id: incidents.id });
      incidentIds.push(...inserted.map((row) => row.id));
    }
    await scheduleRaisedIncidents(tx, siteId, incidentIds);
    const committed = rows.map((row) => ({
      inventoryItemId: row.inventoryItemId,
      workerId: row.workerId ?? null,
      type: row.type as CommittedHelmetEvent['type'],
      ts: (row.ts as Date).toISOString(),
    }));
    return { rejections, accepted: rows.length, helmetEvents: committed, incidentIds };
  });
}
