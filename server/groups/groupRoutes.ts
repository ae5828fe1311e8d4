import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type SQL, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import {
  AssignmentListQuerySchema,
  CrewGroupSchema,
  type LocationAssignment,
  LocationAssignmentSchema,
  type LocationGroup,
  LocationGroupSchema,
  pageOf,
  SubcontractorGroupSchema,
  WorkerRoleGroupSchema,
} from '../../src/domain/schemas/groups';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { type Principal, principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import type { Services } from '../services';
import { rows } from '../workers/sqlRows';
import { assignmentPage, visibleWorkersWhere } from './assignmentScope';

interface Member {
  id: number;
  name: string;
}

/** A kind of group of a site's named rows: its table, the link table and the rows' table. */
interface MemberGroupKind {
  groups: SQL;
  links: SQL;
  /** The link table's column naming the member. */
  member: SQL;
  members: SQL;
}

const CREW_GROUPS: MemberGroupKind = {
  groups: sql.raw('crew_groups'),
  links: sql.raw('crew_group_crews'),
  member: sql.raw('crew_id'),
  members: sql.raw('crews'),
};
const SUBCONTRACTOR_GROUPS: MemberGroupKind = {
  groups: sql.raw('subcontractor_groups'),
  links: sql.raw('subcontractor_group_members'),
  member: sql.raw('subcontractor_id'),
  members: sql.raw('subcontractors'),
};
const WORKER_ROLE_GROUPS: MemberGroupKind = {
  groups: sql.raw('worker_role_groups'),
  links: sql.raw('worker_role_group_members'),
  member: sql.raw('worker_role_id'),
  members: sql.raw('worker_roles'),
};

/**
 * A site's groups of one kind, sorted by name, each with its members sorted by name. Only the
 * site's own members are named (an upload links within a site; this keeps it so), and `visible`
 * narrows them further (`m` is the member row).
 */
async function groupsWithMembers(
  db: Db,
  siteId: number,
  kind: MemberGroupKind,
  visible: SQL = sql``,
): Promise<{ id: number; name: string; members: Member[] }[]> {
  return rows(
    db,
    sql`select g.id, g.name,
          coalesce(json_agg(json_build_object('id', m.id, 'name', m.name) order by lower(m.name), m.id)
            filter (where m.id is not null), '[]'::json) as members
        from ${kind.groups} g
        left join (${kind.links} l join ${kind.members} m
          on m.id = l.${kind.member} and m.site_id = ${siteId} ${visible}) on l.group_id = g.id
        where g.site_id = ${siteId}
        group by g.id, g.name
        order by lower(g.name), g.id`,
  );
}

/** Crews a crew manager does not manage are as unknown to it in a group as in the crew list. */
function visibleCrews(principal: Principal): SQL {
  return principal.role === 'crew-manager'
    ? sql`and exists (select 1 from crew_managers cm where cm.crew_id = m.id and cm.user_id = ${principal.id})`
    : sql``;
}

/**
 * The groups of spec §7 "Work shifts, crews, groups" (filled by Excel uploads, server/bulk):
 * location groups with their zones, crew, subcontractor and worker role groups with their
 * members, and the workers' location assignments. A crew manager sees the crews it manages and
 * the location assignments of its crews' current members only.
 */
export const groupRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/sites/:id/location-groups',
    {
      preValidation: allow('crews', 'open'),
      schema: { params: IdParamsSchema, response: { 200: successOf(Type.Array(LocationGroupSchema)) } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const groups = await rows<LocationGroup>(
        db,
        sql`select g.id, g.name,
              coalesce(json_agg(json_build_object('id', z.id, 'name', z.name, 'floor_id', f.id,
                  'floor_name', f.name, 'building_name', b.name)
                order by lower(b.name), lower(f.name), lower(z.name), z.id)
                filter (where z.id is not null), '[]'::json) as zones
            from location_groups g
            left join (location_group_zones gz
              join zones z on z.id = gz.zone_id
              join floors f on f.id = z.floor_id
              join buildings b on b.id = f.building_id and b.site_id = ${site.id}) on gz.group_id = g.id
            where g.site_id = ${site.id}
            group by g.id, g.name
            order by lower(g.name), g.id`,
      );
      return ok(groups);
    },
  );

  app.get(
    '/sites/:id/location-groups/assignments',
    {
      preValidation: allow('workers', 'open'),
      schema: {
        params: IdParamsSchema,
        querystring: AssignmentListQuerySchema,
        response: { 200: pageOf(LocationAssignmentSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const { query } = request;
      const visible = await visibleWorkersWhere(db, principal, site, query.worker_id);
      const page = await assignmentPage<LocationAssignment>(db, query, {
        select: sql`a.id, a.worker_id, w.name as worker_name, w.worker_tag_id,
              a.location_group_id, g.name as location_group_name, a.assigned_at::text as assigned_at`,
        from: sql`from worker_location_assignments a
              join workers w on w.id = a.worker_id
              join location_groups g on g.id = a.location_group_id and g.site_id = ${site.id}
              where w.site_id = ${site.id} and ${visible}`,
        order: sql`a.assigned_at desc, a.id desc`,
      });
      return ok(page.items, undefined, page.meta);
    },
  );

  app.get(
    '/sites/:id/crew-groups',
    {
      preValidation: allow('crews', 'open'),
      schema: { params: IdParamsSchema, response: { 200: successOf(Type.Array(CrewGroupSchema)) } },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const groups = await groupsWithMembers(db, site.id, CREW_GROUPS, visibleCrews(principal));
      return ok(groups.map(({ members, ...group }) => ({ ...group, crews: members })));
    },
  );

  app.get(
    '/sites/:id/subcontractors-groups',
    {
      preValidation: allow('crews', 'open'),
      schema: { params: IdParamsSchema, response: { 200: successOf(Type.Array(SubcontractorGroupSchema)) } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const groups = await groupsWithMembers(db, site.id, SUBCONTRACTOR_GROUPS);
      return ok(groups.map(({ members, ...group }) => ({ ...group, subcontractors: members })));
    },
  );

  app.get(
    '/sites/:id/worker-role-groups',
    {
      preValidation: allow('crews', 'open'),
      schema: { params: IdParamsSchema, response: { 200: successOf(Type.Array(WorkerRoleGroupSchema)) } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const groups = await groupsWithMembers(db, site.id, WORKER_ROLE_GROUPS);
      return ok(groups.map(({ members, ...group }) => ({ ...group, worker_roles: members })));
    },
  );
};
