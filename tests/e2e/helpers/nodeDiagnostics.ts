import { and, count, eq, inArray, max } from 'drizzle-orm';
import type mqtt from 'mqtt';
import { inventoryItems, nodeDiagnostics } from '../../../server/db/schema';
import { displacementMetres } from '../../../src/domain/geo';
import { topicFor } from '../../../src/domain/live';
import type { E2eServer } from './e2eServer';

/**
 * The demo site's anchors and sinks reporting through the real MQTT ingest, as a gateway would:
 * every node healthy, except five with one kind of trouble each (and the moved anchor with a
 * second, so it is the worst), for the Nodes and Maintenance screens' tests. Every node but the
 * silent one reports again every REPORT_EVERY_MS, as it would, so none falls silent mid-test.
 */

const REPORT_EVERY_MS = 30_000;
/** One metre of latitude, in degrees (Earth radius 6371 km, spec §9). */
const DEGREES_PER_METRE = 180 / (Math.PI * 6_371_000);

export interface SeededNode {
  id: number;
  nodeId: string;
  type: 'anchor' | 'sink';
  floorId: number;
}

export interface SeededNodes {
  all: SeededNode[];
  /** Battery draining 0.06 V a day over the last three days, now 3.40 V: a warning for the last 20 h, with a forecast. */
  lowBattery: SeededNode;
  /** 1.2 m from where it was placed (bad) with a 45 link (warning): the worst of all. */
  moved: SeededNode;
  /** Link quality 25: bad. */
  weakLink: SeededNode;
  /** A sink whose buffer is 90 % full: bad. */
  bufferFilling: SeededNode;
  /** Last heard 20 minutes ago: bad. */
  silent: SeededNode;
  /** Metres the moved anchor stands from its place. */
  movedMetres: number;
  /** Stops the reports that keep every node but the silent one fresh. */
  stop(): void;
}

interface Reading {
  ts: number;
  battery?: number;
  link?: number;
  buffer?: number;
  /** Metres north of where the node was placed. */
  offsetM?: number;
}

export async function seedNodeDiagnostics(
  server: E2eServer,
  publisher: mqtt.MqttClient,
): Promise<SeededNodes> {
  const { db, siteId } = server;
  const items = await db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.siteId, siteId), inArray(inventoryItems.type, ['anchor', 'sink'])))
    .orderBy(inventoryItems.id);
  const placed = items.filter((item) => item.floorId !== null && item.lat !== null && item.long !== null);
  const anchors = placed.filter((item) => item.type === 'anchor');
  const sinks = placed.filter((item) => item.type === 'sink');
  const asSeeded = (item: (typeof items)[number]): SeededNode => ({
    id: item.id,
    nodeId: item.wntInventoryId,
    type: item.type as 'anchor' | 'sink',
    floorId: item.floorId as number,
  });
  const storedRows = async () =>
    (await db.select({ n: count() }).from(nodeDiagnostics).where(eq(nodeDiagnostics.siteId, siteId)))[0].n;
  const [{ newest }] = await db
    .select({ newest: max(nodeDiagnostics.ts) })
    .from(nodeDiagnostics)
    .where(eq(nodeDiagnostics.siteId, siteId));
  // These readings must be each node's latest: the demo's own reports (stamped when it was seeded,
  // moments ago) must not be newer than "5 s ago", or they, not these, would set the nodes' health.
  const newestMs = newest ? new Date(newest).getTime() : 0;
  const wait = newestMs - (Date.now() - 6_000);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const before = await storedRows();
  const now = Date.now();
  const reportedAtMs = now - 5_000;
  const trouble = {
    lowBattery: anchors[1],
    moved: anchors[2],
    weakLink: anchors[3],
    silent: anchors[4],
    bufferFilling: sinks[0],
  };
  const movedMetres = 1.2;
  const readingsOf = (item: (typeof items)[number]): Reading[] => {
    switch (item) {
      case trouble.lowBattery:
        // Every two minutes (never long enough to be silent) over the last three days, 0.06 V a
        // day down to 3.40 V now.
        return Array.from({ length: 3 * 24 * 30 + 1 }, (_, k) => {
          const minutesAgo = (3 * 24 * 30 - k) * 2;
          return { ts: reportedAtMs - minutesAgo * 60_000, battery: 3.4 + (0.06 * minutesAgo) / 1440 };
        });
      case trouble.moved:
        return [{ ts: reportedAtMs, offsetM: movedMetres, link: 45 }];
      case trouble.weakLink:
        return [{ ts: reportedAtMs, link: 25 }];
      case trouble.silent:
        return [{ ts: now - 20 * 60_000 }];
      case trouble.bufferFilling:
        return [{ ts: reportedAtMs, buffer: 90 }];
      default:
        return [{ ts: reportedAtMs }];
    }
  };

  const message = (item: (typeof items)[number], reading: Reading) => ({
    networkId: item.networkId ?? 1,
    nodeId: item.wntInventoryId,
    type: item.type,
    bufferUsage: reading.buffer ?? 12,
    linkQuality: reading.link ?? 85,
    batteryVoltage: Number((reading.battery ?? (item.type === 'sink' ? 5 : 3.9)).toFixed(3)),
    displacementError: 0,
    ts: new Date(reading.ts).toISOString(),
    lat: (item.lat ?? 0) + (reading.offsetM ?? 0) * DEGREES_PER_METRE,
    long: item.long ?? 0,
    neighbors: [],
  });
  const messages = items.flatMap((item) => readingsOf(item).map((reading) => message(item, reading)));
  const topic = topicFor(siteId, 'nodes', server.topicRoot);
  const publish = async (batch: readonly object[]) => {
    for (let first = 0; first < batch.length; first += 200) {
      await publisher.publishAsync(topic, JSON.stringify(batch.slice(first, first + 200)), { qos: 1 });
    }
  };
  await publish(messages);
  const stored = async () => (await storedRows()) - before;
  for (const deadline = Date.now() + 30_000; (await stored()) < messages.length; ) {
    if (Date.now() > deadline)
      throw new Error(`only ${await stored()} of ${messages.length} node reports were stored`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // Each node's latest report again, stamped now.
  const timer = setInterval(() => {
    const ts = Date.now();
    const fresh = items
      .filter((item) => item !== trouble.silent)
      .map((item) => message(item, { ...(readingsOf(item).at(-1) as Reading), ts }));
    publish(fresh).catch(() => {});
  }, REPORT_EVERY_MS);
  const moved = trouble.moved;
  const measured = displacementMetres(
    { lat: moved.lat as number, long: moved.long as number },
    { lat: (moved.lat as number) + movedMetres * DEGREES_PER_METRE, long: moved.long as number },
  );
  return {
    all: items.map(asSeeded),
    lowBattery: asSeeded(trouble.lowBattery),
    moved: asSeeded(trouble.moved),
    weakLink: asSeeded(trouble.weakLink),
    bufferFilling: asSeeded(trouble.bufferFilling),
    silent: asSeeded(trouble.silent),
    movedMetres: measured,
    stop: () => clearInterval(timer),
  };
}
