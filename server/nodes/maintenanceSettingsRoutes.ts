import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { MAINTENANCE_MESSAGES, validateMaintenanceSettings } from '../../src/domain/maintenanceSettings';
import { MaintenanceSettingsSchema } from '../../src/domain/schemas/nodes';
import { IdParamsSchema, successOf } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { siteMaintenanceSettings } from '../db/schema';
import { ok } from '../http/envelope';
import { unprocessable } from '../http/errors';
import type { Services } from '../services';
import { anchorMovedThreshold } from './movedThreshold';

/**
 * The body's shape only: the threshold's range is checked by src/domain/maintenanceSettings.ts,
 * so a bad value is a 422 naming the range, as the settings card shows it.
 */
const SettingsBodySchema = Type.Object({ anchorMovedThresholdMetres: Type.Number() });
const SettingsReply = { 200: successOf(MaintenanceSettingsSchema) };

/**
 * GET/PUT /api/sites/{id}/maintenance-settings: the site's anchor-moved threshold (the default
 * until someone sets one). Whoever opens the maintenance area reads it; its writers change it,
 * and the node ingest judges the next reports with the new value.
 */
export const maintenanceSettingsRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/sites/:id/maintenance-settings',
    {
      preValidation: allow('maintenance', 'open'),
      schema: { params: IdParamsSchema, response: SettingsReply },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      return ok({ anchorMovedThresholdMetres: await anchorMovedThreshold(db, site.id) });
    },
  );

  app.put(
    '/sites/:id/maintenance-settings',
    {
      preValidation: allow('maintenance', 'write'),
      schema: { params: IdParamsSchema, body: SettingsBodySchema, response: SettingsReply },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const settings = { anchorMovedThresholdMetres: request.body.anchorMovedThresholdMetres };
      const errors = validateMaintenanceSettings(settings);
      if (Object.keys(errors).length > 0) throw unprocessable(errors);
      await db
        .insert(siteMaintenanceSettings)
        .values({
          siteId: site.id,
          anchorMovedThresholdM: settings.anchorMovedThresholdMetres,
          updatedBy: principal.id,
        })
        .onConflictDoUpdate({
          target: siteMaintenanceSettings.siteId,
          set: {
            anchorMovedThresholdM: settings.anchorMovedThresholdMetres,
            updatedBy: principal.id,
            updatedAt: sql`now()`,
          },
        });
      return ok(settings, MAINTENANCE_MESSAGES.saved);
    },
  );
};
