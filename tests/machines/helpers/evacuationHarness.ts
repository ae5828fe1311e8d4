import { expect } from 'vitest';
import { createActor, type EventFrom } from 'xstate';
import type {
  EvacuatingBatch,
  Evacuation,
  EvacuationSnapshot,
  EvacuationStatus,
  EvacuationWorker,
} from '../../../src/domain/evacuation';
import { notSafeWorkers } from '../../../src/domain/evacuationLocations';
import { countEvacuation } from '../../../src/domain/evacuationRules';
import type { WorkerOnMap } from '../../../src/domain/inventory';
import { evacuationWallMachine } from '../../../src/machines/evacuation.machine';

export type EvacuationEffect =
  | { type: 'requestEvacuation' }
  | { type: 'requestStart'; params: unknown }
  | { type: 'requestEnd'; params: unknown };

export const SITE_ID = 7;
export const FLOOR_ID = 70;
export const OTHER_FLOOR_ID = 71;
export const WORK_ZONE = 700;
export const ASSEMBLY_ZONE = 701;
export const STARTED_AT = '2025-03-01T10:00:00.000Z';
export const SESSION = 'session-a';

export const SCOPE = {
  floorIds: [FLOOR_ID],
  zoneIds: [],
  assemblyZoneIds: [ASSEMBLY_ZONE],
  safeZone: null,
  gateWayId: null,
};

export const EVACUATION: Evacuation = {
  ...SCOPE,
  evacuationSessionId: SESSION,
  siteId: SITE_ID,
  evacuationStartAt: STARTED_AT,
  evacuationFloorsIds: [FLOOR_ID],
  unsafeAssemblyZoneIds: [],
  safetyEvents: [],
  started: true,
  endedAt: null,
  startedBy: { id: 1, name: 'Site Admin' },
  endedBy: null,
};

export const ENDED_EVACUATION: Evacuation = {
  ...EVACUATION,
  started: false,
  endedAt: '2025-03-01T10:20:00.000Z',
  endedBy: { id: 1, name: 'Site Admin' },
};

/** A helmet on the map, worn by worker `id` (helmet id = id + 1000). */
export function helmet(id: number, fields: Partial<WorkerOnMap> = {}): WorkerOnMap {
  return {
    id,
    inventory_id: id + 1000,
    wnt_inventory_id: `H-${id}`,
    coordinates: { lat: 25.2, long: 55.27 },
    name: `Worker ${id}`,
    worker_tag_id: null,
    contact_number: null,
    role_name: null,
    subcontractor_name: null,
    last_seen: STARTED_AT,
    is_online: true,
    is_active: true,
    profile_picture_path: null,
    helmet_color: null,
    zone_id: WORK_ZONE,
    zone_name: 'Work',
    blueprint_id: FLOOR_ID,
    blueprint_name: 'Level 1',
    ...fields,
  };
}

export function evacuee(
  id: number,
  status: EvacuationStatus,
  fields: Partial<EvacuationWorker> = {},
): EvacuationWorker {
  return {
    ...helmet(id),
    id,
    status,
    isSafe: status === 'safe',
    isWorkerAcknowledged: status === 'manualAcknowledge',
    isIncludedEvacuation: true,
    includedAt: STARTED_AT,
    statusChangedAt: STARTED_AT,
    safeAt: status === 'safe' ? STARTED_AT : null,
    acknowledgedAt: status === 'manualAcknowledge' ? STARTED_AT : null,
    mark: null,
    alarmSentAt: null,
    alarmDeliveredAt: null,
    originFloorId: FLOOR_ID,
    redirectZoneId: null,
    redirectedAt: null,
    ...fields,
  };
}

export function snapshotOf(
  workers: EvacuationWorker[],
  cursor: { stream: string; seq: number },
  evacuation: Evacuation = EVACUATION,
): EvacuationSnapshot {
  return {
    ...cursor,
    evacuation,
    workers,
    rollPeople: [],
    floorClearances: [],
    counts: countEvacuation(workers.map((w) => w.status)),
    at: STARTED_AT,
  };
}

export function batchOf(
  workers: EvacuationWorker[],
  cursor: { stream: string; seq: number },
  session = SESSION,
): EvacuatingBatch {
  return {
    ...cursor,
    siteId: SITE_ID,
    evacuationSessionId: session,
    workers,
    rollPeople: [],
    floorClearances: [],
    // The counts of the whole list after it are the service's; the machine derives its own.
    counts: countEvacuation(workers.map((w) => w.status)),
  };
}

/** The machine with its three requests recorded instead of reaching a socket. */
export function startEvacuationMachine(canWrite = true) {
  const effects: EvacuationEffect[] = [];
  const machine = evacuationWallMachine.provide({
    actions: {
      requestEvacuation: () => {
        effects.push({ type: 'requestEvacuation' });
      },
      requestStart: (_, params) => {
        effects.push({ type: 'requestStart', params });
      },
      requestEnd: (_, params) => {
        effects.push({ type: 'requestEnd', params });
      },
    },
  });
  const actor = createActor(machine, { input: { siteId: SITE_ID, canWrite } }).start();
  return {
    actor,
    effects,
    snapshot: () => actor.getSnapshot(),
    /** Sends one event and answers the effects it caused. */
    send(event: EventFrom<typeof evacuationWallMachine>): EvacuationEffect[] {
      const before = effects.length;
      actor.send(event);
      return effects.slice(before);
    },
    /** Included workers' statuses by worker id. */
    statuses: () =>
      Object.fromEntries([...actor.getSnapshot().context.workers.values()].map((w) => [w.id, w.status])),
  };
}

export type EvacuationHarness = ReturnType<typeof startEvacuationMachine>;

/** The counters never disagree with the list of included workers. */
export function expectCountsMatchList(sut: EvacuationHarness): void {
  const { workers, counts } = sut.snapshot().context;
  const listed = [...workers.values()];
  expect(counts).toEqual(
    countEvacuation(
      listed.map((w) => w.status),
      listed.filter((w) => w.alarmDeliveredAt === null).length,
    ),
  );
  expect(counts.included).toBe(workers.size);
  expect(counts.stillInside).toBe(notSafeWorkers(workers).length);
}
