import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { Type } from 'typebox';
import type { Area } from '../../src/domain/access';
import { LIMITS } from '../../src/domain/limits';
import { messages } from '../../src/domain/messages';
import { IdParamsSchema, IdSchema, NameSchema, successOf } from '../../src/domain/schemas/sites';
import { SafeString } from '../../src/domain/text';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { ok } from '../http/envelope';
import { conflict, notFound } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';

/** A named row of a site: a worker role or a subcontractor. */
export const SiteNameSchema = Type.Object({
  id: Type.Integer(),
  site_id: Type.Integer(),
  name: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const SiteNameBodySchema = Type.Object({ name: NameSchema });
export const SiteNameQuerySchema = Type.Object({
  /** Case-insensitive substring of the name. */
  search: Type.Optional(SafeString({ maxLength: LIMITS.nameMax })),
});
const ItemParamsSchema = Type.Object({ id: IdSchema, itemId: IdSchema });

interface NameTable {
  table: PgTable;
  id: PgColumn;
  siteId: PgColumn;
  name: PgColumn;
  createdAt: PgColumn;
  updatedAt: PgColumn;
}

interface NameRow {
  id: number;
  siteId: number;
  name: string;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export interface SiteNameListOptions {
  /** "worker-roles" → /sites/:id/worker-roles */
  path: string;
  /** "Worker role": in "Worker role name already exists!" and "Worker role is created successfully". */
  label: string;
  area: Area;
  columns: NameTable;
}

/**
 * GET (sorted name,asc, `search`), POST create and POST /:itemId edit of a site's name list
 * (spec §7 "Workers, worker roles, subcontractors"). Names are unique per site, case-insensitive
 * and trimmed: a duplicate is 409 "<label> name already exists!".
 */
export function siteNameListRoutes(options: SiteNameListOptions): FastifyPluginAsyncTypebox<Services> {
  const { path, label, area, columns: c } = options;
  const duplicate = () => conflict(messages.duplicateName(label));
  const Reply = successOf(SiteNameSchema);
  const toItem = (row: NameRow) => ({
    id: row.id,
    site_id: row.siteId,
    name: row.name,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  });
  const selection = {
    id: c.id,
    siteId: c.siteId,
    name: c.name,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };

  async function nameTaken(db: Db, siteId: number, name: string, exceptId?: number): Promise<boolean> {
    const rows = await db
      .select({ id: c.id })
      .from(c.table)
      .where(
        and(
          eq(c.siteId, siteId),
          sql`lower(trim(${c.name})) = lower(${name})`,
          exceptId === undefined ? undefined : ne(c.id, exceptId),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  return async (app, { db }) => {
    app.get(
      `/sites/:id/${path}`,
      {
        preValidation: allow(area, 'open'),
        schema: {
          params: IdParamsSchema,
          querystring: SiteNameQuerySchema,
          response: { 200: successOf(Type.Array(SiteNameSchema)) },
        },
      },
      async (request) => {
        const site = await requireSite(db, principalOf(request), request.params.id);
        const text = request.query.search?.trim();
        const search: SQL | undefined = text ? sql`strpos(lower(${c.name}), lower(${text})) > 0` : undefined;
        const rows = (await db
          .select(selection)
          .from(c.table)
          .where(and(eq(c.siteId, site.id), search))
          .orderBy(sql`lower(${c.name})`, asc(c.id))) as NameRow[];
        return ok(rows.map(toItem));
      },
    );

    app.post(
      `/sites/:id/${path}`,
      {
        preValidation: allow(area, 'write'),
        schema: { params: IdParamsSchema, body: SiteNameBodySchema, response: { 200: Reply } },
      },
      async (request) => {
        const site = await requireSite(db, principalOf(request), request.params.id);
        const name = requiredName(request.body.name);
        if (await nameTaken(db, site.id, name)) throw duplicate();
        try {
          const [row] = (await db
            .insert(c.table)
            .values({ siteId: site.id, name } as never)
            .returning(selection)) as NameRow[];
          if (!row) throw notFound(label);
          return ok(toItem(row), messages.created(label));
        } catch (error) {
          if (uniqueViolation(error)) throw duplicate();
          throw error;
        }
      },
    );

    app.post(
      `/sites/:id/${path}/:itemId`,
      {
        preValidation: allow(area, 'write'),
        schema: { params: ItemParamsSchema, body: SiteNameBodySchema, response: { 200: Reply } },
      },
      async (request) => {
        const site = await requireSite(db, principalOf(request), request.params.id);
        const [existing] = await db
          .select({ id: c.id })
          .from(c.table)
          .where(and(eq(c.id, request.params.itemId), eq(c.siteId, site.id)))
          .limit(1);
        if (!existing) throw notFound(label);
        const name = requiredName(request.body.name);
        if (await nameTaken(db, site.id, name, request.params.itemId)) throw duplicate();
        try {
          const [row] = (await db
            .update(c.table)
            .set({ name, updatedAt: new Date() } as never)
            .where(eq(c.id, request.params.itemId))
            .returning(selection)) as NameRow[];
          if (!row) throw notFound(label);
          return ok(toItem(row), `${label} is updated successfully`);
        } catch (error) {
          if (uniqueViolation(error)) throw duplicate();
          throw error;
        }
      },
    );
  };
}
