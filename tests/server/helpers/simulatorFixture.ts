import { eq } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { sites } from '../../../server/db/schema';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../../server/simulator/simulator';
import { mintSimulatorLogin } from '../../../server/simulator/simulatorToken';
import { localTime } from '../../../src/domain/workshiftClock';
import type { TestApp } from './testApp';
import type { TestBroker } from './testBroker';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until it gives something, and returns it; throws after `timeoutMs`. */
export async function until<T>(
  read: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 8000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(25);
  }
}

/** A message heard on the broker, and when. */
export interface Heard {
  topic: string;
  body: unknown;
  at: number;
}

/** A client recording every message published under the test's topic root. */
export async function listenToBroker(broker: TestBroker): Promise<{ heard: Heard[]; listener: MqttClient }> {
  const heard: Heard[] = [];
  const listener = await connectAsync(broker.url, {
    clientId: `listener-${broker.topicRoot}`,
    ...broker.internalLogin,
  });
  listener.on('message', (topic, payload) =>
    heard.push({ topic, body: JSON.parse(payload.toString()), at: Date.now() }),
  );
  await listener.subscribeAsync(`${broker.topicRoot}/#`, { qos: 1 });
  return { heard, listener };
}

/** A working day of the demo's day shift (today, or the day before when today is the Friday off). */
export async function demoWorkingDay(t: TestApp, siteId: number): Promise<string> {
  const [site] = await t.db.select().from(sites).where(eq(sites.id, siteId));
  const today = localTime(new Date(), site.timezone);
  return today.weekday === 5
    ? new Date(Date.parse(`${today.date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
    : today.date;
}

/** The wall clock, moved to `hhmm` in Dubai (the demo site's zone) on `day`. */
export function dubaiClock(day: string, hhmm: string): () => Date {
  const base = Date.parse(`${day}T${hhmm}:00+04:00`);
  const started = Date.now();
  return () => new Date(base + (Date.now() - started));
}

/** The simulator of a demo site, publishing under the test's topic root. */
export async function startTestSimulator(
  t: TestApp,
  broker: TestBroker,
  siteId: number,
  options: Omit<SimulatorOptions, 'db' | 'brokerUrl' | 'login' | 'topicRoot' | 'siteId' | 'logger'>,
): Promise<Simulator> {
  broker.bindDatabase(t.db);
  return startSimulator({
    db: t.db,
    brokerUrl: broker.url,
    login: await mintSimulatorLogin(t.db, siteId),
    topicRoot: broker.topicRoot,
    siteId,
    logger: t.app.log,
    ...options,
  });
}
