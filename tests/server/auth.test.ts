import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../server/auth/passwords';
import { hashToken } from '../../server/auth/tokens';
import type { Config } from '../../server/config';
import { demoEmail } from '../../server/db/demoSeed';
import { clients, sessions, users } from '../../server/db/schema';
import { authMessages } from '../../src/domain/schemas/auth';
import { appOnDatabase, loginOn, startAuthFixture } from './helpers/authFixture';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

const INVALID = authMessages.invalidCredentials;

let t: TestApp;
let other: OtherTenant;
let demo: { siteId: number; clientId: number; groupId: number };

beforeAll(async () => {
  ({ t, other, demo } = await startAuthFixture());
});
afterAll(() => t.close());

const login = (payload: unknown, remoteAddress?: string, app: FastifyInstance = t.app) =>
  loginOn(app, payload, remoteAddress);

/** Another app with other settings, on the file's database. */
const appWith = (overrides: Partial<Config>) => appOnDatabase(t, overrides);

describe('POST /api/login', () => {
  it('replies an access token and the user, with the role as user_role', async () => {
    const response = await login({ email: demoEmail('super-admin'), password: DEMO_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json.status).toBe('success');
    const { access_token, user } = response.json.data;
    expect(access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(user).toEqual({
      id: expect.any(Number),
      name: 'Demo Super Admin',
      email: demoEmail('super-admin'),
      user_role: 'super-admin',
      permissions: ['clients:create'],
      locale: 'en',
      last_client_id: null,
      last_site_id: null,
    });
  });

  it('stores only the SHA-256 hash of the token, expiring after the session lifetime', async () => {
    const token = await t.loginAs('group-of-sites-viewer');
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(row).toBeDefined();
    const stored = await t.db.select({ hash: sessions.tokenHash }).from(sessions);
    expect(stored.map((s) => s.hash)).not.toContain(token);
    const expected = Date.now() + t.config.sessionTtlHours * 3600_000;
    expect(Math.abs(row.expiresAt.getTime() - expected)).toBeLessThan(60_000);
    expect(row.revokedAt).toBeNull();
  });

  it('matches the address case-insensitively and trimmed', async () => {
    const response = await login({ email: '  Site-Admin@DEMO.Sitewatch.dev ', password: DEMO_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json.data.user.email).toBe(demoEmail('group-of-sites-admin'));
  });

  it('forces the locale to en on login', async () => {
    await t.db
      .update(users)
      .set({ locale: 'ar' })
      .where(eq(users.email, demoEmail('crew-manager')));
    const response = await login({ email: demoEmail('crew-manager'), password: DEMO_PASSWORD });
    expect(response.json.data.user.locale).toBe('en');
    const [row] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('crew-manager')));
    expect(row.locale).toBe('en');
  });

  it('answers a wrong password, an unknown address and a non-active user alike', async () => {
    const wrong = await login({ email: demoEmail('safety-demo'), password: 'not-the-password' });
    const unknown = await login({ email: 'nobody@example.com', password: DEMO_PASSWORD });
    await t.db
      .update(users)
      .set({ status: 'inactive' })
      .where(eq(users.email, demoEmail('site-engineer')));
    const inactive = await login({ email: demoEmail('site-engineer'), password: DEMO_PASSWORD });
    await t.db
      .update(users)
      .set({ status: 'active' })
      .where(eq(users.email, demoEmail('site-engineer')));
    const [demoClient] = await t.db.select().from(clients).limit(1);
    await t.db.insert(users).values({
      name: 'Not yet registered',
      email: 'invited@example.com',
      role: 'site-engineer',
      status: 'invited',
      clientId: demoClient.id,
    });
    const invited = await login({ email: 'invited@example.com', password: DEMO_PASSWORD });
    for (const response of [wrong, unknown, inactive, invited]) {
      expect(response.statusCode).toBe(401);
      expect(response.json).toEqual({ status: 'error', message: INVALID });
    }
  });

  it('creates no session for a refused login', async () => {
    const [before] = await t.db.select({ n: sql<number>`count(*)::int` }).from(sessions);
    await login({ email: demoEmail('client-admin'), password: 'wrong-password' });
    const [after] = await t.db.select({ n: sql<number>`count(*)::int` }).from(sessions);
    expect(after.n).toBe(before.n);
  });

  it('answers missing fields with 422 in the spec words', async () => {
    const empty = await login({});
    expect(empty.statusCode).toBe(422);
    expect(empty.json.errors).toEqual({ email: 'Email is required', password: 'Password is required' });
    const noBody = await t.call(null, { method: 'POST', url: '/api/login' });
    expect(noBody.statusCode).toBe(422);
    expect(noBody.json.errors).toEqual({ email: 'Email is required', password: 'Password is required' });
    const blank = await login({ email: '', password: '' });
    expect(blank.json.errors).toEqual({ email: 'Email is required', password: 'Password is required' });
    const spaces = await login({ email: '   ', password: DEMO_PASSWORD });
    expect(spaces.statusCode).toBe(422);
    expect(spaces.json.errors).toEqual({ email: 'Email is required' });
  });

  it('answers wrong types with 422, never coercing them', async () => {
    const numbers = await login({ email: 42, password: 12345678 });
    expect(numbers.statusCode).toBe(422);
    expect(numbers.json.errors).toEqual({ email: 'Email is invalid', password: 'Password is invalid' });
    const array = await login([demoEmail('super-admin'), DEMO_PASSWORD]);
    expect(array.statusCode).toBe(422);
    const nested = await login({ email: { $ne: '' }, password: DEMO_PASSWORD });
    expect(nested.statusCode).toBe(422);
  });

  it('answers oversized strings with 422', async () => {
    const response = await login({ email: `${'a'.repeat(250)}@x.io`, password: 'p'.repeat(129) });
    expect(response.statusCode).toBe(422);
    expect(response.json.errors).toEqual({
      email: 'Email accepts a maximum of 254 characters',
      password: 'Password accepts a maximum of 128 characters',
    });
  });

  it('answers malformed JSON with 400', async () => {
    const response = await t.call(null, {
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "x@y.z", "password":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json.status).toBe('error');
  });
});

describe('POST /api/sites/{id}/login', () => {
  const siteLogin = (siteId: number | string, payload: object) =>
    t.call(null, { method: 'POST', url: `/api/sites/${siteId}/login`, payload });

  it('signs a member of the site in and remembers the site and its client', async () => {
    const response = await siteLogin(demo.siteId, {
      email: demoEmail('group-of-sites-viewer'),
      password: DEMO_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json.data.access_token).toEqual(expect.any(String));
    expect(response.json.data.user).toMatchObject({
      user_role: 'group-of-sites-viewer',
      last_site_id: demo.siteId,
      last_client_id: demo.clientId,
      locale: 'en',
    });
    const me = await t.call(response.json.data.access_token, { method: 'GET', url: '/api/user' });
    expect(me.json.data.last_site_id).toBe(demo.siteId);
  });

  it('accepts the site group when it is the site’s own, refuses another', async () => {
    const credentials = { email: demoEmail('group-of-sites-admin'), password: DEMO_PASSWORD };
    const right = await siteLogin(demo.siteId, { ...credentials, group_of_sites_id: demo.groupId });
    expect(right.statusCode).toBe(200);
    const nullGroup = await siteLogin(demo.siteId, { ...credentials, group_of_sites_id: null });
    expect(nullGroup.statusCode).toBe(200);
    const wrong = await siteLogin(demo.siteId, { ...credentials, group_of_sites_id: demo.groupId + 1000 });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json.message).toBe(INVALID);
  });

  it('lets a client-admin into its client’s sites and a super-admin into any', async () => {
    const clientAdmin = await siteLogin(demo.siteId, {
      email: demoEmail('client-admin'),
      password: DEMO_PASSWORD,
    });
    expect(clientAdmin.statusCode).toBe(200);
    const superAdmin = await siteLogin(other.siteId, {
      email: demoEmail('super-admin'),
      password: DEMO_PASSWORD,
    });
    expect(superAdmin.statusCode).toBe(200);
    expect(superAdmin.json.data.user.last_client_id).toBe(other.clientId);
  });

  it('answers 401 with the login message for a site the user cannot see', async () => {
    for (const [siteId, email] of [
      [other.siteId, demoEmail('group-of-sites-admin')],
      [other.siteId, demoEmail('client-admin')],
      [demo.siteId, other.email('client-admin')],
      [demo.siteId, other.email('group-of-sites-viewer')],
      [999_999, demoEmail('group-of-sites-viewer')],
    ] as const) {
      const response = await siteLogin(siteId, { email, password: DEMO_PASSWORD });
      expect(response.statusCode, `${email} on site ${siteId}`).toBe(401);
      expect(response.json).toEqual({ status: 'error', message: INVALID });
    }
  });

  it('answers a wrong password with 401', async () => {
    const response = await siteLogin(demo.siteId, {
      email: demoEmail('group-of-sites-viewer'),
      password: 'wrong-password',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json.message).toBe(INVALID);
  });

  it('answers a bad site id or body with 422', async () => {
    const credentials = { email: demoEmail('group-of-sites-viewer'), password: DEMO_PASSWORD };
    for (const siteId of ['abc', '0', '1.5', '99999999999']) {
      expect((await siteLogin(siteId, credentials)).statusCode, siteId).toBe(422);
    }
    const group = await siteLogin(demo.siteId, { ...credentials, group_of_sites_id: String(demo.groupId) });
    expect(group.statusCode).toBe(422);
    expect(group.json.errors).toEqual({ group_of_sites_id: 'Group of sites id is invalid' });
    const missing = await siteLogin(demo.siteId, {});
    expect(missing.json.errors).toEqual({ email: 'Email is required', password: 'Password is required' });
  });
});

describe('login rate limit', () => {
  const maxFailures = 3;
  let app: FastifyInstance;
  let shortWindow: FastifyInstance;
  beforeAll(async () => {
    app = await appWith({ loginMaxFailures: maxFailures, loginWindowSeconds: 600 });
    shortWindow = await appWith({ loginMaxFailures: maxFailures, loginWindowSeconds: 1 });
  });
  afterAll(async () => {
    await app.close();
    await shortWindow.close();
  });

  const attempt = (email: string, password: string, ip: string, on = app) =>
    login({ email, password }, ip, on);

  it('answers 429 after the allowed failures, even with the right password', async () => {
    const email = demoEmail('group-of-sites-viewer');
    for (let i = 0; i < maxFailures; i++) {
      expect((await attempt(email, 'wrong-password', '10.0.0.1')).statusCode).toBe(401);
    }
    const blocked = await attempt(email, DEMO_PASSWORD, '10.0.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json).toEqual({ status: 'error', message: authMessages.tooManyLogins });
    // Case and spaces do not make a new pair.
    expect((await attempt(' SITE-VIEWER@Demo.Sitewatch.dev', DEMO_PASSWORD, '10.0.0.1')).statusCode).toBe(
      429,
    );
    // The same address from another ip, and another address from this ip, are not blocked.
    expect((await attempt(email, DEMO_PASSWORD, '10.0.0.2')).statusCode).toBe(200);
    expect((await attempt(demoEmail('crew-manager'), DEMO_PASSWORD, '10.0.0.1')).statusCode).toBe(200);
  });

  it('lets the pair in again once the window has passed', async () => {
    const email = demoEmail('group-of-sites-viewer');
    for (let i = 0; i < maxFailures; i++) await attempt(email, 'wrong-password', '10.0.5.1', shortWindow);
    expect((await attempt(email, DEMO_PASSWORD, '10.0.5.1', shortWindow)).statusCode).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await attempt(email, DEMO_PASSWORD, '10.0.5.1', shortWindow)).statusCode).toBe(200);
  });

  it('starts a pair afresh after a successful login', async () => {
    const email = demoEmail('site-engineer');
    for (let i = 0; i < maxFailures - 1; i++) await attempt(email, 'wrong-password', '10.0.1.1');
    expect((await attempt(email, DEMO_PASSWORD, '10.0.1.1')).statusCode).toBe(200);
    for (let i = 0; i < maxFailures; i++) {
      expect((await attempt(email, 'wrong-password', '10.0.1.1')).statusCode).toBe(401);
    }
    expect((await attempt(email, 'wrong-password', '10.0.1.1')).statusCode).toBe(429);
  });

  it('counts unknown addresses, and blocks an ip after ten times the limit across addresses', async () => {
    const ip = '10.0.2.1';
    for (let i = 0; i < maxFailures * 10; i++) {
      expect((await attempt(`nobody${i}@example.com`, 'wrong-password', ip)).statusCode).toBe(401);
    }
    expect((await attempt(demoEmail('super-admin'), DEMO_PASSWORD, ip)).statusCode).toBe(429);
    expect((await attempt(demoEmail('super-admin'), DEMO_PASSWORD, '10.0.2.2')).statusCode).toBe(200);
  });

  it('counts parallel guesses before any of them is checked', async () => {
    const email = demoEmail('client-admin');
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => attempt(email, 'wrong-password', '10.0.6.1')),
    );
    const codes = replies.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array(maxFailures).fill(401), ...Array(10 - maxFailures).fill(429)]);
  });

  it('shares the count with site login', async () => {
    const email = demoEmail('client-admin');
    for (let i = 0; i < maxFailures; i++) await attempt(email, 'wrong-password', '10.0.3.1');
    const response = await app.inject({
      method: 'POST',
      url: `/api/sites/${demo.siteId}/login`,
      payload: { email, password: DEMO_PASSWORD },
      remoteAddress: '10.0.3.1',
    });
    expect(response.statusCode).toBe(429);
  });

  it('does not count requests refused as invalid input', async () => {
    const email = demoEmail('super-admin');
    for (let i = 0; i < maxFailures + 2; i++) {
      expect((await attempt(email, 'x'.repeat(200), '10.0.4.1')).statusCode).toBe(422);
    }
    expect((await attempt(email, DEMO_PASSWORD, '10.0.4.1')).statusCode).toBe(200);
  });
});

describe('login in production', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWith({ production: true });
  });
  afterAll(() => app.close());

  it('refuses the demo password for demo accounts', async () => {
    const response = await login(
      { email: demoEmail('super-admin'), password: DEMO_PASSWORD },
      undefined,
      app,
    );
    expect(response.statusCode).toBe(401);
    expect(response.json.message).toBe(INVALID);
  });

  it('still signs in other accounts', async () => {
    // The other tenant's accounts happen to use the same password; they are not demo accounts.
    const response = await login(
      { email: other.email('client-admin'), password: DEMO_PASSWORD },
      undefined,
      app,
    );
    expect(response.statusCode).toBe(200);
  });
});
