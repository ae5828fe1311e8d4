import { Type } from 'typebox';
import type { WorkerFlat, WorkerNested } from '../workers';

/**
 * Reply schemas of spec §7 "Workers" as the console reads them. They check the fields the screens
 * key, sort and branch on; the rest of each row is shown as it comes (typed by its domain type).
 */

const nullableId = Type.Union([Type.Integer(), Type.Null()]);
/** The worker status in force today (its name) or null; absent from an older server. */
const workerStatus = Type.Optional(Type.Union([Type.String(), Type.Null()]));

/** A row of GET /sites/{id}/workers. */
export const WorkerRowSchema = Type.Unsafe<WorkerFlat>(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    inventory_id: nullableId,
    worker_status: workerStatus,
  }),
);

/** GET /sites/{id}/workers/{workerId}: the worker with its helmet and assignment history. */
export const WorkerDetailSchema = Type.Unsafe<WorkerNested>(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    AssignedCrews: Type.Array(Type.Unknown()),
    AssignedWorkshifts: Type.Array(Type.Unknown()),
    worker_status: workerStatus,
  }),
);
