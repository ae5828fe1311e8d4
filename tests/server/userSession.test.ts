import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/tokens';
import { demoEmail } from '../../server/db/demoSeed';
import { sessions, users } from '../../server/db/schema';
import { authMessages } from '../../src/domain/schemas/auth';
import { startAuthFixture } from './helpers/authFixture';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';

let t: TestApp;
let other: OtherTenant;
let demo: { siteId: number; clientId: number; groupId: number };

beforeAll(async () => {
  ({ t, other, demo } = await startAuthFixture());
});
afterAll(() => t.close());

describe('sessions: GET /api/user and GET /api/logout', () => {
  it('answers 401 without a token, with an unknown one or an expired one', async () => {
    expect((await t.call(null, { method: 'GET', url: '/api/user' })).statusCode).toBe(401);
    expect((await t.call('not-a-token', { method: 'GET', url: '/api/user' })).statusCode).toBe(401);
    expect((await t.call(null, { method: 'GET', url: '/api/logout' })).statusCode).toBe(401);
    const token = await t.loginAs('site-engineer');
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect((await t.call(token, { method: 'GET', url: '/api/user' })).statusCode).toBe(401);
  });

  it('replies the caller as an ApiUser', async () => {
    const token = await t.loginAs('client-admin');
    const response = await t.call(token, { method: 'GET', url: '/api/user' });
    expect(response.statusCode).toBe(200);
    expect(response.json.data).toMatchObject({
      email: demoEmail('client-admin'),
      user_role: 'client-admin',
      permissions: [],
      locale: 'en',
    });
  });

  it('revokes the session at once on logout, and only that session', async () => {
    const token = await t.loginAs('group-of-sites-admin');
    const otherDevice = await t.loginAs('group-of-sites-admin');
    expect((await t.call(token, { method: 'GET', url: '/api/user' })).statusCode).toBe(200);
    const response = await t.call(token, { method: 'GET', url: '/api/logout' });
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ status: 'success', message: authMessages.loggedOut });
    const after = await t.call(token, { method: 'GET', url: '/api/user' });
    expect(after.statusCode).toBe(401);
    expect((await t.call(token, { method: 'GET', url: '/api/logout' })).statusCode).toBe(401);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(row.revokedAt).toBeInstanceOf(Date);
    expect((await t.call(otherDevice, { method: 'GET', url: '/api/user' })).statusCode).toBe(200);
  });

  it('stops accepting the token of a user deactivated since', async () => {
    const token = await t.loginAs('safety-demo');
    const who = eq(users.email, demoEmail('safety-demo'));
    await t.db.update(users).set({ status: 'inactive' }).where(who);
    expect((await t.call(token, { method: 'GET', url: '/api/user' })).statusCode).toBe(401);
    await t.db.update(users).set({ status: 'active' }).where(who);
  });
});

