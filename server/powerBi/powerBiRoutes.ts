import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { can } from '../../src/domain/access';
import { messages } from '../../src/domain/messages';
import { nameProblem } from '../../src/domain/nameRule';
import { checkEmbedUrl, POWER_BI_MESSAGES, POWER_BI_REPORT_LABEL } from '../../src/domain/powerBi';
import {
  CreatePowerBiReportBodySchema,
  EditPowerBiReportBodySchema,
  PowerBiReportParamsSchema,
  PowerBiReportSchema,
} from '../../src/domain/schemas/powerBi';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { powerBiReports } from '../db/schema';
import { ok } from '../http/envelope';
import { conflict, notFound, unprocessable } from '../http/errors';
import type { Services } from '../services';

type ReportRow = typeof powerBiReports.$inferSelect;

const Reply = successOf(PowerBiReportSchema);
const duplicate = () => conflict(messages.duplicateName(POWER_BI_REPORT_LABEL));

function toReport(row: ReportRow) {
  return {
    id: row.id,
    site_id: row.siteId,
    name: row.name,
    embed_url: row.embedUrl,
    is_active: row.isActive,
    created_by: row.createdBy,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/** The fields' problems by field, in the spec's words, and the values to store when there are none. */
function checkedFields(body: { name?: string; embed_url?: string }) {
  const errors: Record<string, string> = {};
  const values: { name?: string; embedUrl?: string } = {};
  if (body.name !== undefined) {
    const problem = nameProblem('Name', body.name);
    if (problem) errors.name = problem;
    else values.name = body.name.trim();
  }
  if (body.embed_url !== undefined) {
    const check = checkEmbedUrl(body.embed_url);
    if (check.ok) values.embedUrl = check.url;
    else errors.embed_url = check.message;
  }
  if (Object.keys(errors).length > 0) throw unprocessable(errors);
  return values;
}

async function nameTaken(db: Db, siteId: number, name: string, exceptId?: number): Promise<boolean> {
  const rows = await db
    .select({ id: powerBiReports.id })
    .from(powerBiReports)
    .where(
      and(
        eq(powerBiReports.siteId, siteId),
        sql`lower(trim(${powerBiReports.name})) = lower(${name})`,
        exceptId === undefined ? undefined : ne(powerBiReports.id, exceptId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * A site's Power BI report links (spec §7; docs/decisions.md "Power BI reports"). They are listed
 * under Analytics, so reading is the analytics area's; adding, editing and deactivating are its
 * writers' (site admins and above). Readers see the active reports only; writers see every one, so
 * a deactivated report can be activated again.
 */
export const powerBiRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/sites/:id/power-bi',
    {
      preValidation: allow('analytics', 'open'),
      schema: { params: IdParamsSchema, response: { 200: successOf(Type.Array(PowerBiReportSchema)) } },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const everyReport = can(principal.role, 'write', 'analytics');
      const rows = await db
        .select()
        .from(powerBiReports)
        .where(
          and(
            eq(powerBiReports.siteId, site.id),
            everyReport ? undefined : eq(powerBiReports.isActive, true),
          ),
        )
        .orderBy(sql`lower(${powerBiReports.name})`, asc(powerBiReports.id));
      return ok(rows.map(toReport));
    },
  );

  app.post(
    '/sites/:id/power-bi',
    {
      preValidation: allow('analytics', 'write'),
      schema: { params: IdParamsSchema, body: CreatePowerBiReportBodySchema, response: { 200: Reply } },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const { name, embedUrl } = checkedFields(request.body);
      if (name === undefined || embedUrl === undefined) throw unprocessable({});
      if (await nameTaken(db, site.id, name)) throw duplicate();
      try {
        const [row] = await db
          .insert(powerBiReports)
          .values({
            siteId: site.id,
            name,
            embedUrl,
            isActive: request.body.is_active ?? true,
            createdBy: principal.id,
          })
          .returning();
        return ok(toReport(row), messages.created(POWER_BI_REPORT_LABEL));
      } catch (error) {
        if (uniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
  );

  app.post(
    '/sites/:id/power-bi/:reportId',
    {
      preValidation: allow('analytics', 'write'),
      schema: {
        params: PowerBiReportParamsSchema,
        body: EditPowerBiReportBodySchema,
        response: { 200: Reply },
      },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      const ofSite = and(eq(powerBiReports.id, request.params.reportId), eq(powerBiReports.siteId, site.id));
      const [existing] = await db
        .select({ id: powerBiReports.id })
        .from(powerBiReports)
        .where(ofSite)
        .limit(1);
      if (!existing) throw notFound(POWER_BI_REPORT_LABEL);
      const values = checkedFields(request.body);
      if (values.name !== undefined && (await nameTaken(db, site.id, values.name, existing.id)))
        throw duplicate();
      const isActive = request.body.is_active;
      try {
        const [row] = await db
          .update(powerBiReports)
          .set({ ...values, ...(isActive === undefined ? {} : { isActive }), updatedAt: new Date() })
          .where(ofSite)
          .returning();
        if (!row) throw notFound(POWER_BI_REPORT_LABEL);
        return ok(toReport(row), POWER_BI_MESSAGES.updated);
      } catch (error) {
        if (uniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
  );
};
