import type {
  EvacuationRuleScope,
  EvacuationWorkerRecord,
  StatusCause,
  StatusChange,
} from '../../src/domain/evacuationRules';
import { isInEvacuatedArea, nextWorkerRecord } from '../../src/domain/evacuationRules';
import type { HelmetFacts, SessionRow } from './evacuationStore';

/**
 * What the evacuation rules (src/domain/evacuationRules.ts) make of a session's records and its
 * helmets' facts: who changes status and why, and who joins. Pure: the service reads and writes.
 */

/** What started an evaluation. */
export type Trigger = 'position' | 'acknowledge' | 'reconcile' | 'mark' | 'unmark' | 'redirect';

export function ruleScope(session: SessionRow): EvacuationRuleScope {
  return {
    startedAt: session.startedAt.toISOString(),
    assemblyZoneIds: session.assemblyZoneIds,
    safeZone: session.safeZoneId,
    floorIds: session.floorIds,
    zoneIds: session.zoneIds,
  };
}

/** The included workers' records and the helmets' facts, and what nextWorkerRecord makes of them. */
export function judgeEvacuation(
  session: SessionRow,
  records: readonly EvacuationWorkerRecord[],
  facts: readonly HelmetFacts[],
  at: string,
  triggers: ReadonlySet<Trigger>,
  /** When each marked worker's active mark was made. */
  marks: ReadonlyMap<number, string> = new Map(),
) {
  const scope = ruleScope(session);
  const factsByInventory = new Map(facts.map((f) => [f.inventoryItemId, f]));
  const markedAt = (workerId: number) => marks.get(workerId) ?? null;
  const included = new Set(records.map((r) => r.workerId));
  const updated: EvacuationWorkerRecord[] = [];
  const changes: StatusChange[] = [];
  for (const previous of records) {
    const fact = factsByInventory.get(previous.inventoryItemId);
    if (!fact) continue;
    const { record, change } = nextWorkerRecord(
      previous,
      previous,
      { ...fact, markedAt: markedAt(previous.workerId) },
      scope,
      at,
      'position',
    );
    if (record === previous) continue;
    updated.push(record);
    if (change) changes.push({ ...change, cause: causeOf(change, previous, record, triggers) });
  }
  const joining = facts
    .filter((fact) => fact.workerId !== null && !included.has(fact.workerId) && joinsLater(fact, session))
    .map((fact) => newRecord(fact, scope, at, 'joined'));
  return { updated, changes, joining };
}

/** The first record of a worker included (at the start, or joining later) by its helmet's facts. */
export function newRecord(fact: HelmetFacts, scope: EvacuationRuleScope, at: string, cause: StatusCause) {
  return nextWorkerRecord(
    null,
    { workerId: fact.workerId as number, inventoryItemId: fact.inventoryItemId },
    fact,
    scope,
    at,
    cause,
  );
}

/**
 * Whether a helmet is on the roll when an evacuation starts (or its area grows): its last known
 * place is in the area, and it is online or went silent no earlier than `possiblyInsideSince`.
 */
export function includedAtStart(
  fact: HelmetFacts,
  area: { floorIds: readonly number[]; zoneIds: readonly number[] },
  possiblyInsideSince: Date,
): boolean {
  if (fact.workerId === null || !isInEvacuatedArea(fact, area)) return false;
  if (fact.isOnline) return true;
  return fact.lastSeen !== null && Date.parse(fact.lastSeen) >= possiblyInsideSince.getTime();
}

/** A helmet not included at the start joins when it reports an online position in the area after it. */
function joinsLater(fact: HelmetFacts, session: SessionRow): boolean {
  if (!fact.isOnline || fact.lastSeen === null) return false;
  if (Date.parse(fact.lastSeen) < session.startedAt.getTime()) return false;
  return isInEvacuatedArea(fact, { floorIds: session.floorIds, zoneIds: session.zoneIds });
}

/** Why a status changed: the helmet went offline, its button was pressed, the start-up check, or a position. */
function causeOf(
  change: StatusChange,
  previous: EvacuationWorkerRecord,
  record: EvacuationWorkerRecord,
  triggers: ReadonlySet<Trigger>,
): StatusCause {
  if (triggers.size === 1 && triggers.has('mark')) return 'mark';
  if (triggers.size === 1 && triggers.has('unmark')) return 'unmark';
  if (triggers.size === 1 && triggers.has('redirect')) return 'redirect';
  if (change.to === 'offline') return 'offline';
  if (previous.acknowledgedAt === null && record.acknowledgedAt !== null) return 'acknowledge';
  if (triggers.size === 1 && triggers.has('reconcile')) return 'reconcile';
  return 'position';
}
