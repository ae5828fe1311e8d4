import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../../server/app';
import { DEMO_PASSWORD } from '../../../server/auth/passwords';
import { type Config, loadConfig } from '../../../server/config';
import type { Db } from '../../../server/db/database';
import { demoEmail, seedDemo } from '../../../server/db/demoSeed';
import type { DeviceSessions } from '../../../server/mqtt/deviceSessions';
import type { Role } from '../../../src/domain/roles';
import { createTestDatabase, type TestDatabase } from './testDatabase';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: TestDatabase;
  config: Config;
  /** Logs in and returns the access token; throws when the login is refused. */
  login(email: string, password?: string): Promise<string>;
  loginAs(role: Role): Promise<string>;
  /** `app.inject` with a bearer token and a parsed JSON body. */
  call(
    token: string | null,
    options: InjectOptions,
  ): Promise<LightMyRequestResponse & { body: string; json: Envelope }>;
  close(): Promise<void>;
}

export type Envelope = {
  status: string;
  message?: string;
  data?: any;
  errors?: Record<string, string>;
  meta?: any;
};

/** A server on its own fresh database with the demo site seeded. */
export async function startTestApp(
  overrides: Partial<Config> = {},
  options: { demo?: boolean; deviceSessions?: DeviceSessions } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  if (options.demo !== false) await seedDemo(database.db);
  const config: Config = { ...loadConfig({}), publicUrl: 'http://sitewatch.test', ...overrides };
  const app = await buildApp({ db: database.db, config, deviceSessions: options.deviceSessions });
  await app.ready();

  const call: TestApp['call'] = async (token, injectOptions) => {
    const headers = {
      ...(injectOptions.headers ?? {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    const response = await app.inject({ ...injectOptions, headers });
    let json: Envelope;
    try {
      json = response.json();
    } catch {
      json = { status: 'unparsed' };
    }
    return Object.assign(response, { json });
  };

  const login = async (email: string, password = DEMO_PASSWORD) => {
    const response = await call(null, { method: 'POST', url: '/api/login', payload: { email, password } });
    if (response.statusCode !== 200)
      throw new Error(`login of ${email} failed: ${response.statusCode} ${response.body}`);
    return response.json.data.access_token as string;
  };

  return {
    app,
    db: database.db,
    database,
    config,
    login,
    loginAs: (role) => login(demoEmail(role)),
    call,
    async close() {
      await app.close();
      await database.dispose();
    },
  };
}
