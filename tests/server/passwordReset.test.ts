import { and, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../server/auth/passwords';
import { hashToken } from '../../server/auth/tokens';
import { issueUserToken } from '../../server/auth/userTokens';
import { demoEmail } from '../../server/db/demoSeed';
import { emailOutbox, sessions, users, userTokens } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import { authMessages } from '../../src/domain/schemas/auth';
import { startTestApp, type TestApp } from './helpers/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const forgot = (payload: unknown) =>
  t.call(null, { method: 'POST', url: '/api/forgot-password', payload: payload as object });

const reset = (token: string, payload: unknown) =>
  t.call(null, { method: 'POST', url: `/api/reset-password/${token}`, payload: payload as object });

async function outboxFor(address: string) {
  return t.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, address))
    .orderBy(desc(emailOutbox.id));
}

/** Asks for a reset link and returns the token the e-mail carries. */
async function resetTokenFor(role: Role): Promise<string> {
  await forgot({ email: demoEmail(role) });
  const [mail] = await outboxFor(demoEmail(role));
  const match = /\/reset-password\/([A-Za-z0-9_-]+)$/.exec(mail.link ?? '');
  if (!match) throw new Error(`no reset link in ${mail.link}`);
  return match[1];
}

async function userId(role: Role): Promise<number> {
  const [row] = await t.db
    .select()
    .from(users)
    .where(eq(users.email, demoEmail(role)));
  return row.id;
}

function loginStatus(role: Role, password: string) {
  return t
    .call(null, { method: 'POST', url: '/api/login', payload: { email: demoEmail(role), password } })
    .then((r) => r.statusCode);
}

