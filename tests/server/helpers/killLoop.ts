import { createGatewayLogin, type GatewayLogin } from './deviceLogin';
import { type ServerProcess, startServerProcess, waitForOutput } from './serverProcess';

const READY = 'Sitewatch is running at';

/** The real server process (server/main.ts), started again and again on the same env. */
export interface RestartableServer {
  /** Starts the process and resolves once it serves. */
  start(): Promise<void>;
  /** kill -9, and waits for the process to be gone. */
  kill(): Promise<void>;
  /** SIGTERM, and waits for the graceful exit. */
  stop(): Promise<void>;
  /** The running process's exit code so far (null while it runs). */
  exitCode(): number | null;
  output(): string;
  readonly starts: number;
}

export function restartableServer(env: Record<string, string>, startTimeoutMs = 120_000): RestartableServer {
  let current: ServerProcess | null = null;
  let starts = 0;
  let earlierOutput = '';
  return {
    async start() {
      if (current) earlierOutput += current.output();
      current = startServerProcess(env);
      starts++;
      await waitForOutput(current, READY, startTimeoutMs);
    },
    async kill() {
      if (!current || current.child.exitCode !== null) return;
      current.child.kill('SIGKILL');
      await current.exited;
    },
    async stop() {
      if (!current || current.child.exitCode !== null) return;
      current.child.kill('SIGTERM');
      const code = await current.exited;
      if (code !== 0) throw new Error(`server exited with ${code} on SIGTERM:\n${current.output()}`);
    },
    exitCode: () => current?.child.exitCode ?? null,
    output: () => earlierOutput + (current?.output() ?? ''),
    get starts() {
      return starts;
    },
  };
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const randomBetween = (range: readonly [number, number]) =>
  range[0] + Math.random() * (range[1] - range[0]);

/**
 * Kills something at a random instant after it (re)started, `cycles` times, and starts it again:
 * `up` is how long it runs before the kill, `down` how long it stays dead.
 */
export async function killLoop(options: {
  cycles: number;
  up: readonly [number, number];
  down?: readonly [number, number];
  kill(): Promise<void>;
  start(): Promise<void>;
  /** After each restart: throw to stop the loop (e.g. the server died meanwhile). */
  check?(cycle: number): void;
}): Promise<void> {
  for (let cycle = 1; cycle <= options.cycles; cycle++) {
    await pause(randomBetween(options.up));
    await options.kill();
    if (options.down) await pause(randomBetween(options.down));
    await options.start();
    options.check?.(cycle);
  }
}

async function api<T>(baseUrl: string, path: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const reply = (await response.json()) as { data: T; message?: string };
  if (!response.ok) throw new Error(`${path}: ${response.status} ${reply.message ?? ''}`);
  return reply.data;
}

export interface DemoSiteForDevices {
  siteId: number;
  floorId: number;
  /** The middle of the floor. */
  at: { lat: number; long: number };
  tags: string[];
  /** A device token of the site, as gateways log in to the broker with it. */
  credentials: GatewayLogin;
  /** The API session of the site admin. */
  token: string;
}

interface Corner {
  lat: number;
  long: number;
}

/** The demo site's first floor, some of its helmets and a new device token, through the API. */
export async function demoSiteForDevices(baseUrl: string, helmets = 20): Promise<DemoSiteForDevices> {
  const { access_token: token } = await api<{ access_token: string }>(baseUrl, '/api/login', undefined, {
    email: 'site-admin@demo.sitewatch.dev',
    password: 'sitewatch-demo',
  });
  const [client] = await api<{ id: number }[]>(baseUrl, '/api/clients', token);
  const [site] = await api<{ id: number }[]>(baseUrl, `/api/clients/${client.id}/sites`, token);
  const [floor] = await api<{ id: number; coordinates: { a: Corner; c: Corner } }[]>(
    baseUrl,
    `/api/sites/${site.id}/floors?sort=altitude`,
    token,
  );
  const items = await api<{ wnt_inventory_id: string }[]>(
    baseUrl,
    `/api/sites/${site.id}/inventories?type=helmet&page=1&perPage=${helmets}`,
    token,
  );
  const credentials = await createGatewayLogin(baseUrl, token, site.id, 'kill-loop gateway');
  const { a, c } = floor.coordinates;
  return {
    siteId: site.id,
    floorId: floor.id,
    at: { lat: (a.lat + c.lat) / 2, long: (a.long + c.long) / 2 },
    tags: items.map((item) => item.wnt_inventory_id),
    credentials,
    token,
  };
}

/** The helmet's last_seen as the API shows it, or null. */
export async function helmetLastSeen(
  baseUrl: string,
  site: DemoSiteForDevices,
  tag: string,
): Promise<string | null> {
  const items = await api<{ wnt_inventory_id: string; last_seen: string | null }[]>(
    baseUrl,
    `/api/sites/${site.siteId}/inventories?type=helmet`,
    site.token,
  );
  const seen = items.find((item) => item.wnt_inventory_id === tag)?.last_seen ?? null;
  return seen === null ? null : new Date(seen).toISOString();
}
