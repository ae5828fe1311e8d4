import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { mergeRadioSettings, radioSettingsProblems } from '../../src/domain/radioSettings';
import {
  installationMessages,
  RadioSettingsBodySchema,
  RadioSettingsReply,
} from '../../src/domain/schemas/installation';
import { IdParamsSchema } from '../../src/domain/schemas/sites';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { siteRadioSettings } from '../db/schema';
import { ok } from '../http/envelope';
import { unprocessable } from '../http/errors';
import type { Services } from '../services';
import { loadRadioSettings } from './radioSettingsStore';

/**
 * GET/PUT /api/sites/{id}/radio-settings: the radio model of the site's coverage simulation and
 * the evidence its anchor approvals check (the defaults until someone sets them). Ranges are
 * checked by src/domain, so a bad value is a 422 naming its range.
 */
export const radioSettingsRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { db }) => {
  app.get(
    '/sites/:id/radio-settings',
    {
      preValidation: allow('installation', 'open'),
      schema: { params: IdParamsSchema, response: { 200: RadioSettingsReply } },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.id);
      return ok(await loadRadioSettings(db, site.id));
    },
  );

  app.put(
    '/sites/:id/radio-settings',
    {
      preValidation: allow('installation', 'write'),
      schema: {
        params: IdParamsSchema,
        body: RadioSettingsBodySchema,
        response: { 200: RadioSettingsReply },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const site = await requireSite(db, principal, request.params.id);
      const settings = mergeRadioSettings(await loadRadioSettings(db, site.id), request.body);
      const problems = radioSettingsProblems(settings);
      if (Object.keys(problems).length > 0) throw unprocessable(problems);
      const stored = { model: settings.model, approval: settings.approval };
      await db
        .insert(siteRadioSettings)
        .values({ siteId: site.id, settings: stored, updatedBy: principal.id })
        .onConflictDoUpdate({
          target: siteRadioSettings.siteId,
          set: { settings: stored, updatedBy: principal.id, updatedAt: sql`now()` },
        });
      return ok(settings, installationMessages.radioSettingsSaved);
    },
  );
};
