import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import {
  type AlarmKind,
  alarmClearedCommands,
  alarmCommands,
  type HelmetCommand,
} from '../../src/domain/helmetCommands';
import type { Db } from '../db/database';
import { evacuationAlarms, evacuationSessions } from '../db/schema';

export interface HelmetAlarmDeps {
  db: Db;
  /** Publishes on `{root}/{siteId}/commands` with QoS 1 (LiveData.publishCommand). */
  publishCommand(siteId: number, command: HelmetCommand): Promise<void>;
  now?: () => Date;
}

export interface AlarmedHelmet {
  inventoryItemId: number;
  workerId: number | null;
  tag: string;
}

export interface AlarmDelivery {
  sentAt: string;
  deliveredAt: string | null;
}

/** Rows as the drivers answer raw SQL (pg and PGlite both give `{ rows }`). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/**
 * Sounds the evacuation alarm (or a redirect) on the given helmets: records one row per helmet in
 * evacuation_alarms, committed before any message goes out so that no confirmation can arrive
 * ahead of its row, then publishes one QoS 1 command per helmet, all in flight at once (the
 * client pipelines them). Resolves once the broker has acknowledged every command.
 */
export async function sendEvacuationAlarms(
  deps: HelmetAlarmDeps,
  alarm: {
    siteId: number;
    sessionId: string;
    kind: AlarmKind;
    zoneId?: number;
    helmets: readonly AlarmedHelmet[];
  },
): Promise<void> {
  const { db } = deps;
  const helmets = uniqueByInventoryId(alarm.helmets);
  if (helmets.length === 0) return;
  const sentAt = (deps.now ?? (() => new Date()))();
  const commandId = randomUUID();
  // One statement (so one transaction) whatever the number of helmets: an array per column
  // instead of a parameter per value.
  await db.execute(sql`
    insert into ${evacuationAlarms} (session_id, command_id, inventory_item_id, worker_id, kind, sent_at)
    select ${alarm.sessionId}, ${commandId}, v.inventory_item_id, v.worker_id, ${alarm.kind}, ${sentAt.toISOString()}::timestamptz
    from unnest(
      ${sql.param(helmets.map((h) => h.inventoryItemId))}::int[],
      ${sql.param(helmets.map((h) => h.workerId))}::int[]
    ) as v(inventory_item_id, worker_id)`);
  const commands = alarmCommands({
    kind: alarm.kind,
    evacuationSessionId: alarm.sessionId,
    sentAt,
    tags: helmets.map((h) => h.tag),
    zoneId: alarm.zoneId,
  });
  await Promise.all(commands.map((command) => deps.publishCommand(alarm.siteId, command)));
}

/** Tells the helmets the evacuation is over (nothing to confirm, nothing recorded). */
export async function sendAlarmCleared(
  deps: HelmetAlarmDeps,
  cleared: { siteId: number; sessionId: string; tags: readonly string[] },
): Promise<void> {
  const commands = alarmClearedCommands({
    evacuationSessionId: cleared.sessionId,
    sentAt: (deps.now ?? (() => new Date()))(),
    tags: [...new Set(cleared.tags)],
  });
  await Promise.all(commands.map((command) => deps.publishCommand(cleared.siteId, command)));
}

/**
 * Marks alarm commands delivered by the helmets' `alarmReceived` events of one site. Commands do
 * not carry an id a helmet could echo (DESIGN §5), so a command counts as delivered by its
 * helmet's first `alarmReceived` stamped at or after the command was sent, and, once its
 * evacuation has ended, no later than the end. A redelivered event, or one from before the
 * command, changes nothing. Returns the helmets whose delivery time changed.
 */
export async function recordAlarmDeliveries(
  db: Db,
  siteId: number,
  events: readonly { inventoryItemId: number; ts: string }[],
): Promise<number[]> {
  if (events.length === 0) return [];
  const result = await db.execute(sql`
    with received as (
      select * from unnest(
        ${sql.param(events.map((e) => e.inventoryItemId))}::int[],
        ${sql.param(events.map((e) => iso(e.ts)))}::timestamptz[]
      ) as v(inventory_item_id, ts)
    ),
    first_received as (
      select a.id, min(r.ts) as delivered_at
      from ${evacuationSessions} s
      join ${evacuationAlarms} a on a.session_id = s.id
      join received r on r.inventory_item_id = a.inventory_item_id and r.ts >= a.sent_at
      where s.site_id = ${siteId} and (s.ended_at is null or r.ts <= s.ended_at)
      group by a.id
    )
    update ${evacuationAlarms} a set delivered_at = f.delivered_at
    from first_received f
    where a.id = f.id and (a.delivered_at is null or a.delivered_at > f.delivered_at)
    returning a.inventory_item_id as "inventoryItemId"`);
  return [...new Set(rowsOf<{ inventoryItemId: number }>(result).map((row) => Number(row.inventoryItemId)))];
}

/** Per helmet of a session (or of the given helmets): its latest alarm command, sent and delivered when. */
export async function alarmDeliveries(
  db: Db,
  sessionId: string,
  inventoryIds?: readonly number[],
): Promise<Map<number, AlarmDelivery>> {
  if (inventoryIds?.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([evacuationAlarms.inventoryItemId], {
      inventoryItemId: evacuationAlarms.inventoryItemId,
      sentAt: evacuationAlarms.sentAt,
      deliveredAt: evacuationAlarms.deliveredAt,
    })
    .from(evacuationAlarms)
    .where(
      and(
        eq(evacuationAlarms.sessionId, sessionId),
        inventoryIds
          ? sql`${evacuationAlarms.inventoryItemId} = any(${sql.param([...inventoryIds])}::int[])`
          : undefined,
      ),
    )
    .orderBy(evacuationAlarms.inventoryItemId, desc(evacuationAlarms.sentAt), desc(evacuationAlarms.id));
  return new Map(
    rows.map((row) => [
      row.inventoryItemId,
      { sentAt: iso(row.sentAt), deliveredAt: row.deliveredAt ? iso(row.deliveredAt) : null },
    ]),
  );
}

function uniqueByInventoryId(helmets: readonly AlarmedHelmet[]): AlarmedHelmet[] {
  const byId = new Map<number, AlarmedHelmet>();
  for (const helmet of helmets) byId.set(helmet.inventoryItemId, helmet);
  return [...byId.values()];
}
