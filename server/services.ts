import type { Config } from './config';
import type { Db } from './db/database';
import type { LivePublisher } from './live/liveChanges';
import type { DeviceSessions } from './mqtt/deviceSessions';

/** What route plugins are given: the database and the configuration, nothing global. */
export interface Services {
  db: Db;
  config: Config;
  /** Where committed helmet changes go (the socket fan-out); absent in API-only set-ups. */
  publisher?: LivePublisher;
  /** The devices connected to the embedded broker, so revoking a token disconnects them at once. */
  deviceSessions?: DeviceSessions;
}
