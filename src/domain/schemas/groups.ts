import { type Static, type TSchema, Type } from 'typebox';
import { IdSchema, NameSchema, successOf } from './sites';
import { PageMetaSchema } from './users';

/**
 * Reply and request schemas of spec §7 "Work shifts, crews, groups" (the group lists and the
 * workers' location assignments) and "Worker status" (the site's statuses and the workers'
 * status spells). The groups and spells themselves come from Excel uploads (src/domain/bulkKinds.ts).
 */

const nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);
const Named = Type.Object({ id: Type.Integer(), name: Type.String() });

/** GET /sites/{id}/location-groups: each group with its zones and where they are. */
export const LocationGroupSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  zones: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      floor_id: Type.Integer(),
      floor_name: Type.String(),
      building_name: Type.String(),
    }),
  ),
});
export type LocationGroup = Static<typeof LocationGroupSchema>;

/** GET /sites/{id}/crew-groups. */
export const CrewGroupSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  crews: Type.Array(Named),
});
export type CrewGroup = Static<typeof CrewGroupSchema>;

/** GET /sites/{id}/subcontractors-groups (the spec's spelling). */
export const SubcontractorGroupSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  subcontractors: Type.Array(Named),
});
export type SubcontractorGroup = Static<typeof SubcontractorGroupSchema>;

/** GET /sites/{id}/worker-role-groups. */
export const WorkerRoleGroupSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  worker_roles: Type.Array(Named),
});
export type WorkerRoleGroup = Static<typeof WorkerRoleGroupSchema>;

/** GET /sites/{id}/location-groups/assignments: where a worker is meant to work from a date. */
export const LocationAssignmentSchema = Type.Object({
  id: Type.Integer(),
  worker_id: Type.Integer(),
  worker_name: Type.String(),
  worker_tag_id: nullable(Type.String()),
  location_group_id: Type.Integer(),
  location_group_name: Type.String(),
  /** YYYY-MM-DD, the site's date. */
  assigned_at: Type.String(),
});
export type LocationAssignment = Static<typeof LocationAssignmentSchema>;

/** GET and POST /sites/{id}/worker-status. */
export const WorkerStatusSchema = Named;
export type WorkerStatusItem = Static<typeof WorkerStatusSchema>;
export const WorkerStatusBodySchema = Type.Object({ name: NameSchema });

/** GET /sites/{id}/workers/worker-status/assignments: a worker's status spell. */
export const WorkerStatusAssignmentSchema = Type.Object({
  id: Type.Integer(),
  worker_id: Type.Integer(),
  worker_name: Type.String(),
  status_id: Type.Integer(),
  status: Type.String(),
  /** YYYY-MM-DD, the site's date; both ends included. */
  starts_on: Type.String(),
  /** YYYY-MM-DD, or null while open-ended. */
  ends_on: nullable(Type.String()),
  notes: nullable(Type.String()),
});
export type WorkerStatusAssignment = Static<typeof WorkerStatusAssignmentSchema>;

export const GROUP_PER_PAGE_MAX = 500;

/** The paged assignment lists, optionally of one worker. */
export const AssignmentListQuerySchema = Type.Object({
  worker_id: Type.Optional(IdSchema),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: GROUP_PER_PAGE_MAX })),
});
export type AssignmentListQuery = Static<typeof AssignmentListQuerySchema>;

/** The success envelope of a page of `item`, with `meta`. */
export function pageOf<T extends TSchema>(item: T) {
  return Type.Object({ ...successOf(Type.Array(item)).properties, meta: Type.Optional(PageMetaSchema) });
}
