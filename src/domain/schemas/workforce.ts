import { type Static, type TSchema, Type } from 'typebox';

/**
 * Reply schemas of spec §7 "Workers, worker roles, subcontractors" and "Work shifts, crews,
 * groups" as the console reads them: the fields its screens rely on (the server's own response
 * schemas, in server/workforce/*, send these and more).
 */

const nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);

/** A worker role, a subcontractor or a crew (spec §3 Crew: id, name). */
export const NamedItemSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  site_id: Type.Optional(Type.Integer()),
  created_at: Type.Optional(Type.String()),
  updated_at: Type.Optional(Type.String()),
});
export type NamedItem = Static<typeof NamedItemSchema>;

const BreakSchema = Type.Object({ start: Type.String(), end: Type.String() });

/** A work shift as replied; older replies name the times start_time/end_time. */
export const WorkshiftReplySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  category: Type.Optional(nullable(Type.String())),
  non_working_days: Type.Optional(Type.Array(Type.Integer())),
  start: Type.Optional(Type.String()),
  end: Type.Optional(Type.String()),
  start_time: Type.Optional(Type.String()),
  end_time: Type.Optional(Type.String()),
  breaks: Type.Optional(Type.Array(BreakSchema)),
  updated_at: Type.Optional(Type.String()),
});
export type WorkshiftReply = Static<typeof WorkshiftReplySchema>;

const LatestAssignmentSchema = Type.Object({
  worker_id: Type.Integer(),
  worker_name: Type.String(),
  crew_id: nullable(Type.Integer()),
  crew_name: nullable(Type.String()),
  /** YYYY-MM-DD */
  crew_assigned_at: nullable(Type.String()),
  workshift_id: nullable(Type.Integer()),
  workshift_name: nullable(Type.String()),
  workshift_assigned_at: nullable(Type.String()),
});

/** GET /sites/{id}/workers/workshift-and-crews/latest: each worker's current crew and work shift. */
export const LatestAssignmentsSchema = Type.Object({
  /** The site's date the assignments are current on. */
  date: Type.String(),
  workers: Type.Array(LatestAssignmentSchema),
});
export type LatestAssignments = Static<typeof LatestAssignmentsSchema>;

/** POST …/assign. */
export const AssignReplySchema = Type.Object({ assigned: Type.Integer(), assigned_at: Type.String() });

/** A crew with the ids of the users (crew-manager role) who manage it. */
export const CrewWithManagersSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  manager_ids: Type.Array(Type.Integer()),
});
export type CrewWithManagers = Static<typeof CrewWithManagersSchema>;

/**
 * GET /sites/{id}/crew-manager-users: a user who may manage the site's crews (crew-manager role,
 * of the site's client, member of the site or of its group of sites).
 */
export const CrewManagerUserSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  user_role: Type.String(),
});
export type CrewManagerUser = Static<typeof CrewManagerUserSchema>;

/** A worker as the assignment pickers show it: name and tag. */
export const WorkerOptionSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  worker_tag_id: nullable(Type.String()),
});
export type WorkerOption = Static<typeof WorkerOptionSchema>;
