import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq, sql } from 'drizzle-orm';
import { type GridAxes, type GridField, gridAxesProblems } from '../../src/domain/gridFields';
import { messages } from '../../src/domain/messages';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { GridFieldBodySchema, GridFieldSchema } from '../../src/domain/schemas/workPermits';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { uniqueViolation } from '../db/errors';
import { gridFields } from '../db/schema';
import { requireFloor } from '../floors/floorAccess';
import { ok } from '../http/envelope';
import { conflict, notFound, unprocessable } from '../http/errors';
import { requiredName } from '../http/input';
import type { Services } from '../services';
import { cornersOf } from './permitAccess';

type GridFieldRow = typeof gridFields.$inferSelect;

const GridFieldReply = successOf(GridFieldSchema);
const duplicate = () => conflict(messages.duplicateName('Grid field'));

function toGridField(row: GridFieldRow): GridField {
  return {
    id: row.id,
    floor_id: row.floorId,
    name: row.name,
    axes: row.axes as unknown as GridAxes,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/** Labels trimmed, offsets as sent: what is stored. */
function storedAxes(axes: GridAxes): GridAxes {
  const trimmed = (lines: GridAxes['columns']) =>
    lines.map((line) => ({ label: line.label.trim(), offset_m: line.offset_m }));
  return { columns: trimmed(axes.columns), rows: trimmed(axes.rows) };
}

/**
 * Grid fields (spec §7 "Work permits and grid"; docs/decisions.md "Grid fields"): a floor's
 * structural grid, so places and permits can be named "C-4". Roles: the `installation` row of
 * DESIGN §4; a floor or grid field of a site the caller cannot see is 404.
 */
export const gridFieldRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.post(
    '/gridFields',
    {
      preValidation: allow('installation', 'write'),
      schema: { body: GridFieldBodySchema, response: { 200: GridFieldReply } },
    },
    async (request) => {
      const floor = await requireFloor(db, principalOf(request), request.body.floor_id);
      const name = requiredName(request.body.name);
      const axes = storedAxes(request.body.axes);
      const problems = gridAxesProblems(axes, cornersOf(floor));
      if (Object.keys(problems).length > 0) throw unprocessable(problems);
      const [taken] = await db
        .select({ id: gridFields.id })
        .from(gridFields)
        .where(and(eq(gridFields.floorId, floor.id), sql`lower(${gridFields.name}) = lower(${name})`))
        .limit(1);
      if (taken) throw duplicate();
      try {
        const [row] = await db
          .insert(gridFields)
          .values({ floorId: floor.id, name, axes: axes as unknown as Record<string, unknown> })
          .returning();
        return ok(toGridField(row), messages.created('Grid field'));
      } catch (error) {
        if (uniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
  );

  app.get(
    '/gridFields/:id',
    {
      preValidation: allow('installation', 'open'),
      schema: { params: IdParamsSchema, response: { 200: GridFieldReply } },
    },
    async (request) => {
      const [row] = await db.select().from(gridFields).where(eq(gridFields.id, request.params.id)).limit(1);
      if (!row) throw notFound('Grid field');
      // A grid field of a floor the caller cannot see is as missing as one that does not exist.
      await requireFloor(db, principalOf(request), row.floorId).catch(() => {
        throw notFound('Grid field');
      });
      return ok(toGridField(row));
    },
  );
};
