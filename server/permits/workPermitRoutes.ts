import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { LongLat } from '../../src/domain/floor';
import { cornerRing } from '../../src/domain/floorValidation';
import { gridReference } from '../../src/domain/gridFields';
import { messages } from '../../src/domain/messages';
import { openRing, polygonProblem } from '../../src/domain/polygon';
import { successOf } from '../../src/domain/schemas/sites';
import {
  FloorPathParamsSchema,
  PermitHoldersSchema,
  PermitPathParamsSchema,
  SitePathParamsSchema,
  WorkPermitBodySchema,
  WorkPermitEditBodySchema,
  WorkPermitListQuerySchema,
  WorkPermitSchema,
} from '../../src/domain/schemas/workPermits';
import {
  areaCentre,
  canChangeStatus,
  holderProblem,
  INITIAL_PERMIT_STATUSES,
  PERMIT_AREA_MESSAGES,
  PERMIT_MESSAGES,
  type PermitStatus,
  type PermitType,
  validityProblems,
  type WorkPermit,
} from '../../src/domain/workPermits';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Executor } from '../db/executor';
import { crews, subcontractors, workPermits } from '../db/schema';
import { duplicateAsConflict, type NamedRows, nameTaken } from '../floors/namedRows';
import { done, ok } from '../http/envelope';
import { conflict, notFound, unprocessable } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';
import { type PermitFloor, requirePermit, requirePermitFloor } from './permitAccess';

type PermitRow = typeof workPermits.$inferSelect;

const PermitReply = successOf(WorkPermitSchema);
const PermitListReply = successOf(Type.Array(WorkPermitSchema));
const duplicate = () => conflict(PERMIT_MESSAGES.duplicateNumber);

const holderName = sql<string>`coalesce(${crews.name}, ${subcontractors.name}, '')`;

/** Permits with their holder's name, as replied. */
async function selectPermits(
  db: Executor,
  floor: PermitFloor,
  where: SQL | undefined,
): Promise<WorkPermit[]> {
  const rows = await db
    .select({ permit: workPermits, holderName })
    .from(workPermits)
    .leftJoin(crews, eq(crews.id, workPermits.holderCrewId))
    .leftJoin(subcontractors, eq(subcontractors.id, workPermits.holderSubcontractorId))
    .where(and(eq(workPermits.floorId, floor.id), where))
    .orderBy(desc(workPermits.validFrom), asc(workPermits.id));
  return rows.map((row) => toPermit(row.permit, row.holderName, floor));
}

