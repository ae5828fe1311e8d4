import { type Static, type TSchema, Type } from 'typebox';
import {
  EVACUATION_STATUSES,
  type EvacuatingBatch,
  type EvacuationEnded,
  type EvacuationSnapshot,
  type EvacuationWorker,
  type NetworkFailure,
  type SafetyEventsBatch,
  type SafetyServiceError,
} from '../evacuation';
import type { LiveSnapshot, LocationUpdate } from '../live';
import { WorkerOnMapSchema } from './inventory';
import { EvacuationSchema, SafetyIncidentSchema } from './safety';
import { IdSchema } from './sites';

/**
 * The payloads the live socket sends the console (spec §7): the console parses every one of
 * them with these before a feed hears it, and drops (and counts) one that does not fit.
 */

const nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);
const literals = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((value) => Type.Literal(value)));
const Cursor = { stream: Type.String(), seq: Type.Integer({ minimum: 0 }) };
const Person = nullable(Type.Object({ id: Type.Integer(), name: Type.String() }));

export const LiveSnapshotSchema = Type.Object({
  ...Cursor,
  siteId: IdSchema,
  floorId: nullable(IdSchema),
  workers: Type.Array(WorkerOnMapSchema),
  at: Type.String(),
});
const _snapshotAgrees: Static<typeof LiveSnapshotSchema> extends LiveSnapshot ? true : never = true;

export const LocationUpdateSchema = Type.Object({
  ...Cursor,
  siteId: IdSchema,
  floorId: nullable(IdSchema),
  workers: Type.Array(WorkerOnMapSchema),
});
const _updateAgrees: Static<typeof LocationUpdateSchema> extends LocationUpdate ? true : never = true;

const MarkSchema = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  reason: Type.String(),
  markedAt: Type.String(),
});

export const EvacuationWorkerSchema = Type.Unsafe<EvacuationWorker>(
  Type.Object({
    ...WorkerOnMapSchema.properties,
    id: IdSchema,
    isSafe: Type.Boolean(),
    isWorkerAcknowledged: Type.Boolean(),
    isIncludedEvacuation: Type.Boolean(),
    status: literals(EVACUATION_STATUSES),
    includedAt: Type.String(),
    statusChangedAt: Type.String(),
    safeAt: nullable(Type.String()),
    acknowledgedAt: nullable(Type.String()),
    mark: nullable(MarkSchema),
    alarmDeliveredAt: nullable(Type.String()),
    redirectZoneId: nullable(IdSchema),
  }),
);

const RollPersonSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  company: Type.String(),
  status: literals(['marked', 'noHelmet'] as const),
  mark: nullable(MarkSchema),
});

const FloorClearanceSchema = Type.Object({
  floorId: IdSchema,
  clearedAt: nullable(Type.String()),
  remaining: Type.Integer({ minimum: 0 }),
});

const count = Type.Integer({ minimum: 0 });
export const EvacuationCountsSchema = Type.Object({
  included: count,
  stillInside: count,
  alarmUndelivered: count,
  ...Object.fromEntries(EVACUATION_STATUSES.map((status) => [status, count])),
});

export const EvacuationSnapshotSchema = Type.Unsafe<EvacuationSnapshot>(
  Type.Object({
    ...Cursor,
    evacuation: EvacuationSchema,
    workers: Type.Array(EvacuationWorkerSchema),
    rollPeople: Type.Array(RollPersonSchema),
    floorClearances: Type.Array(FloorClearanceSchema),
    counts: EvacuationCountsSchema,
    at: Type.String(),
  }),
);

export const EvacuatingBatchSchema = Type.Unsafe<EvacuatingBatch>(
  Type.Object({
    ...Cursor,
    siteId: IdSchema,
    evacuationSessionId: Type.String(),
    workers: Type.Array(EvacuationWorkerSchema),
    rollPeople: Type.Array(RollPersonSchema),
    floorClearances: Type.Array(FloorClearanceSchema),
    counts: EvacuationCountsSchema,
    evacuation: Type.Optional(EvacuationSchema),
  }),
);

export const EvacuationEndedSchema = Type.Unsafe<EvacuationEnded>(
  Type.Object({
    siteId: IdSchema,
    evacuationSessionId: Type.String(),
    endedAt: Type.String(),
    endedBy: Person,
  }),
);

export const NetworkFailureSchema = Type.Unsafe<NetworkFailure>(
  Type.Object({
    siteId: IdSchema,
    networkId: IdSchema,
    networkName: Type.String(),
    failed: Type.Boolean(),
    lastHeardAt: nullable(Type.String()),
    silentForSeconds: Type.Number({ minimum: 0 }),
  }),
);

export const SafetyServiceErrorSchema = Type.Unsafe<SafetyServiceError>(
  Type.Object({ siteId: nullable(IdSchema), message: Type.String() }),
);

export const SafetyEventsBatchSchema = Type.Unsafe<SafetyEventsBatch>(
  Type.Object({ siteId: IdSchema, incidents: Type.Array(SafetyIncidentSchema) }),
);
