import { randomBytes } from 'node:crypto';
import type { Db } from '../../../server/db/database';
import { authenticateDevice, createDeviceToken } from '../../../server/mqtt/deviceCredentials';
import { createDeviceSessions, type DeviceSessions } from '../../../server/mqtt/deviceSessions';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../../server/mqtt/embeddedBroker';
import type { DeviceLogin } from '../../../server/simulator/simulatorToken';

export interface TestBroker {
  url: string;
  /** A topic root of this test alone, so test files sharing one broker never hear each other. */
  topicRoot: string;
  /**
   * Full access, for the test's MQTT ingest and listeners: the embedded broker's internal login
   * (random per broker); an anonymous Mosquitto ignores it.
   */
  internalLogin: DeviceLogin;
  /** The embedded broker's device connections by token (revocation); unused on Mosquitto. */
  deviceSessions: DeviceSessions;
  /** The database device tokens are checked against; the first test helper given one sets it. */
  bindDatabase(db: Db): void;
  /** A new device token of the site, as a gateway's MQTT login. */
  deviceLogin(siteId: number): Promise<DeviceLogin>;
  close(): Promise<void>;
}

/**
 * The Mosquitto server of TEST_MQTT_URL when set, otherwise an embedded broker on a free port that
 * authenticates devices as the server's does (against the test's database), without the in-process
 * ingest: tests run the MQTT ingest of an external broker against it.
 */
export async function startTestBroker(db?: Db): Promise<TestBroker> {
  const topicRoot = `sw-test-${randomBytes(6).toString('hex')}`;
  const internalLogin = {
    username: `sitewatch-internal-${topicRoot}`,
    password: randomBytes(16).toString('hex'),
  };
  const deviceSessions = createDeviceSessions();
  let database = db;
  const bindDatabase = (next: Db) => {
    database ??= next;
  };
  const deviceLogin = async (siteId: number) => {
    if (!database) throw new Error('the test broker has no database: pass it to startTestBroker');
    const { row, token } = await createDeviceToken(database, {
      siteId,
      label: 'Test gateway',
      createdBy: null,
    });
    return { username: String(row.id), password: token };
  };
  const external = process.env.TEST_MQTT_URL;
  if (external)
    return {
      url: external,
      topicRoot,
      internalLogin,
      deviceSessions,
      bindDatabase,
      deviceLogin,
      close: async () => {},
    };
  const broker: EmbeddedBroker = await startEmbeddedBroker({
    port: 0,
    host: '127.0.0.1',
    topicRoot,
    sessions: deviceSessions,
    internal: internalLogin,
    authenticateDevice: async (username, password) =>
      database ? authenticateDevice(database, username, password) : null,
  });
  return {
    url: broker.url,
    topicRoot,
    internalLogin,
    deviceSessions,
    bindDatabase,
    deviceLogin,
    close: () => broker.close(),
  };
}
