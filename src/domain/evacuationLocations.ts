import type { Evacuation, EvacuationWorker } from './evacuation';
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
      { isOnline: update.is_online, lastSeen: update.last_seen, zoneId: update.zone_id, acknowledgedAt },
      scope,
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
    });
  }
  return next ?? workers;
}

/** Not yet safe, longest unseen first (never seen before anyone), then by name. */
export function notSafeWorkers(workers: ReadonlyMap<number, EvacuationWorker>): EvacuationWorker[] {
  const seen = (w: EvacuationWorker) =>
    w.last_seen === null ? Number.NEGATIVE_INFINITY : Date.parse(w.last_seen);
  return [...workers.values()]
    .filter((w) => w.status !== 'safe')
    .sort((a, b) => seen(a) - seen(b) || (a.name ?? '').localeCompare(b.name ?? '') || a.id - b.id);
}
