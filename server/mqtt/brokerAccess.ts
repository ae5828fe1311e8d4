import { timingSafeEqual } from 'node:crypto';
import type { AedesOptions, AuthenticateError, Client } from 'aedes';
import { parseTopic } from '../../src/domain/live';
import type { IngestVerdict } from '../ingest/messagePipeline';
import type { DeviceIdentity } from './deviceCredentials';
import type { DeviceSessions } from './deviceSessions';
import { devicePublishAllowed, deviceSubscribeAllowed } from './topicAccess';

/** A login the broker gives full access to (tests' MQTT ingest and listeners); random per start. */
export interface InternalCredentials {
  username: string;
  password: string;
}

/** The device logging in with a user name and password, or null; see deviceCredentials.ts. */
export type DeviceAuthenticator = (
  username: string | undefined,
  password: Buffer | undefined,
) => Promise<DeviceIdentity | null>;

export interface BrokerAccessOptions {
  authenticateDevice: DeviceAuthenticator;
  topicRoot: string;
  sessions: DeviceSessions;
  /** Client ids no device may take (the MQTT ingest's, MQTT_CLIENT_ID). */
  reservedClientIds?: readonly string[];
  internal?: InternalCredentials;
  /**
   * Stores a message published to `{root}/{site}/positions|nodes|events` before the broker
   * acknowledges it (QoS 1 PUBACK); 'redeliver' drops the device's connection unacknowledged.
   */
  ingest?: (topic: string, payload: Buffer) => Promise<IngestVerdict>;
  onRedelivery?: () => void;
  /** Everyone gets in with full access: the benchmark's baseline only, never reachable from config. */
  unauthenticatedForBenchmark?: boolean;
}

type AccessHooks = Required<Pick<AedesOptions, 'authenticate' | 'authorizePublish' | 'authorizeSubscribe'>>;

const INTERNAL = 'internal' as const;
type Identity = DeviceIdentity | typeof INTERNAL;

/** CONNACK return codes of MQTT 3.1.1. */
const IDENTIFIER_REJECTED = 2;
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;

function refusal(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

function sameSecret(given: Buffer | undefined, expected: string): boolean {
  if (!given) return false;
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Devices are strangers until they authenticate (DESIGN §1): a device logs in with one of its
 * site's device tokens (username: the token's id, password: the token), may publish only to its
 * site's positions, nodes and events, and subscribe only to its site's commands. What it publishes
 * there is stored before the broker acknowledges it.
 */
export function brokerAccessHooks(options: BrokerAccessOptions): AccessHooks {
  const { topicRoot: root, sessions } = options;
  const identities = new WeakMap<Client, Identity>();
  const reserved = new Set(options.reservedClientIds ?? []);
  // Which client ids are connected, and as whom, to refuse one site's device taking another's id.
  const connectedAs = new Map<string, { client: Client; identity: Identity }>();

  const remember = (client: Client, identity: Identity) => {
    const session = { close: () => client.close() };
    if (identity !== INTERNAL && !sessions.register(identity.tokenId, session)) return false;
    identities.set(client, identity);
    connectedAs.set(client.id, { client, identity });
    client.conn.once('close', () => {
      if (connectedAs.get(client.id)?.client === client) connectedAs.delete(client.id);
      if (identity !== INTERNAL) sessions.unregister(identity.tokenId, session);
    });
    return true;
  };

  const mayTakeClientId = (clientId: string, identity: Identity) => {
    const holder = connectedAs.get(clientId)?.identity;
    if (!holder) return true;
    if (holder === INTERNAL || identity === INTERNAL) return holder === identity;
    return holder.siteId === identity.siteId;
  };

  return {
    authenticate(client, username, password, callback) {
      if (options.unauthenticatedForBenchmark) {
        identities.set(client, INTERNAL);
        return callback(null, true);
      }
      const internal = options.internal;
      if (internal && username === internal.username) {
        if (!sameSecret(password, internal.password))
          return callback(refusal('Bad user name or password', BAD_USERNAME_OR_PASSWORD), false);
        if (!mayTakeClientId(client.id, INTERNAL))
          return callback(refusal('Client id in use', IDENTIFIER_REJECTED), false);
        remember(client, INTERNAL);
        return callback(null, true);
      }
      if (reserved.has(client.id)) return callback(refusal('Client id reserved', IDENTIFIER_REJECTED), false);
      options.authenticateDevice(username, password).then(
        (identity) => {
          if (!identity)
            return callback(refusal('Bad user name or password', BAD_USERNAME_OR_PASSWORD), false);
          if (!mayTakeClientId(client.id, identity))
            return callback(refusal('Client id in use', IDENTIFIER_REJECTED), false);
          if (!remember(client, identity))
            return callback(refusal('Bad user name or password', BAD_USERNAME_OR_PASSWORD), false);
          callback(null, true);
        },
        (error: unknown) => {
          // The database is down. A CONNACK refusal (even "server unavailable") makes MQTT.js and
          // many gateways stop reconnecting for good, so the connection is dropped unanswered
          // instead: the device reconnects by itself, as after any network failure. Closing the
          // client first makes aedes skip its CONNACK.
          client.close();
          callback(refusal(`Authentication failed: ${String(error)}`, SERVER_UNAVAILABLE), false);
        },
      );
    },

    authorizePublish(client, packet, callback) {
      const identity = client ? identities.get(client) : undefined;
      const allowed =
        identity === INTERNAL
          ? !packet.topic.startsWith('$SYS')
          : identity !== undefined && devicePublishAllowed(packet.topic, root, identity.siteId);
      if (!allowed) return callback(new Error(`Not authorised to publish to ${packet.topic}`));
      const ingest = options.ingest;
      if (!ingest || !parseTopic(packet.topic, root)) return callback(null);
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      ingest(packet.topic, payload).then((verdict) => {
        if (verdict === 'ack') return callback(null);
        // No PUBACK: the connection drops and the device sends the message again.
        options.onRedelivery?.();
        callback(new Error('Not stored: send again'));
      });
    },

    authorizeSubscribe(client, subscription, callback) {
      const identity = identities.get(client);
      const allowed =
        identity === INTERNAL ||
        (identity !== undefined && deviceSubscribeAllowed(subscription.topic, root, identity.siteId));
      // A null subscription is refused with return code 128 in the SUBACK; the client stays connected.
      callback(null, allowed ? subscription : null);
    },
  };
}
