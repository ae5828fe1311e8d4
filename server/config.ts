import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_TOPIC_ROOT } from '../src/domain/live';

/** Every setting the server reads, each with the default that serves the embedded set-up. */
export interface Config {
  /** The address the HTTP listeners (PORT, SAFETY_PORT) bind to: loopback unless HOST opens them. */
  host: string;
  port: number;
  safetyPort: number;
  mqttPort: number;
  /** MQTT_PORT was given: the embedded broker takes exactly that port or the server stops. */
  mqttPortExplicit: boolean;
  /** The embedded broker's address: loopback unless MQTT_HOST opens it (`0.0.0.0` for every interface). */
  mqttHost: string;
  /** MQTT_TLS_CERT and MQTT_TLS_KEY (PEM files): the embedded broker also listens with TLS on MQTT_TLS_PORT. */
  mqttTls: { certFile: string; keyFile: string; port: number } | null;
  /** Credentials of the ingest on an external broker (MQTT_URL) that requires them. */
  mqttUsername: string | undefined;
  mqttPassword: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  mqttUrl: string | undefined;
  redisUrl: string | undefined;
  /** Topics are `{root}/{siteId}/positions|nodes|events`; `sitewatch` unless MQTT_TOPIC_ROOT says otherwise. */
  mqttTopicRoot: string;
  /**
   * The ingest's MQTT client id: with a persistent session the broker keeps QoS 1 messages that
   * arrive while the server is down. Unique per server process.
   */
  mqttClientId: string;
  simulator: boolean;
  offlineAfterSeconds: number;
  networkSilenceSeconds: number;
  /** The address links in e-mails point to. */
  publicUrl: string;
  production: boolean;
  /** Access tokens live this long after login (hours). */
  sessionTtlHours: number;
  /** Invitation and password-reset links expire after this many hours. */
  tokenTtlHours: number;
  /** Failed logins allowed per account and address in the window before 429. */
  loginMaxFailures: number;
  loginWindowSeconds: number;
  demo: boolean;
  /** Trust X-Forwarded-For from these proxies (addresses or CIDRs, comma-separated); off by default. */
  trustProxy: boolean | string;
  sentryDsn: string | undefined;
  /** Bearer token `GET /metrics` asks for; null: it answers only to this machine. */
  metricsToken: string | null;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false;
  throw new Error(`${name} must be on or off, got "${raw}"`);
}

export function loadConfig(env: Env = process.env, argv: readonly string[] = []): Config {
  const port = int(env, 'PORT', 3000);
  return {
    host: env.HOST || '127.0.0.1',
    port,
    safetyPort: int(env, 'SAFETY_PORT', 8080),
    mqttPort: int(env, 'MQTT_PORT', 1883),
    mqttPortExplicit: Boolean(env.MQTT_PORT),
    mqttHost: env.MQTT_HOST || '127.0.0.1',
    mqttTls: mqttTlsSetting(env),
    mqttUsername: env.MQTT_USERNAME || undefined,
    mqttPassword: env.MQTT_PASSWORD || undefined,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    mqttUrl: env.MQTT_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    mqttTopicRoot: env.MQTT_TOPIC_ROOT || DEFAULT_TOPIC_ROOT,
    mqttClientId: env.MQTT_CLIENT_ID || `sitewatch-${hostname()}-${port}`,
    simulator: flag(env, 'SIMULATOR', true),
    offlineAfterSeconds: int(env, 'OFFLINE_AFTER', 60),
    networkSilenceSeconds: int(env, 'NETWORK_SILENCE', 30),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    production: env.NODE_ENV === 'production',
    sessionTtlHours: int(env, 'SESSION_TTL_HOURS', 24 * 7),
    tokenTtlHours: int(env, 'TOKEN_TTL_HOURS', 72),
    loginMaxFailures: int(env, 'LOGIN_MAX_FAILURES', 5),
    loginWindowSeconds: int(env, 'LOGIN_WINDOW_SECONDS', 900),
    demo: !argv.includes('--no-demo'),
    trustProxy: trustProxySetting(env.TRUST_PROXY),
    sentryDsn: env.SENTRY_DSN || undefined,
    metricsToken: env.METRICS_TOKEN?.trim() || null,
  };
}

function trustProxySetting(raw: string | undefined): boolean | string {
  if (!raw || ['0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false;
  if (['true', 'on', 'yes'].includes(raw.toLowerCase())) return true;
  return raw;
}

function mqttTlsSetting(env: Env): Config['mqttTls'] {
  const certFile = env.MQTT_TLS_CERT || undefined;
  const keyFile = env.MQTT_TLS_KEY || undefined;
  if (!certFile && !keyFile) return null;
  if (!certFile || !keyFile) throw new Error('MQTT_TLS_CERT and MQTT_TLS_KEY must be set together');
  return { certFile: resolve(certFile), keyFile: resolve(keyFile), port: int(env, 'MQTT_TLS_PORT', 8883) };
}