function toPermit(row: PermitRow, holder: string, floor: PermitFloor): WorkPermit {
  return {
    id: row.id,
    site_id: row.siteId,
    floor_id: row.floorId,
    number: row.number,
    type: row.type as PermitType,
    area: row.area,
    holder_crew_id: row.holderCrewId,
    holder_subcontractor_id: row.holderSubcontractorId,
    holder_name: holder,
    valid_from: row.validFrom.toISOString(),
    valid_to: row.validTo.toISOString(),
    status: row.status as PermitStatus,
    grid_ref: floor.grid ? gridReference(floor.grid, floor.corners, areaCentre(row.area)) : null,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/** What a permit will be once the body is applied, before its checks. */
interface PermitDraft {
  number: string;
  type: PermitType;
  area: LongLat[];
  holderCrewId: number | null;
  holderSubcontractorId: number | null;
  validFrom: string;
  validTo: string;
  status: PermitStatus;
}

/** Every problem of the draft on this floor, field → message (the spec's words where it has them). */
async function draftProblems(
  db: Executor,
  floor: PermitFloor,
  draft: PermitDraft,
): Promise<Record<string, string>> {
  const problems: Record<string, string> = {};
  if (!draft.number.trim()) problems.number = messages.required('Permit number');
  // Building-sized areas: lat/long is a flat enough frame to test crossing and containment in (as zones).
  const areaProblem = polygonProblem(openRing(draft.area), cornerRing(floor.corners));
  if (areaProblem) problems.area = PERMIT_AREA_MESSAGES[areaProblem];
  const holder = holderProblem(draft.holderCrewId, draft.holderSubcontractorId);
  if (holder) problems.holder = holder;
  // Another site's crew or subcontractor is as unknown as a missing one (tenancy: 404).
  else await requireHolderOfSite(db, floor.siteId, draft);
  Object.assign(problems, validityProblems(draft.validFrom, draft.validTo));
  return problems;
}

async function requireHolderOfSite(db: Executor, siteId: number, draft: PermitDraft): Promise<void> {
  if (draft.holderCrewId !== null) {
    const [crew] = await db
      .select({ id: crews.id })
      .from(crews)
      .where(and(eq(crews.id, draft.holderCrewId), eq(crews.siteId, siteId)));
    if (!crew) throw notFound('Crew');
    return;
  }
  const [subcontractor] = await db
    .select({ id: subcontractors.id })
    .from(subcontractors)
    .where(and(eq(subcontractors.id, draft.holderSubcontractorId ?? 0), eq(subcontractors.siteId, siteId)));
  if (!subcontractor) throw notFound('Subcontractor');
}

/** Permit numbers are unique on their site, whatever the floor. */
const PERMITS: NamedRows = {
  table: workPermits,
  id: workPermits.id,
  scope: workPermits.siteId,
  name: workPermits.number,
  duplicate,
};

function storedValues(draft: PermitDraft) {
  return {
    number: draft.number.trim(),
    type: draft.type,
    area: openRing(draft.area).map(([long, lat]): [number, number] => [long, lat]),
    holderCrewId: draft.holderCrewId,
    holderSubcontractorId: draft.holderSubcontractorId,
    validFrom: new Date(draft.validFrom),
    validTo: new Date(draft.validTo),
    status: draft.status,
  };
}

/**
 * Work permits of a floor (spec §7 "Work permits and grid"): listed, issued, edited (status
 * changes included) and deleted under /clients/{c}/sites/{s}/floors/{f}. Roles: the
 * `installation` row of DESIGN §4; the client/site/floor chain must be the caller's, else 404.
 */
export const workPermitRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  const base = '/clients/:clientId/sites/:siteId/floors/:floorId/work-permits';

  // The permit dialog's holder choices: the installation roles may not read the crews screens' lists.
  app.get(
    '/clients/:clientId/sites/:siteId/work-permit-holders',
    {
      preValidation: allow('installation', 'open'),
      schema: { params: SitePathParamsSchema, response: { 200: successOf(PermitHoldersSchema) } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.siteId);
      if (site.clientId !== request.params.clientId) throw notFound('Site');
      const byName = (rows: { id: number; name: string }[]) =>
        rows.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
      const [crewRows, subcontractorRows] = await Promise.all([
        db.select({ id: crews.id, name: crews.name }).from(crews).where(eq(crews.siteId, site.id)),
        db
          .select({ id: subcontractors.id, name: subcontractors.name })
          .from(subcontractors)
          .where(eq(subcontractors.siteId, site.id)),
      ]);
      return ok({ crews: byName(crewRows), subcontractors: byName(subcontractorRows) });
    },
  );

  app.get(
    base,
    {
      preValidation: allow('installation', 'open'),
      schema: {
        params: FloorPathParamsSchema,
        querystring: WorkPermitListQuerySchema,
        response: { 200: PermitListReply },
      },
    },
    async (request) => {
      const floor = await requirePermitFloor(db, principalOf(request), request.params);
      const { status, type } = request.query;
      return ok(
        await selectPermits(
          db,
          floor,
          and(
            status === undefined ? undefined : eq(workPermits.status, status),
            type === undefined ? undefined : eq(workPermits.type, type),
          ),
        ),
      );
    },
  );

  app.post(
    base,
    {
      preValidation: allow('installation', 'write'),
      schema: { params: FloorPathParamsSchema, body: WorkPermitBodySchema, response: { 200: PermitReply } },
    },
    async (request) => {
      const principal = principalOf(request);
      const floor = await requirePermitFloor(db, principal, request.params);
      const body = request.body;
      const draft: PermitDraft = {
        number: requiredName(body.number, 'number', 'Permit number'),
        type: body.type,
        area: body.area as LongLat[],
        holderCrewId: body.holder_crew_id ?? null,
        holderSubcontractorId: body.holder_subcontractor_id ?? null,
        validFrom: body.valid_from,
        validTo: body.valid_to,
        status: body.status ?? 'draft',
      };
      const problems = await draftProblems(db, floor, draft);
      if (!INITIAL_PERMIT_STATUSES.includes(draft.status)) problems.status = PERMIT_MESSAGES.initialStatus;
      if (Object.keys(problems).length > 0) throw unprocessable(problems);
      if (await nameTaken(db, PERMITS, floor.siteId, draft.number)) throw duplicate();
      const [row] = await duplicateAsConflict(PERMITS, () =>
        db
          .insert(workPermits)
          .values({
            siteId: floor.siteId,
            floorId: floor.id,
            createdBy: principal.id,
            ...storedValues(draft),
          })
          .returning(),
      );
      const [permit] = await selectPermits(db, floor, eq(workPermits.id, row.id));
      return ok(permit, messages.created('Permit'));
    },
  );

  app.post(
    `${base}/:permitId`,
    {
      preValidation: allow('installation', 'write'),
      schema: {
        params: PermitPathParamsSchema,
        body: WorkPermitEditBodySchema,
        response: { 200: PermitReply },
      },
    },
    async (request) => {
      const floor = await requirePermitFloor(db, principalOf(request), request.params);
      const permit = await requirePermit(db, floor.id, request.params.permitId);
      const body = request.body;
      const from = permit.status as PermitStatus;
      if (from === 'closed') throw unprocessable({ status: PERMIT_MESSAGES.closed });
      const draft: PermitDraft = {
        number:
          body.number === undefined ? permit.number : requiredName(body.number, 'number', 'Permit number'),
        type: body.type ?? (permit.type as PermitType),
        area: (body.area as LongLat[] | undefined) ?? permit.area,
        // A holder sent replaces the other: sending a crew clears the subcontractor.
        holderCrewId:
          body.holder_crew_id !== undefined || body.holder_subcontractor_id !== undefined
            ? (body.holder_crew_id ?? null)
            : permit.holderCrewId,
        holderSubcontractorId:
          body.holder_crew_id !== undefined || body.holder_subcontractor_id !== undefined
            ? (body.holder_subcontractor_id ?? null)
            : permit.holderSubcontractorId,
        validFrom: body.valid_from ?? permit.validFrom.toISOString(),
        validTo: body.valid_to ?? permit.validTo.toISOString(),
        status: body.status ?? from,
      };
      const problems = await draftProblems(db, floor, draft);
      if (!canChangeStatus(from, draft.status)) problems.status = PERMIT_MESSAGES.statusChange;
      if (Object.keys(problems).length > 0) throw unprocessable(problems);
      if (await nameTaken(db, PERMITS, floor.siteId, draft.number, permit.id)) throw duplicate();
      // The status guard makes a concurrent change (closed meanwhile) lose instead of overwrite.
      const [row] = await duplicateAsConflict(PERMITS, () =>
        db
          .update(workPermits)
          .set({ ...storedValues(draft), updatedAt: new Date() })
          .where(and(eq(workPermits.id, permit.id), eq(workPermits.status, from)))
          .returning({ id: workPermits.id }),
      );
      if (!row) throw unprocessable({ status: PERMIT_MESSAGES.statusChange });
      const [updated] = await selectPermits(db, floor, eq(workPermits.id, row.id));
      return ok(updated, PERMIT_MESSAGES.updated);
    },
  );

  app.delete(
    `${base}/:permitId`,
    { preValidation: allow('installation', 'write'), schema: { params: PermitPathParamsSchema } },
    async (request) => {
      const floor = await requirePermitFloor(db, principalOf(request), request.params);
      const permit = await requirePermit(db, floor.id, request.params.permitId);
      await db.delete(workPermits).where(eq(workPermits.id, permit.id));
      return done(messages.deleted('Permit'));
    },
  );
};
