import { randomBytes } from 'node:crypto';
import { connectAsync, type MqttClient } from 'mqtt';
import type { FloorCorners } from '../../src/domain/floor';
import { type PositionMessage, topicFor } from '../../src/domain/live';
import { type Random, seededRandom } from '../../src/domain/seededRandom';
import type { DeviceLogin } from './simulatorToken';

export interface LoadHelmet {
  tag: string;
  floorId: number;
  corners: FloorCorners;
}

export interface LoadGeneratorOptions {
  brokerUrl: string;
  /** A device token of the site; none for a broker without authentication. */
  login?: DeviceLogin;
  topicRoot: string;
  siteId: number;
  helmets: readonly LoadHelmet[];
  /** Positions per helmet per second. */
  hz: number;
  /** Positions per message at most; about a thousand, as a busy gateway batches them. */
  batchSize?: number;
  /** MQTT connections, each a gateway publishing its share of the batches. */
  gateways?: number;
  clock?: () => Date;
  seed?: number;
}

export interface LoadStats {
  /** Positions the broker acknowledged (QoS 1). */
  published: number;
  /** Messages the broker acknowledged. */
  messages: number;
  /** Positions whose message failed. */
  failed: number;
  /** Positions not sent because their gateway still had too many messages in flight. */
  skipped: number;
}

export interface LoadGenerator {
  stats(): LoadStats;
  close(): Promise<void>;
}

export const DEFAULT_BATCH_SIZE = 1000;
const DEFAULT_GATEWAYS = 4;
/** How far a helmet moves per position, as a share of the floor's width or height. */
const STEP = 0.004;

/** A point of the floor's corner quadrilateral at (u, v) of the unit square: inside it for u, v in [0, 1]. */
function pointOf(corners: FloorCorners, u: number, v: number) {
  const { a, b, c, d } = corners;
  const top = { lat: a.lat + (b.lat - a.lat) * u, long: a.long + (b.long - a.long) * u };
  const bottom = { lat: d.lat + (c.lat - d.lat) * u, long: d.long + (c.long - d.long) * u };
  return { lat: top.lat + (bottom.lat - top.lat) * v, long: top.long + (bottom.long - top.long) * v };
}

const clamp = (value: number) => Math.min(0.999, Math.max(0.001, value));

/**
 * Load for benchmarks and `npm run simulate`: N helmets wandering over their floors, each
 * publishing `hz` positions a second, batched into arrays of up to `batchSize` positions split
 * over several gateway connections. A gateway with too many unacknowledged messages skips a
 * round (counted) rather than queueing without bound.
 */
export async function startLoadGenerator(options: LoadGeneratorOptions): Promise<LoadGenerator> {
  if (!(options.hz > 0) || options.hz > 100) throw new RangeError('hz must be above 0 and at most 100');
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const clock = options.clock ?? (() => new Date());
  const random: Random = seededRandom(options.seed ?? randomBytes(4).readUInt32LE());
  const topic = topicFor(options.siteId, 'positions', options.topicRoot);
  const walkers = options.helmets.map((helmet) => ({ helmet, u: random(), v: random() }));
  const batches: (typeof walkers)[] = [];
  for (let start = 0; start < walkers.length; start += batchSize)
    batches.push(walkers.slice(start, start + batchSize));

  const gatewayCount = Math.max(1, Math.min(options.gateways ?? DEFAULT_GATEWAYS, batches.length || 1));
  const suffix = randomBytes(3).toString('hex');
  const clients: MqttClient[] = await Promise.all(
    Array.from({ length: gatewayCount }, (_, index) =>
      connectAsync(options.brokerUrl, {
        clientId: `sitewatch-load-${suffix}-${index}`,
        reconnectPeriod: 1000,
        username: options.login?.username,
        password: options.login?.password,
      }),
    ),
  );
  const inFlight = clients.map(() => 0);
  const maxInFlight = 2 * Math.ceil(batches.length / gatewayCount);
  const stats: LoadStats = { published: 0, messages: 0, failed: 0, skipped: 0 };

  // Helmets are not synchronised: each batch goes out at its own moment of the period, so the
  // load arrives evenly instead of as one burst a second.
  const publishBatch = (index: number) => {
    const batch = batches[index];
    const ts = clock().toISOString();
    const gateway = index % gatewayCount;
    if (inFlight[gateway] >= maxInFlight) {
      stats.skipped += batch.length;
      return;
    }
    const message: PositionMessage[] = batch.map((walker) => {
      walker.u = clamp(walker.u + (random() - 0.5) * 2 * STEP);
      walker.v = clamp(walker.v + (random() - 0.5) * 2 * STEP);
      const { lat, long } = pointOf(walker.helmet.corners, walker.u, walker.v);
      return {
        tag: walker.helmet.tag,
        ts,
        lat,
        long,
        floorId: walker.helmet.floorId,
        online: true,
        active: true,
      };
    });
    inFlight[gateway] += 1;
    clients[gateway]
      .publishAsync(topic, JSON.stringify(message), { qos: 1 })
      .then(() => {
        stats.published += message.length;
        stats.messages += 1;
      })
      .catch(() => {
        stats.failed += message.length;
      })
      .finally(() => {
        inFlight[gateway] -= 1;
      });
  };

  let next = 0;
  const publishNext = () => {
    if (batches.length === 0) return;
    publishBatch(next);
    next = (next + 1) % batches.length;
  };
  publishNext();
  const timer = setInterval(publishNext, 1000 / options.hz / Math.max(1, batches.length));
  return {
    stats: () => ({ ...stats }),
    async close() {
      clearInterval(timer);
      await Promise.all(clients.map((client) => client.endAsync()));
    },
  };
}