describe('POST /api/forgot-password', () => {
  it('answers a registered and an unknown address identically, e-mailing only the registered one', async () => {
    const known = await forgot({ email: demoEmail('crew-manager') });
    const unknown = await forgot({ email: 'nobody@example.com' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(known.json).toEqual({ status: 'success', message: authMessages.resetLinkSent });

    const mails = await outboxFor(demoEmail('crew-manager'));
    expect(mails).toHaveLength(1);
    expect(mails[0].link).toMatch(/^http:\/\/sitewatch\.test\/reset-password\/[A-Za-z0-9_-]{43}$/);
    expect(mails[0].body).toContain(mails[0].link);
    expect(await outboxFor('nobody@example.com')).toHaveLength(0);
  });

  it('stores only the hash of the e-mailed token, expiring after the token lifetime', async () => {
    const token = await resetTokenFor('site-engineer');
    const [row] = await t.db
      .select()
      .from(userTokens)
      .where(eq(userTokens.tokenHash, hashToken(token)));
    expect(row).toMatchObject({
      purpose: 'password-reset',
      usedAt: null,
      userId: await userId('site-engineer'),
    });
    const expected = Date.now() + t.config.tokenTtlHours * 3600_000;
    expect(Math.abs(row.expiresAt.getTime() - expected)).toBeLessThan(60_000);
  });

  it('matches the address case-insensitively and trimmed', async () => {
    await forgot({ email: '  SAFETY-DEMO@demo.sitewatch.dev ' });
    const mails = await outboxFor(demoEmail('safety-demo'));
    expect(mails).toHaveLength(1);
  });

  it('answers a deactivated or invited user alike and e-mails neither', async () => {
    await t.db
      .update(users)
      .set({ status: 'inactive' })
      .where(eq(users.email, demoEmail('client-admin')));
    const [client] = await t.db
      .select({ id: users.clientId })
      .from(users)
      .where(eq(users.email, demoEmail('client-admin')));
    await t.db.insert(users).values({
      name: 'Invited',
      email: 'invited@example.com',
      role: 'site-engineer',
      status: 'invited',
      clientId: client.id,
    });
    const inactive = await forgot({ email: demoEmail('client-admin') });
    const invited = await forgot({ email: 'invited@example.com' });
    for (const response of [inactive, invited]) {
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({ status: 'success', message: authMessages.resetLinkSent });
    }
    expect(await outboxFor(demoEmail('client-admin'))).toHaveLength(0);
    expect(await outboxFor('invited@example.com')).toHaveLength(0);
    await t.db
      .update(users)
      .set({ status: 'active' })
      .where(eq(users.email, demoEmail('client-admin')));
  });

  it('answers a missing, mistyped or oversized address with 422', async () => {
    expect((await forgot({})).json.errors).toEqual({ email: 'Email is required' });
    expect((await forgot({ email: '' })).json.errors).toEqual({ email: 'Email is required' });
    expect((await forgot({ email: 7 })).statusCode).toBe(422);
    const long = await forgot({ email: `${'a'.repeat(250)}@x.io` });
    expect(long.statusCode).toBe(422);
    expect(long.json.errors).toEqual({ email: 'Email accepts a maximum of 254 characters' });
    const malformed = await t.call(null, {
      method: 'POST',
      url: '/api/forgot-password',
      headers: { 'content-type': 'application/json' },
      payload: '{"email"',
    });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('POST /api/reset-password/{token}', () => {
  it('sets the password, revokes every session of the user and answers in the spec’s style', async () => {
    const first = await t.loginAs('group-of-sites-viewer');
    const second = await t.loginAs('group-of-sites-viewer');
    const bystander = await t.loginAs('super-admin');
    const token = await resetTokenFor('group-of-sites-viewer');

    const response = await reset(token, { password: 'a-new-password' });
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ status: 'success', message: authMessages.passwordUpdated });

    for (const old of [first, second]) {
      expect((await t.call(old, { method: 'GET', url: '/api/user' })).statusCode).toBe(401);
    }
    expect((await t.call(bystander, { method: 'GET', url: '/api/user' })).statusCode).toBe(200);
    const open = await t.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, await userId('group-of-sites-viewer')), isNull(sessions.revokedAt)));
    expect(open).toHaveLength(0);

    expect(await loginStatus('group-of-sites-viewer', DEMO_PASSWORD)).toBe(401);
    expect(await loginStatus('group-of-sites-viewer', 'a-new-password')).toBe(200);
    const [row] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, demoEmail('group-of-sites-viewer')));
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a used link', async () => {
    const token = await resetTokenFor('crew-manager');
    expect((await reset(token, { password: 'first-new-password' })).statusCode).toBe(200);
    const again = await reset(token, { password: 'second-new-password' });
    expect(again.statusCode).toBe(400);
    expect(again.json).toEqual({ status: 'error', message: authMessages.invalidLink });
    expect(await loginStatus('crew-manager', 'first-new-password')).toBe(200);
  });

  it('refuses an expired link and changes nothing', async () => {
    const session = await t.loginAs('group-of-sites-admin');
    const token = await resetTokenFor('group-of-sites-admin');
    await t.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.tokenHash, hashToken(token)));
    const response = await reset(token, { password: 'never-applied' });
    expect(response.statusCode).toBe(400);
    expect(response.json.message).toBe(authMessages.invalidLink);
    expect((await t.call(session, { method: 'GET', url: '/api/user' })).statusCode).toBe(200);
    expect(await loginStatus('group-of-sites-admin', DEMO_PASSWORD)).toBe(200);
  });

  it('refuses an earlier link once a newer one was sent', async () => {
    const older = await resetTokenFor('safety-demo');
    const newer = await resetTokenFor('safety-demo');
    expect(older).not.toBe(newer);
    expect((await reset(older, { password: 'from-old-link' })).statusCode).toBe(400);
    expect((await reset(newer, { password: 'from-new-link' })).statusCode).toBe(200);
  });

  it('refuses an unknown, oversized or invitation token', async () => {
    expect((await reset('not-a-token', { password: 'whatever-123' })).statusCode).toBe(400);
    const long = await reset('x'.repeat(100), { password: 'whatever-123' });
    expect(long.json).toEqual({ status: 'error', message: authMessages.invalidLink });
    // Longer than Fastify's maxParamLength: the router refuses it before the route.
    expect((await reset('x'.repeat(1000), { password: 'whatever-123' })).statusCode).toBe(414);
    const invitation = await issueUserToken(t.db, await userId('site-engineer'), 'invitation', 1);
    expect((await reset(invitation, { password: 'whatever-123' })).statusCode).toBe(400);
  });

  it('answers a missing, short, long or mistyped password with 422 and keeps the link usable', async () => {
    const token = await resetTokenFor('super-admin');
    expect((await reset(token, {})).json.errors).toEqual({ password: 'Password is required' });
    expect((await reset(token, { password: 'short' })).json.errors).toEqual({
      password: 'Password accepts a minimum of 8 characters',
    });
    expect((await reset(token, { password: 'p'.repeat(129) })).json.errors).toEqual({
      password: 'Password accepts a maximum of 128 characters',
    });
    const numeric = await reset(token, { password: 123456789 });
    expect(numeric.statusCode).toBe(422);
    expect(numeric.json.errors).toEqual({ password: 'Password is invalid' });
    expect((await reset(token, { password: 'p'.repeat(128) })).statusCode).toBe(200);
  });
});

describe('reset e-mails are limited per address and client address', () => {
  it('stops e-mailing after the limit while the reply stays the same', async () => {
    const address = demoEmail('safety-demo');
    const before = (await outboxFor(address)).length;
    const replies = [];
    for (let i = 0; i < t.config.loginMaxFailures + 3; i++) {
      const reply = await t.call(null, {
        method: 'POST',
        url: '/api/forgot-password',
        payload: { email: address },
        remoteAddress: '203.0.113.9',
      });
      replies.push(reply.body);
    }
    expect(new Set(replies).size).toBe(1);
    expect(await outboxFor(address)).toHaveLength(before + t.config.loginMaxFailures);
    // Another client address is not held back by the first one's flood.
    await t.call(null, {
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: address },
      remoteAddress: '198.51.100.4',
    });
    expect(await outboxFor(address)).toHaveLength(before + t.config.loginMaxFailures + 1);
  });
});