describe('POST /api/users/preferences', () => {
  let token: string;
  const setLocale = (payload: unknown) =>
    t.call(token, { method: 'POST', url: '/api/users/preferences', payload: payload as object });

  beforeAll(async () => {
    token = await t.loginAs('group-of-sites-viewer');
  });

  it('stores the locale and replies the user; the next login forces en again', async () => {
    const response = await setLocale({ locale: 'ar' });
    expect(response.statusCode).toBe(200);
    expect(response.json.data).toMatchObject({ locale: 'ar', user_role: 'group-of-sites-viewer' });
    expect((await t.call(token, { method: 'GET', url: '/api/user' })).json.data.locale).toBe('ar');
    const again = await t.loginAs('group-of-sites-viewer');
    expect((await t.call(again, { method: 'GET', url: '/api/user' })).json.data.locale).toBe('en');
  });

  it('answers another locale, a missing one or a wrong type with 422', async () => {
    const french = await setLocale({ locale: 'fr' });
    expect(french.statusCode).toBe(422);
    expect(french.json.errors).toEqual({ locale: 'Locale is invalid' });
    expect((await setLocale({})).json.errors).toEqual({ locale: 'Locale is required' });
    expect((await setLocale({ locale: ['en'] })).statusCode).toBe(422);
    expect((await setLocale({ locale: 'EN' })).statusCode).toBe(422);
  });

  it('answers 401 without a token', async () => {
    const response = await t.call(null, {
      method: 'POST',
      url: '/api/users/preferences',
      payload: { locale: 'en' },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/users/recently-visited', () => {
  let token: string;
  const visit = (payload: unknown, as = token) =>
    t.call(as, { method: 'POST', url: '/api/users/recently-visited', payload: payload as object });

  beforeAll(async () => {
    token = await t.loginAs('group-of-sites-admin');
  });

  it('stores a visible client and site and replies the user', async () => {
    const response = await visit({ client_id: demo.clientId, site_id: demo.siteId });
    expect(response.statusCode).toBe(200);
    expect(response.json.data).toMatchObject({ last_client_id: demo.clientId, last_site_id: demo.siteId });
    const me = await t.call(token, { method: 'GET', url: '/api/user' });
    expect(me.json.data).toMatchObject({ last_client_id: demo.clientId, last_site_id: demo.siteId });
  });

  it('accepts nulls, clearing what was stored', async () => {
    const clientOnly = await visit({ client_id: demo.clientId, site_id: null });
    expect(clientOnly.json.data).toMatchObject({ last_client_id: demo.clientId, last_site_id: null });
    const none = await visit({ client_id: null, site_id: null });
    expect(none.statusCode).toBe(200);
    expect(none.json.data).toMatchObject({ last_client_id: null, last_site_id: null });
  });

  it('answers 404 for another tenant’s site or client and stores nothing', async () => {
    await visit({ client_id: demo.clientId, site_id: demo.siteId });
    const site = await visit({ client_id: null, site_id: other.siteId });
    expect(site.statusCode).toBe(404);
    expect(site.json).toEqual({ status: 'error', message: 'Site not found' });
    const client = await visit({ client_id: other.clientId, site_id: null });
    expect(client.statusCode).toBe(404);
    expect(client.json.message).toBe('Client not found');
    expect((await visit({ client_id: null, site_id: 999_999 })).statusCode).toBe(404);
    const me = await t.call(token, { method: 'GET', url: '/api/user' });
    expect(me.json.data).toMatchObject({ last_client_id: demo.clientId, last_site_id: demo.siteId });
  });

  it('lets a super-admin remember any tenant’s site', async () => {
    const superAdmin = await t.loginAs('super-admin');
    const response = await visit({ client_id: other.clientId, site_id: other.siteId }, superAdmin);
    expect(response.statusCode).toBe(200);
    expect(response.json.data.last_site_id).toBe(other.siteId);
  });

  it('refuses a site of another client than the one given', async () => {
    const superAdmin = await t.loginAs('super-admin');
    const response = await visit({ client_id: demo.clientId, site_id: other.siteId }, superAdmin);
    expect(response.statusCode).toBe(422);
    expect(response.json.errors).toEqual({ site_id: authMessages.siteOutsideClient });
  });

  it('answers strings, other types and missing fields with 422', async () => {
    const strings = await visit({ client_id: String(demo.clientId), site_id: String(demo.siteId) });
    expect(strings.statusCode).toBe(422);
    expect(strings.json.errors).toEqual({ client_id: 'Client id is invalid', site_id: 'Site id is invalid' });
    for (const payload of [
      { client_id: true, site_id: null },
      { client_id: null, site_id: '' },
      { client_id: 1.5, site_id: null },
      { client_id: 0, site_id: null },
      { client_id: null, site_id: 2 ** 31 },
      { client_id: null, site_id: [demo.siteId] },
    ]) {
      expect((await visit(payload)).statusCode, JSON.stringify(payload)).toBe(422);
    }
    const missing = await visit({});
    expect(missing.json.errors).toEqual({
      client_id: 'Client id is required',
      site_id: 'Site id is required',
    });
  });
});
