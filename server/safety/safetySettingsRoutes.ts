import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ESCALATION_MESSAGES,
  type SafetySettings,
  validateSafetySettings,
} from '../../src/domain/escalation';
import { IdSchema } from '../../src/domain/schemas/sites';
import { SafeString } from '../../src/domain/text';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { ok } from '../http/envelope';
import { unprocessable } from '../http/errors';
import type { SafetyServices } from './safetyServices';
import { readSafetySettings, writeSafetySettings } from './safetySettings';

const SiteParamsSchema = Type.Object({ siteId: IdSchema });

/**
 * The body's shape only: the values (ranges, level numbers, addresses) are checked by
 * src/domain/escalation.ts, so a bad one is a 422 with a message per field, as the dialog shows it.
 */
const SettingsBodySchema = Type.Object({
  possiblyInsideHours: Type.Union([Type.Number(), Type.Null()]),
  escalationLevels: Type.Array(
    Type.Object({
      level: Type.Integer(),
      afterMinutes: Type.Number(),
      contacts: SafeString({ maxLength: 20 }),
      recipients: Type.Array(SafeString({ maxLength: 320 }), { maxItems: 100 }),
    }),
    { maxItems: 20 },
  ),
});

/**
 * GET/PUT /api/safety/sites/{siteId}/settings: whoever reads safety reads them; the site's
 * admins (the configuration area) change them.
 */
export const safetySettingsRoutes: FastifyPluginAsyncTypebox<SafetyServices> = async (app, { db }) => {
  app.get(
    '/api/safety/sites/:siteId/settings',
    { preValidation: allow('safety', 'open'), schema: { params: SiteParamsSchema } },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.siteId);
      return ok(await readSafetySettings(db, site.id));
    },
  );

  app.put(
    '/api/safety/sites/:siteId/settings',
    {
      preValidation: allow('configuration', 'write'),
      schema: { params: SiteParamsSchema, body: SettingsBodySchema },
    },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.siteId);
      const settings = request.body as SafetySettings;
      const errors = validateSafetySettings(settings);
      if (Object.keys(errors).length > 0) throw unprocessable(errors);
      await writeSafetySettings(db, site.id, settings);
      return ok(await readSafetySettings(db, site.id), ESCALATION_MESSAGES.settingsSaved);
    },
  );
};
