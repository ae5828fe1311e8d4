// Load simulator: provisions helmets on a site through the API, then publishes their positions
// over MQTT at a given rate (logged in with a device token it creates for the run and revokes at
// the end) and prints what the broker acknowledged each second.
import { parseArgs } from 'node:util';
import { DEMO_PASSWORD } from '../server/auth/passwords';
import { type LoadHelmet, startLoadGenerator } from '../server/simulator/loadGenerator';
import type { Floor } from '../src/domain/floor';
import { DEFAULT_TOPIC_ROOT } from '../src/domain/live';
import { REGISTER_INVENTORIES_MAX } from '../src/domain/schemas/inventory';

const USAGE = `Usage: npm run simulate -- --site <id> [options]

  --site <id>            the site whose floors the helmets walk (required)
  --helmets <n>          how many helmets, SIM-00001 … (default 1000)
  --hz <n>               positions per helmet per second, above 0 and at most 100 (default 1)
  --mqtt <url>           broker (default mqtt://127.0.0.1:1883)
  --api <url>            Sitewatch server (default http://localhost:3000)
  --email <address>      login (default super-admin@demo.sitewatch.dev)
  --password <text>      password (default the demo password)
  --topic-root <root>    MQTT topic root (default ${DEFAULT_TOPIC_ROOT})
  --duration <seconds>   stop after this long (default: run until Ctrl-C)`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function numberOption(raw: string | undefined, name: string, fallback: number, integer: boolean): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    fail(`--${name} must be a positive ${integer ? 'whole ' : ''}number, got "${raw}"`);
  return value;
}

function readOptions() {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        site: { type: 'string' },
        helmets: { type: 'string' },
        hz: { type: 'string' },
        mqtt: { type: 'string' },
        api: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        'topic-root': { type: 'string' },
        duration: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const text = (name: string) => values[name] as string | undefined;
  if (text('site') === undefined) fail('--site is required');
  const hz = numberOption(text('hz'), 'hz', 1, false);
  if (hz > 100) fail(`--hz must be at most 100, got "${text('hz')}"`);
  return {
    siteId: numberOption(text('site'), 'site', 0, true),
    helmets: numberOption(text('helmets'), 'helmets', 1000, true),
    hz,
    mqtt: text('mqtt') ?? 'mqtt://127.0.0.1:1883',
    api: (text('api') ?? 'http://localhost:3000').replace(/\/$/, ''),
    email: text('email') ?? 'super-admin@demo.sitewatch.dev',
    password: text('password') ?? DEMO_PASSWORD,
    topicRoot: text('topic-root') ?? DEFAULT_TOPIC_ROOT,
    duration: text('duration') === undefined ? null : numberOption(text('duration'), 'duration', 0, false),
  };
}

async function call<T>(api: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const response = await fetch(`${api}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json().catch(() => ({}))) as { data?: T; message?: string };
  if (!response.ok) throw new Error(`${path}: ${response.status} ${envelope.message ?? response.statusText}`);
  return envelope.data as T;
}

const options = readOptions();
try {
  const { access_token: token } = await call<{ access_token: string }>(options.api, '/api/login', null, {
    email: options.email,
    password: options.password,
  });
  const floors = await call<Floor[]>(options.api, `/api/sites/${options.siteId}/floors`, token);
  if (floors.length === 0) fail(`Site ${options.siteId} has no floors to walk on`);
  const tags = Array.from({ length: options.helmets }, (_, i) => `SIM-${String(i + 1).padStart(5, '0')}`);
  let created = 0;
  for (let start = 0; start < tags.length; start += REGISTER_INVENTORIES_MAX) {
    const items = tags.slice(start, start + REGISTER_INVENTORIES_MAX).map((tag) => ({
      wnt_inventory_id: tag,
      type: 'helmet',
    }));
    created += (
      await call<{ created: number }>(options.api, `/api/sites/${options.siteId}/inventories`, token, {
        items,
      })
    ).created;
  }
  console.log(
    `${tags.length} helmets on ${floors.length} floors of site ${options.siteId} (${created} newly registered)`,
  );

  const helmets: LoadHelmet[] = tags.map((tag, i) => {
    const floor = floors[i % floors.length];
    return { tag, floorId: floor.id, corners: floor.coordinates };
  });
  // The broker admits devices by a device token of their site (DESIGN §1): one for this run.
  const device = await call<{ id: number; token: string }>(
    options.api,
    `/api/sites/${options.siteId}/device-tokens`,
    token,
    { label: 'Load simulator' },
  );
  const generator = await startLoadGenerator({
    brokerUrl: options.mqtt,
    login: { username: String(device.id), password: device.token },
    topicRoot: options.topicRoot,
    siteId: options.siteId,
    helmets,
    hz: options.hz,
  });
  console.log(`Publishing ${options.helmets * options.hz} positions/s to ${options.mqtt}`);
  const started = Date.now();
  let last = generator.stats();
  const timer = setInterval(() => {
    const now = generator.stats();
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(
      `${seconds}s published ${now.published - last.published}/s (${now.messages - last.messages} messages), total ${now.published}, skipped ${now.skipped}, failed ${now.failed}`,
    );
    last = now;
  }, 1000);
  const stop = async () => {
    clearInterval(timer);
    await generator.close();
    await call(
      options.api,
      `/api/sites/${options.siteId}/device-tokens/${device.id}/revoke`,
      token,
      {},
    ).catch((error: Error) =>
      console.error(`simulate: could not revoke the run's device token: ${error.message}`),
    );
    const total = generator.stats();
    console.log(
      `Stopped: ${total.published} positions acknowledged, ${total.skipped} skipped, ${total.failed} failed`,
    );
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  if (options.duration !== null) setTimeout(() => void stop(), options.duration * 1000);
} catch (error) {
  console.error(`simulate: ${(error as Error).message}`);
  process.exit(1);
}
