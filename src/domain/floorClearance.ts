import { ACCOUNTED_STATUSES, type FloorClearance } from './evacuation';
import type { EvacuationWorkerRecord } from './evacuationRules';

type ClearanceRecord = Pick<
  EvacuationWorkerRecord,
  'originFloorId' | 'leftFloorAt' | 'status' | 'statusChangedAt'
>;

/**
 * Since when an included worker no longer holds their floor open: they were seen off it, or were
 * accounted for (safe or marked) while not back inside. Null while they may still be on it.
 */
function offFloorSince(record: ClearanceRecord): string | null {
  const accounted = ACCOUNTED_STATUSES.includes(record.status) ? record.statusChangedAt : null;
  if (record.leftFloorAt === null) return accounted;
  if (accounted === null) return record.leftFloorAt;
  return Date.parse(accounted) < Date.parse(record.leftFloorAt) ? accounted : record.leftFloorAt;
}

/**
 * When each evacuated floor was cleared: the moment its last included worker left it or was
 * accounted for; a floor nobody was on is clear from the start. Listed in order of clearing,
 * the floors still being cleared last (most people left first).
 */
export function floorClearances(
  evacuationFloorIds: readonly number[],
  records: readonly ClearanceRecord[],
  startedAt: string,
): FloorClearance[] {
  const clearances = evacuationFloorIds.map((floorId): FloorClearance => {
    let clearedAt = startedAt;
    let remaining = 0;
    for (const record of records) {
      if (record.originFloorId !== floorId) continue;
      const since = offFloorSince(record);
      if (since === null) remaining += 1;
      else if (Date.parse(since) > Date.parse(clearedAt)) clearedAt = since;
    }
    return { floorId, clearedAt: remaining === 0 ? clearedAt : null, remaining };
  });
  return clearances.sort((a, b) => {
    if (a.clearedAt !== null && b.clearedAt !== null)
      return Date.parse(a.clearedAt) - Date.parse(b.clearedAt);
    if (a.clearedAt !== null) return -1;
    if (b.clearedAt !== null) return 1;
    return b.remaining - a.remaining;
  });
}
