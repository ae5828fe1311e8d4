import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { successOf } from '../../src/domain/schemas/sites';
import { ok } from '../http/envelope';
import type { Services } from '../services';

/**
 * Where the console opens the live socket (`${location.protocol}//${location.hostname}:${safetyPort}`),
 * and the topic root it shows next to a new device token.
 */
export const LiveSettingsSchema = Type.Object({
  safetyPort: Type.Integer({ minimum: 0, maximum: 65535 }),
  mqttTopicRoot: Type.String(),
});
export type LiveSettings = Static<typeof LiveSettingsSchema>;

const LiveSettingsReply = successOf(LiveSettingsSchema);

/** Public: the console asks before it signs in, and neither the port nor the topic root is a secret. */
export const liveSettingsRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { config }) => {
  app.get('/live-settings', { schema: { response: { 200: LiveSettingsReply } } }, async () =>
    ok<LiveSettings>({ safetyPort: config.safetyPort, mqttTopicRoot: config.mqttTopicRoot }),
  );
};
