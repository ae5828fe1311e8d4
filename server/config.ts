import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_POSITIONS_RETENTION_DAYS } from '../src/domain/analytics';
import { DEFAULT_TOPIC_ROOT } from '../src/domain/live';
import { envProblems, OFF_WORDS, ON_WORDS } from './configSchema';

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
  /** Raw positions are kept this many days (whole partitions dropped); rollups are kept. */
  positionsRetentionDays: number;
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

/** The configuration has bad variables: `problems` names each one, its value and what is expected. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      `The configuration has ${problems.length} bad variable(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

/** Reads the environment through EnvSchema; every bad variable is reported at once in a ConfigError. */
export function loadConfig(env: Env = process.env, argv: readonly string[] = []): Config {
  const { settings, problems } = envProblems(env);
  if (problems.length > 0) throw new ConfigError(problems);
  const whole = (value: string | undefined, fallback: number) =>
    value === undefined ? fallback : Number(value);
  const flag = (value: string | undefined, fallback: boolean) =>
    value === undefined ? fallback : (ON_WORDS as readonly string[]).includes(value.toLowerCase());
  const port = whole(settings.PORT, 3000);
  return {
    host: settings.HOST ?? '127.0.0.1',
    port,
    safetyPort: whole(settings.SAFETY_PORT, 8080),
    mqttPort: whole(settings.MQTT_PORT, 1883),
    mqttPortExplicit: settings.MQTT_PORT !== undefined,
    mqttHost: settings.MQTT_HOST ?? '127.0.0.1',
    mqttTls:
      settings.MQTT_TLS_CERT && settings.MQTT_TLS_KEY
        ? {
            certFile: resolve(settings.MQTT_TLS_CERT),
            keyFile: resolve(settings.MQTT_TLS_KEY),
            port: whole(settings.MQTT_TLS_PORT, 8883),
          }
        : null,
    mqttUsername: settings.MQTT_USERNAME,
    mqttPassword: settings.MQTT_PASSWORD,
    dataDir: resolve(settings.DATA_DIR ?? './data'),
    databaseUrl: settings.DATABASE_URL,
    mqttUrl: settings.MQTT_URL,
    redisUrl: settings.REDIS_URL,
    mqttTopicRoot: settings.MQTT_TOPIC_ROOT ?? DEFAULT_TOPIC_ROOT,
    mqttClientId: settings.MQTT_CLIENT_ID ?? `sitewatch-${hostname()}-${port}`,
    simulator: flag(settings.SIMULATOR, true),
    offlineAfterSeconds: whole(settings.OFFLINE_AFTER, 60),
    networkSilenceSeconds: whole(settings.NETWORK_SILENCE, 30),
    positionsRetentionDays: whole(settings.POSITIONS_RETENTION_DAYS, DEFAULT_POSITIONS_RETENTION_DAYS),
    publicUrl: (settings.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    production: settings.NODE_ENV === 'production',
    sessionTtlHours: whole(settings.SESSION_TTL_HOURS, 24 * 7),
    tokenTtlHours: whole(settings.TOKEN_TTL_HOURS, 72),
    loginMaxFailures: whole(settings.LOGIN_MAX_FAILURES, 5),
    loginWindowSeconds: whole(settings.LOGIN_WINDOW_SECONDS, 900),
    demo: !argv.includes('--no-demo'),
    trustProxy: trustProxySetting(settings.TRUST_PROXY),
    sentryDsn: settings.SENTRY_DSN,
    metricsToken: settings.METRICS_TOKEN?.trim() || null,
  };
}

/** loadConfig for the server's start: bad variables are printed, one a line, and the process exits 1. */
export function loadConfigOrExit(env: Env, argv: readonly string[]): Config {
  try {
    return loadConfig(env, argv);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Sitewatch cannot start. ${error.message}\n`);
    process.exit(1);
  }
}

function trustProxySetting(raw: string | undefined): boolean | string {
  if (!raw || (OFF_WORDS as readonly string[]).includes(raw.toLowerCase())) return false;
  if (['true', 'on', 'yes'].includes(raw.toLowerCase())) return true;
  return raw;
}
