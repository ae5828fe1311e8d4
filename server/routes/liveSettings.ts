import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { successOf } from '../../src/domain/schemas/sites';
import { ok } from '../http/envelope';
import type { Services } from '../services';

/** Where the console opens the live socket: `${location.protocol}//${location.hostname}:${safetyPort}`. */
export const LiveSettingsSchema = Type.Object({
  safetyPort: Type.Integer({ minimum: 0, maximum: 65535 }),
});
export type LiveSettings = Static<typeof LiveSettingsSchema>;

const LiveSettingsReply = successOf(LiveSettingsSchema);

/** Public: the console asks before it signs in, and the port is no secret. */
export const liveSettingsRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { config }) => {
  app.get('/live-settings', { schema: { response: { 200: LiveSettingsReply } } }, async () =>
    ok<LiveSettings>({ safetyPort: config.safetyPort }),
  );
};
