import { ACCOUNTED_STATUSES, type Evacuation, type EvacuationWorker } from './evacuation';
import { evacuationStatus, isInEvacuatedArea } from './evacuationRules';
import type { WorkerOnMap } from './inventory';

/**
 * The console's rules for the included workers of a running evacuation between the service's
 * batches (spec §4): how a location update changes them, and who is not yet safe.
 */

function seenLater(update: WorkerOnMap, known: WorkerOnMap): boolean {
  if (update.last_seen === null) return known.last_seen === null;
  return known.last_seen === null || Date.parse(update.last_seen) >= Date.parse(known.last_seen);
}

/**
 * Spec §4: a location update changes a known worker (its position, and its status by the same rule
 * as the service) and adds an unknown one only when it is online, wears the helmet and stands in
 * the evacuated area, as the service includes it. The service's next batch is the authority.
 */
export function applyLocations(
  workers: ReadonlyMap<number, EvacuationWorker>,
  evacuation: Evacuation,
  updates: readonly WorkerOnMap[],
): ReadonlyMap<number, EvacuationWorker> {
  const scope = {
    startedAt: evacuation.evacuationStartAt,
    assemblyZoneIds: evacuation.assemblyZoneIds,
    safeZone: evacuation.safeZone,
    floorIds: evacuation.floorIds,
    zoneIds: evacuation.zoneIds,
  };
  let next: Map<number, EvacuationWorker> | null = null;
  for (const update of updates) {
    if (update.id === null) continue;
    const known = workers.get(update.id);
    if (known && !seenLater(update, known)) continue;
    if (!known) {
      if (!update.is_online) continue;
      const position = { floorId: update.blueprint_id, zoneId: update.zone_id };
      if (!isInEvacuatedArea(position, evacuation)) continue;
    }
    const acknowledgedAt = known?.acknowledgedAt ?? null;
    const status = evacuationStatus(
      {
        isOnline: update.is_online,
        lastSeen: update.last_seen,
        floorId: update.blueprint_id,
        zoneId: update.zone_id,
        acknowledgedAt,
        markedAt: known?.mark?.markedAt ?? null,
      },
      scope,
      {
        safeAt: known?.safeAt ?? null,
        silentAtAlarm: known?.status === 'offlineBeforeAlarm',
        redirectedAt: known?.redirectedAt ?? null,
        redirectZoneId: known?.redirectZoneId ?? null,
      },
    );
    const at = update.last_seen ?? evacuation.evacuationStartAt;
    next ??= new Map(workers);
    next.set(update.id, {
      ...update,
      id: update.id,
      status,
      isSafe: status === 'safe',
      isWorkerAcknowledged: acknowledgedAt !== null,
      isIncludedEvacuation: true,
      includedAt: known?.includedAt ?? at,
      statusChangedAt: known && known.status === status ? known.statusChangedAt : at,
      safeAt: known?.safeAt ?? (status === 'safe' ? at : null),
      acknowledgedAt,
      mark: known?.mark ?? null,
      alarmSentAt: known?.alarmSentAt ?? null,
      alarmDeliveredAt: known?.alarmDeliveredAt ?? null,
      originFloorId: known?.originFloorId ?? update.blueprint_id,
      redirectZoneId: known?.redirectZoneId ?? null,
      redirectedAt: known?.redirectedAt ?? null,
    });
  }
  return next ?? workers;
}

/**
 * Who is not accounted for, in the order a control room works through them: re-entered first
 * (someone went back in), then the rest longest unseen first (never seen before anyone), and the
 * helmets already silent before the alarm last, most recently seen first.
 */
export function notSafeWorkers(workers: ReadonlyMap<number, EvacuationWorker>): EvacuationWorker[] {
  const seen = (w: EvacuationWorker) =>
    w.last_seen === null ? Number.NEGATIVE_INFINITY : Date.parse(w.last_seen);
  const group = (w: EvacuationWorker) =>
    w.status === 'reEntered' ? 0 : w.status === 'offlineBeforeAlarm' ? 2 : 1;
  return [...workers.values()]
    .filter((w) => !ACCOUNTED_STATUSES.includes(w.status))
    .sort(
      (a, b) =>
        group(a) - group(b) ||
        (group(a) === 2 ? seen(b) - seen(a) : seen(a) - seen(b)) ||
        (a.name ?? '').localeCompare(b.name ?? '') ||
        a.id - b.id,
    );
}
