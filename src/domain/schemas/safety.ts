import { type Static, type TSchema, Type } from 'typebox';
import type { DrillComparisonEntry } from '../drillFigures';
import type { Evacuation, SafetyWorker } from '../evacuation';
import type { EvacuationReport, EvacuationSessionSummary } from '../evacuationReport';
import { INCIDENT_STATUSES, INCIDENT_TYPES, type SafetyIncident } from '../incidents';
import type { SafetyDemoStatus } from '../safetyDemo';

/**
 * Reply schemas of the safety listener's REST calls (spec §7 "Safety service"), as the console
 * reads them: the fields it keys, counts and branches on are checked; the rest of each object is
 * shown as it comes (typed by its domain type).
 */

const literals = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((value) => Type.Literal(value)));
const nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);
const Counts = Type.Object({});

/** POST /api/safety/getworkers: a helmet with the evacuation fields. */
export const SafetyWorkerSchema = Type.Unsafe<SafetyWorker>(
  Type.Object({
    inventory_id: Type.Integer(),
    is_online: Type.Boolean(),
    isSafe: Type.Boolean(),
    isIncludedEvacuation: Type.Boolean(),
    status: Type.String(),
  }),
);

/** An incident (GET /api/safety/incident/getAll/…, POST /api/safety/incident/escelate). */
export const SafetyIncidentSchema = Type.Unsafe<SafetyIncident>(
  Type.Object({
    id: Type.Integer(),
    type: literals(INCIDENT_TYPES),
    status: literals(INCIDENT_STATUSES),
    ts: Type.String(),
  }),
);

/** GET /api/safety/sites/{siteId}/networks: a gateway of the start dialog. */
export const SafetyNetworkSchema = Type.Object({ id: Type.Integer(), name: Type.String() });
export type SafetyNetwork = Static<typeof SafetyNetworkSchema>;

/** GET /api/safety/sites/{siteId}/evacuations: a past or running session. */
export const EvacuationSessionSummarySchema = Type.Unsafe<EvacuationSessionSummary>(
  Type.Object({ evacuationSessionId: Type.String(), startedAt: Type.String(), counts: Counts }),
);

/** GET /api/safety/evacuations/{sessionId}/report. */
export const EvacuationReportSchema = Type.Unsafe<EvacuationReport>(
  Type.Object({
    evacuationSessionId: Type.String(),
    workers: Type.Array(Type.Unknown()),
    neverAccounted: Type.Array(Type.Unknown()),
    countsAtEnd: Counts,
    figures: Type.Object({ rollSize: Type.Integer(), floorsCleared: Type.Array(Type.Unknown()) }),
    floorsCleared: Type.Array(Type.Unknown()),
  }),
);

/** GET /api/safety/sites/{siteId}/evacuations/figures: one past drill with its figures. */
export const DrillComparisonEntrySchema = Type.Unsafe<DrillComparisonEntry>(
  Type.Object({
    evacuationSessionId: Type.String(),
    startedAt: Type.String(),
    figures: Type.Object({ rollSize: Type.Integer() }),
  }),
);

/** A session as sent (the drill's reply). */
export const EvacuationSchema = Type.Unsafe<Evacuation>(
  Type.Object({ evacuationSessionId: Type.String(), siteId: Type.Integer(), started: Type.Boolean() }),
);

/** GET /api/safety/demo/{siteId}. */
export const SafetyDemoStatusSchema = Type.Unsafe<SafetyDemoStatus>(
  Type.Object({
    siteId: Type.Integer(),
    isDemoSite: Type.Boolean(),
    simulatorOn: Type.Boolean(),
    running: nullable(Type.Object({ evacuationSessionId: Type.String() })),
  }),
);
