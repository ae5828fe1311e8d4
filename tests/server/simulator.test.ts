import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDemoSiteId } from '../../server/db/demoSeed';
import { buildings, floors, networks } from '../../server/db/schema';
import { startLoadGenerator } from '../../server/simulator/loadGenerator';
import type { Simulator } from '../../server/simulator/simulator';
import type { FloorCorners } from '../../src/domain/floor';
import { cornerRing } from '../../src/domain/floorValidation';
import type { NodeMessage, PositionMessage } from '../../src/domain/live';
import { containsPoint } from '../../src/domain/polygon';
import { localTime } from '../../src/domain/workshiftClock';
import {
  demoWorkingDay,
  dubaiClock,
  type Heard,
  listenToBroker,
  sleep,
  startTestSimulator,
  until,
} from './helpers/simulatorFixture';
import { startTestApp, type TestApp } from './helpers/testApp';
import { startTestBroker, type TestBroker } from './helpers/testBroker';

describe('the simulator', () => {
  let t: TestApp;
  let broker: TestBroker;
  let listener: MqttClient;
  let siteId: number;
  let timezoneDay: string;
  let siteNetworkIds: number[];
  const corners = new Map<number, FloorCorners>();
  let heard: Heard[];

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker();
    siteId = (await findDemoSiteId(t.db))!;
    siteNetworkIds = (await t.db.select().from(networks).where(eq(networks.siteId, siteId))).map((n) => n.id);
    const rows = await t.db
      .select({ floor: floors })
      .from(floors)
      .innerJoin(buildings, eq(buildings.id, floors.buildingId))
      .where(eq(buildings.siteId, siteId));
    for (const { floor: f } of rows)
      corners.set(f.id, {
        a: { lat: f.aLat, long: f.aLong },
        b: { lat: f.bLat, long: f.bLong },
        c: { lat: f.cLat, long: f.cLong },
        d: { lat: f.dLat, long: f.dLong },
      });
    timezoneDay = await demoWorkingDay(t, siteId);
    ({ heard, listener } = await listenToBroker(broker));
  });
  afterAll(async () => {
    await listener?.endAsync();
    await broker?.close();
    await t?.close();
  });

  const start = (hhmm: string) =>
    startTestSimulator(t, broker, siteId, { clock: dubaiClock(timezoneDay, hhmm), seed: 7 });
  const since = (from: number, kind: string) =>
    heard.filter((h) => h.at >= from && h.topic === `${broker.topicRoot}/${siteId}/${kind}`);

  it('publishes arrays of positions inside the floors for the workers on shift, one message per network', async () => {
    const from = Date.now();
    const simulator = await start('09:00');
    try {
      const first = await until(() => {
        const messages = since(from, 'positions');
        return messages.length >= 2 ? messages.slice(0, 2) : undefined;
      });
      const positions = first.flatMap((m) => {
        expect(Array.isArray(m.body)).toBe(true);
        return m.body as PositionMessage[];
      });
      const tags = new Set(positions.map((p) => p.tag));
      expect(tags.size).toBe(positions.length);
      // 150 on the day shift and 10 in the control room, less the odd helmet out of range.
      expect(positions.length).toBeGreaterThan(150);
      expect(positions.length).toBeLessThanOrEqual(160);
      const number = (tag: string) => Number(tag.slice(4));
      expect(positions.some((p) => number(p.tag) > 150 && number(p.tag) <= 190)).toBe(false);
      for (const p of positions) {
        expect(p.tag).toMatch(/^HLM-\d{4}$/);
        expect(p).toMatchObject({ online: true, active: true });
        expect(localTime(new Date(p.ts), 'Asia/Dubai').minutes).toBeGreaterThanOrEqual(9 * 60);
        const floor = corners.get(p.floorId);
        expect(floor, `floor ${p.floorId}`).toBeDefined();
        expect(containsPoint(cornerRing(floor!), [p.long, p.lat]), p.tag).toBe(true);
      }

      const nodes = await until(() => {
        const messages = since(from, 'nodes');
        const bodies = messages.map((m) => m.body as NodeMessage);
        return new Set(bodies.map((n) => n.nodeId)).size >= 62 ? bodies : undefined;
      });
      for (const node of nodes) {
        expect(node.nodeId).toMatch(node.type === 'anchor' ? /^ANC-\d{4}$/ : /^SNK-\d{4}$/);
        expect(siteNetworkIds).toContain(node.networkId);
        expect(node.linkQuality).toBeGreaterThan(0);
        expect(node.batteryVoltage).toBeGreaterThan(3);
      }
      // Every node but the demo's silent anchor, which reports only a few minutes every 3 hours; the
      // three mounted but unapproved anchors of North Block Level 1 report too.
      expect(new Set(nodes.map((n) => n.nodeId)).size).toBe(62);
    } finally {
      await simulator.close();
    }
  });

  it('keeps workers on a break still and inactive, while the control room works on', async () => {
    const from = Date.now();
    const simulator = await start('10:05');
    try {
      const ticks = await until(() => {
        const messages = since(from, 'positions');
        return messages.length >= 4 ? messages.slice(0, 4) : undefined;
      });
      const positions = ticks.flatMap((m) => m.body as PositionMessage[]);
      const day = positions.filter((p) => Number(p.tag.slice(4)) <= 150);
      const controlRoom = positions.filter((p) => Number(p.tag.slice(4)) > 190);
      expect(day.length).toBeGreaterThan(200);
      expect(day.every((p) => !p.active)).toBe(true);
      expect(controlRoom.length).toBeGreaterThan(10);
      expect(controlRoom.every((p) => p.active)).toBe(true);
      // Standing still: each day-shift helmet reports the same spot tick after tick.
      const spots = new Map<string, Set<string>>();
      for (const p of day)
        spots.set(p.tag, (spots.get(p.tag) ?? new Set()).add(`${p.lat},${p.long},${p.floorId}`));
      expect([...spots.values()].every((s) => s.size === 1)).toBe(true);
    } finally {
      await simulator.close();
    }
  });

  it('lets helmets go silent for a while and come back, and presses acknowledge buttons', async () => {
    const from = Date.now();
    // Ticks of 20 ms, and one chance in twenty per tick to drop out for 60–180 ticks.
    const simulator = await startTestSimulator(t, broker, siteId, {
      clock: dubaiClock(timezoneDay, '09:00'),
      seed: 11,
      tickMs: 20,
      chances: { silence: 0.05, acknowledge: 0 },
    });
    try {
      const returned = await until(() => {
        const reports = new Map<string, number[]>();
        for (const p of since(from, 'positions').flatMap((m) => m.body as PositionMessage[]))
          reports.set(p.tag, [...(reports.get(p.tag) ?? []), Date.parse(p.ts)]);
        // A helmet heard, then silent for at least 60 ticks (1.2 s), then heard again.
        const back = [...reports.values()].filter((times) =>
          times.some((time, i) => i > 0 && time - times[i - 1] >= 1200),
        );
        return back.length >= 5 ? back : undefined;
      }, 10_000);
      expect(returned.length).toBeGreaterThanOrEqual(5);
    } finally {
      await simulator.close();
    }

    const pressedFrom = Date.now();
    const pressing = await startTestSimulator(t, broker, siteId, {
      clock: dubaiClock(timezoneDay, '09:00'),
      seed: 12,
      chances: { silence: 0, acknowledge: 1 },
    });
    try {
      const events = await until(() => {
        const heardEvents = since(pressedFrom, 'events');
        return heardEvents.length >= 100 ? heardEvents : undefined;
      });
      // Each press must come from a helmet reported working in the same tick. A tick's positions
      // are published after its presses, so wait until every pressed tick's positions are in.
      const pressed = events.map(({ body }) => body as { tag: string; ts: string; type: string });
      const reported = await until(() => {
        const byTick = new Map(
          since(pressedFrom, 'positions')
            .flatMap((m) => m.body as PositionMessage[])
            .map((p) => [`${p.tag}@${p.ts}`, p]),
        );
        return pressed.every((press) => byTick.has(`${press.tag}@${press.ts}`)) ? byTick : undefined;
      });
      for (const press of pressed) {
        expect(press.type).toBe('acknowledge');
        expect(reported.get(`${press.tag}@${press.ts}`)?.active).toBe(true);
      }
    } finally {
      await pressing.close();
    }
  });

  it('stops publishing when closed', async () => {
    const simulator: Simulator = await start('09:00');
    await until(() => (heard.length > 0 ? true : undefined));
    await simulator.close();
    await sleep(200);
    const after = Date.now();
    await sleep(2500);
    expect(
      heard.filter((h) => h.at >= after && h.topic.startsWith(`${broker.topicRoot}/${siteId}/`)),
    ).toEqual([]);
  });

  it('generates load: arrays of at most the batch size, inside the floors, counted when acknowledged', async () => {
    const [floorId, floorCorners] = [...corners.entries()][0];
    const loadSite = 999_999;
    const from = Date.now();
    const generator = await startLoadGenerator({
      brokerUrl: broker.url,
      // A made-up site (no device token can be minted for it): the broker's internal login.
      login: broker.internalLogin,
      topicRoot: broker.topicRoot,
      siteId: loadSite,
      helmets: Array.from({ length: 2500 }, (_, i) => ({ tag: `SIM-${i}`, floorId, corners: floorCorners })),
      hz: 2,
      batchSize: 1000,
      gateways: 3,
    });
    await sleep(1300);
    await generator.close();
    const stats = generator.stats();
    expect(stats.published).toBeGreaterThanOrEqual(2500 * 2);
    expect(stats.failed).toBe(0);
    const messages = heard.filter(
      (h) => h.at >= from && h.topic === `${broker.topicRoot}/${loadSite}/positions`,
    );
    const sizes = messages.map((m) => (m.body as PositionMessage[]).length);
    expect(Math.max(...sizes)).toBe(1000);
    expect(sizes.slice(0, 3).sort((a, b) => b - a)).toEqual([1000, 1000, 500]);
    for (const m of messages)
      for (const p of m.body as PositionMessage[])
        expect(containsPoint(cornerRing(floorCorners), [p.long, p.lat])).toBe(true);
    await expect(startLoadGenerator({ ...generatorOptions(broker), hz: 0 })).rejects.toThrow(RangeError);
  });
});

function generatorOptions(broker: TestBroker) {
  return { brokerUrl: broker.url, topicRoot: broker.topicRoot, siteId: 1, helmets: [], hz: 1 };
}
