import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ExtendAreaRequestSchema,
  MarkRequestSchema,
  RedirectRequestSchema,
  RollPersonRequestSchema,
  UnmarkRequestSchema,
} from '../../src/domain/schemas/musterRequests';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { ok } from '../http/envelope';
import { unprocessable } from '../http/errors';
import type { SafetyServices } from './safetyServices';

const WHO_TO_MARK = 'Choose a worker or a person on the roll to mark';

/**
 * The marshal's calls during a running evacuation (docs/api.md "Muster"): roll-call marks, people
 * without a helmet, phased evacuation and redirects. Each answers once the change is committed and
 * sent to the wall screens; refusals are 403 (role), 404 (site, floor, zone), 409 (no such running
 * evacuation, mark already undone) and 422 (bad reason, name, zones).
 */
export const musterRoutes: FastifyPluginAsyncTypebox<SafetyServices> = async (app, { evacuation }) => {
  app.post(
    '/api/safety/evacuation/mark',
    { preValidation: allow('evacuation', 'write'), schema: { body: MarkRequestSchema } },
    async (request) => {
      const { workerId, rollPersonId, ...rest } = request.body;
      if ((workerId === undefined) === (rollPersonId === undefined))
        throw unprocessable({ workerId: WHO_TO_MARK }, WHO_TO_MARK);
      const subject = workerId !== undefined ? { workerId } : { rollPersonId: rollPersonId as number };
      await evacuation.mark(principalOf(request), { ...rest, subject });
      return ok(null);
    },
  );

  app.post(
    '/api/safety/evacuation/unmark',
    { preValidation: allow('evacuation', 'write'), schema: { body: UnmarkRequestSchema } },
    async (request) => {
      await evacuation.unmark(principalOf(request), request.body);
      return ok(null);
    },
  );

  app.post(
    '/api/safety/evacuation/roll',
    { preValidation: allow('evacuation', 'write'), schema: { body: RollPersonRequestSchema } },
    async (request) => {
      const body = request.body;
      return ok(
        await evacuation.addRollPerson(principalOf(request), {
          ...body,
          company: body.company ?? '',
          reason: body.reason ?? null,
        }),
      );
    },
  );

  app.post(
    '/api/safety/evacuation/area',
    { preValidation: allow('evacuation', 'write'), schema: { body: ExtendAreaRequestSchema } },
    async (request) =>
      ok(
        await evacuation.extendArea(principalOf(request), {
          ...request.body,
          floorIds: request.body.floorIds ?? [],
          zoneIds: request.body.zoneIds ?? [],
        }),
      ),
  );

  app.post(
    '/api/safety/evacuation/redirect',
    { preValidation: allow('evacuation', 'write'), schema: { body: RedirectRequestSchema } },
    async (request) => ok(await evacuation.redirect(principalOf(request), request.body)),
  );
};
