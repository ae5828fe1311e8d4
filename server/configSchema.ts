import { type Static, type TSchema, Type } from 'typebox';
import { Value } from 'typebox/value';

/** A pattern matching each word in any letter case (JSON Schema patterns carry no flags). */
function anyCase(words: readonly string[]): string {
  const letters = (word: string) =>
    [...word].map((c) =>
      c.toLowerCase() === c.toUpperCase() ? c : `[${c.toLowerCase()}${c.toUpperCase()}]`,
    );
  return `^(${words.map((word) => letters(word).join('')).join('|')})$`;
}

export const ON_WORDS = ['1', 'true', 'on', 'yes'] as const;
export const OFF_WORDS = ['0', 'false', 'off', 'no'] as const;

const port = Type.String({
  pattern: '^(0|[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])$',
  description: 'a port number from 0 to 65535',
});
const wholeNumber = Type.String({ pattern: '^[0-9]+$', description: 'a whole number (0 or more)' });
const positiveWholeNumber = Type.String({
  pattern: '^0*[1-9][0-9]*$',
  description: 'a whole number (1 or more)',
});
const onOff = Type.String({
  pattern: anyCase([...ON_WORDS, ...OFF_WORDS]),
  description: `on or off (${[...ON_WORDS, ...OFF_WORDS].join(', ')})`,
});
const text = Type.String({ minLength: 1, description: 'a non-empty text' });
const url = (schemes: readonly string[], example: string) =>
  Type.String({
    pattern: `^(${schemes.join('|')})://[^\\s]+$`,
    description: `a URL starting with ${schemes.map((scheme) => `${scheme}://`).join(' or ')} (e.g. ${example})`,
  });

/**
 * Every environment variable the server reads (README "Configuration"), as the strings the
 * environment holds. An empty value counts as unset; absent ones take the defaults of config.ts.
 */
export const EnvSchema = Type.Object({
  HOST: Type.Optional(text),
  PORT: Type.Optional(port),
  SAFETY_PORT: Type.Optional(port),
  DATA_DIR: Type.Optional(text),
  DATABASE_URL: Type.Optional(url(['postgres', 'postgresql'], 'postgres://user:secret@db:5432/sitewatch')),
  PUBLIC_URL: Type.Optional(url(['http', 'https'], 'https://sitewatch.example.com')),
  SESSION_TTL_HOURS: Type.Optional(wholeNumber),
  TOKEN_TTL_HOURS: Type.Optional(wholeNumber),
  LOGIN_MAX_FAILURES: Type.Optional(wholeNumber),
  LOGIN_WINDOW_SECONDS: Type.Optional(wholeNumber),
  NODE_ENV: Type.Optional(text),
  TRUST_PROXY: Type.Optional(text),
  SENTRY_DSN: Type.Optional(url(['http', 'https'], 'https://key@sentry.example.com/1')),
  METRICS_TOKEN: Type.Optional(text),
  MQTT_PORT: Type.Optional(port),
  MQTT_HOST: Type.Optional(text),
  MQTT_TLS_CERT: Type.Optional(text),
  MQTT_TLS_KEY: Type.Optional(text),
  MQTT_TLS_PORT: Type.Optional(port),
  MQTT_USERNAME: Type.Optional(text),
  MQTT_PASSWORD: Type.Optional(text),
  MQTT_URL: Type.Optional(url(['mqtt', 'mqtts', 'tcp', 'tls', 'ssl', 'ws', 'wss'], 'mqtt://broker:1883')),
  MQTT_TOPIC_ROOT: Type.Optional(
    Type.String({
      pattern: '^[^#+/\\s]+(/[^#+/\\s]+)*$',
      description:
        'topic levels separated by "/", without wildcards (+, #), spaces or a leading or trailing "/"',
    }),
  ),
  MQTT_CLIENT_ID: Type.Optional(text),
  REDIS_URL: Type.Optional(url(['redis', 'rediss'], 'redis://cache:6379')),
  SIMULATOR: Type.Optional(onOff),
  OFFLINE_AFTER: Type.Optional(wholeNumber),
  NETWORK_SILENCE: Type.Optional(wholeNumber),
  POSITIONS_RETENTION_DAYS: Type.Optional(positiveWholeNumber),
});

export type EnvSettings = Static<typeof EnvSchema>;

/** The schema's variables that are set (non-empty), as strings; other variables are not read. */
function setVariables(env: Record<string, string | undefined>): Record<string, string> {
  const set: Record<string, string> = {};
  for (const name of Object.keys(EnvSchema.properties)) {
    const value = env[name];
    if (value !== undefined && value !== '') set[name] = value;
  }
  return set;
}

function expectation(name: string): string {
  const schema = (EnvSchema.properties as Record<string, TSchema & { description?: string }>)[name];
  return schema?.description ?? 'a valid value';
}

/** One line per bad variable: its name, the value given and what is expected. */
export function envProblems(env: Record<string, string | undefined>): {
  settings: EnvSettings;
  problems: string[];
} {
  const settings = setVariables(env);
  const bad = new Set<string>();
  for (const error of Value.Errors(EnvSchema, settings)) {
    const name = error.instancePath.split('/')[1];
    if (name) bad.add(name);
  }
  const problems = [...bad].map(
    (name) => `${name}=${JSON.stringify(settings[name])} is not valid: expected ${expectation(name)}`,
  );
  if (Boolean(settings.MQTT_TLS_CERT) !== Boolean(settings.MQTT_TLS_KEY)) {
    const missing = settings.MQTT_TLS_CERT ? 'MQTT_TLS_KEY' : 'MQTT_TLS_CERT';
    problems.push(`${missing} is not set: MQTT_TLS_CERT and MQTT_TLS_KEY must be set together`);
  }
  return { settings: settings as EnvSettings, problems };
}
