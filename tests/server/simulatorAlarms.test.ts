import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDemoSiteId } from '../../server/db/demoSeed';
import { commandTopic } from '../../server/mqtt/topicAccess';
import type { Simulator } from '../../server/simulator/simulator';
import type { HelmetCommand } from '../../src/domain/helmetCommands';
import type { HelmetEventMessage, PositionMessage } from '../../src/domain/live';
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

/** The longest a helmet takes to confirm (8 s), and some room for the broker. */
const CONFIRMATION_WINDOW_MS = 9500;

describe("the simulator's helmets and alarm commands", () => {
  let t: TestApp;
  let broker: TestBroker;
  let listener: MqttClient;
  let heard: Heard[];
  let siteId: number;
  let simulator: Simulator;
  let tags: string[];

  beforeAll(async () => {
    t = await startTestApp();
    broker = await startTestBroker();
    siteId = (await findDemoSiteId(t.db))!;
    ({ heard, listener } = await listenToBroker(broker));
    const from = Date.now();
    // Nobody drops out of range or presses a button, so every helmet heard can hear the alarm.
    simulator = await startTestSimulator(t, broker, siteId, {
      clock: dubaiClock(await demoWorkingDay(t, siteId), '09:00'),
      seed: 7,
      chances: { silence: 0, acknowledge: 0 },
    });
    const firstTick = await until(() => {
      const positions = heard.filter(
        (h) => h.at >= from && h.topic === `${broker.topicRoot}/${siteId}/positions`,
      );
      return positions.length >= 2 ? positions : undefined;
    });
    tags = [...new Set(firstTick.flatMap((m) => (m.body as PositionMessage[]).map((p) => p.tag)))];
  });
  afterAll(async () => {
    await simulator?.close();
    await listener?.endAsync();
    await broker?.close();
    await t?.close();
  });

  const command = (tag: string, type: HelmetCommand['type']): HelmetCommand => ({
    tag,
    ts: new Date().toISOString(),
    type,
    evacuationSessionId: 'drill-session',
  });
  const send = (commands: HelmetCommand[]) =>
    Promise.all(
      commands.map((c) =>
        listener.publishAsync(commandTopic(siteId, broker.topicRoot), JSON.stringify(c), { qos: 1 }),
      ),
    );
  /** The confirmations heard since `from`, each with how long after `from` it arrived. */
  const confirmationsSince = (from: number) =>
    heard
      .filter((h) => h.at >= from && h.topic === `${broker.topicRoot}/${siteId}/events`)
      .flatMap((h) => (h.body as HelmetEventMessage[]).map((event) => ({ ...event, afterMs: h.at - from })));

  let neverConfirmed: string[];

  it('confirms an evacuation alarm from most helmets after a realistic delay; a few never do', async () => {
    expect(tags.length).toBeGreaterThan(100);
    const sentAt = Date.now();
    await send(tags.map((tag) => command(tag, 'evacuationAlarm')));
    await sleep(CONFIRMATION_WINDOW_MS);

    const confirmations = confirmationsSince(sentAt);
    expect(confirmations.every((c) => c.type === 'alarmReceived')).toBe(true);
    const confirmed = confirmations.map((c) => c.tag);
    expect(new Set(confirmed).size).toBe(confirmed.length); // one answer per alarm
    expect(confirmed.every((tag) => tags.includes(tag))).toBe(true);
    neverConfirmed = tags.filter((tag) => !confirmed.includes(tag));
    expect(neverConfirmed.length).toBeGreaterThanOrEqual(1);
    expect(neverConfirmed.length).toBeLessThanOrEqual(Math.ceil(tags.length * 0.08));

    // Not at once: from half a second to eight, most within a few seconds.
    const delays = confirmations.map((c) => c.afterMs).sort((a, b) => a - b);
    expect(delays[0]).toBeGreaterThanOrEqual(450);
    expect(delays.at(-1)).toBeLessThanOrEqual(CONFIRMATION_WINDOW_MS);
    expect(delays[Math.floor(delays.length / 2)]).toBeLessThan(3500);
    expect(delays.at(-1)! - delays[0]).toBeGreaterThan(2000);
  }, 20_000);

  it('answers a redirect to every helmet from the same helmets, and not once the alarm is cleared', async () => {
    const cleared = tags.filter((_, i) => i % 2 === 0);
    const sentAt = Date.now();
    await send([command('*', 'redirect')]);
    await send(cleared.map((tag) => command(tag, 'alarmCleared')));
    await sleep(CONFIRMATION_WINDOW_MS);

    const confirmed = confirmationsSince(sentAt).map((c) => c.tag);
    expect(confirmed.length).toBeGreaterThan(tags.length / 3);
    expect(confirmed.sort()).toEqual(
      tags.filter((tag) => !cleared.includes(tag) && !neverConfirmed.includes(tag)).sort(),
    );
  }, 20_000);
});
