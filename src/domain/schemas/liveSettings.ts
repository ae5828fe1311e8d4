import { type Static, Type } from 'typebox';

/**
 * GET /api/live-settings (public): where the console opens the live socket
 * (`${location.protocol}//${location.hostname}:${safetyPort}`), and the MQTT topic root shown
 * next to a new device token.
 */
export const LiveSettingsSchema = Type.Object({
  safetyPort: Type.Integer({ minimum: 1, maximum: 65_535 }),
  /** Older servers leave it out; the console then shows the default root. */
  mqttTopicRoot: Type.Optional(Type.String({ minLength: 1 })),
});
export type LiveSettings = Static<typeof LiveSettingsSchema>;
