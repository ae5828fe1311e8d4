import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/tokens';
import { issueUserToken } from '../../server/auth/userTokens';
import { DEMO_CLIENT } from '../../server/db/demoSeed';
import { clients, users, userTokens } from '../../server/db/schema';
import { authMessages } from '../../src/domain/schemas/auth';
import { startTestApp, type TestApp } from './helpers/testApp';

let t: TestApp;
let clientId: number;
let invitations = 0;

beforeAll(async () => {
  t = await startTestApp();
  const [client] = await t.db.select().from(clients).where(eq(clients.name, DEMO_CLIENT));
  clientId = client.id;
});
afterAll(() => t.close());

/** What POST /invite leaves behind: an invited user with no password, and an e-mailed token. */
async function invite(): Promise<{ id: number; email: string; token: string }> {
  invitations += 1;
  const email = `invitee${invitations}@example.com`;
  const [user] = await t.db
    .insert(users)
    .values({ name: 'Invitee', email, role: 'site-engineer', status: 'invited', clientId })
    .returning();
  const token = await issueUserToken(t.db, user.id, 'invitation', t.config.tokenTtlHours);
  return { id: user.id, email, token };
}

const register = (token: string, payload: unknown) =>
  t.call(null, { method: 'POST', url: `/api/register/${token}`, payload: payload as object });

const login = (email: string, password: string) =>
  t.call(null, { method: 'POST', url: '/api/login', payload: { email, password } });

async function userRow(id: number) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  return row;
}

describe('POST /api/register/{token}', () => {
  it('sets the name and password, activates the user and replies it, then the user can log in', async () => {
    const invitee = await invite();
    expect((await login(invitee.email, 'chosen-password')).statusCode).toBe(401);

    const response = await register(invitee.token, { name: '  Rania Haddad ', password: 'chosen-password' });
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({
      status: 'success',
      message: authMessages.registered,
      data: {
        id: invitee.id,
        name: 'Rania Haddad',
        email: invitee.email,
        user_role: 'site-engineer',
        permissions: [],
        locale: 'en',
        last_client_id: null,
        last_site_id: null,
      },
    });
    const row = await userRow(invitee.id);
    expect(row.status).toBe('active');
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);

    const signedIn = await login(invitee.email, 'chosen-password');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json.data.user.name).toBe('Rania Haddad');
  });

  it('refuses a used invitation', async () => {
    const invitee = await invite();
    expect((await register(invitee.token, { name: 'First', password: 'first-password' })).statusCode).toBe(
      200,
    );
    const again = await register(invitee.token, { name: 'Second', password: 'second-password' });
    expect(again.statusCode).toBe(400);
    expect(again.json).toEqual({ status: 'error', message: authMessages.invalidLink });
    expect((await userRow(invitee.id)).name).toBe('First');
  });

  it('refuses an expired invitation and leaves the user invited', async () => {
    const invitee = await invite();
    await t.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.tokenHash, hashToken(invitee.token)));
    const response = await register(invitee.token, { name: 'Late', password: 'late-password' });
    expect(response.statusCode).toBe(400);
    expect(response.json.message).toBe(authMessages.invalidLink);
    const row = await userRow(invitee.id);
    expect(row).toMatchObject({ status: 'invited', passwordHash: null, name: 'Invitee' });
  });

  it('refuses an earlier invitation once the user was re-invited', async () => {
    const invitee = await invite();
    const reinvitation = await issueUserToken(t.db, invitee.id, 'invitation', t.config.tokenTtlHours);
    expect((await register(invitee.token, { name: 'Old link', password: 'old-password' })).statusCode).toBe(
      400,
    );
    expect((await register(reinvitation, { name: 'New link', password: 'new-password' })).statusCode).toBe(
      200,
    );
  });

  it('refuses an unknown token, an oversized one and a password-reset token', async () => {
    expect((await register('no-such-token', { name: 'X', password: 'password-1' })).statusCode).toBe(400);
    expect((await register('t'.repeat(100), { name: 'X', password: 'password-1' })).statusCode).toBe(400);
    expect((await register('t'.repeat(1000), { name: 'X', password: 'password-1' })).statusCode).toBe(414);
    const invitee = await invite();
    const resetToken = await issueUserToken(t.db, invitee.id, 'password-reset', 1);
    const response = await register(resetToken, { name: 'X', password: 'password-1' });
    expect(response.statusCode).toBe(400);
    expect((await userRow(invitee.id)).status).toBe('invited');
  });

  it('refuses a user deactivated since the invitation', async () => {
    const invitee = await invite();
    await t.db.update(users).set({ status: 'inactive' }).where(eq(users.id, invitee.id));
    const response = await register(invitee.token, { name: 'Too late', password: 'password-1' });
    expect(response.statusCode).toBe(400);
    expect(response.json.message).toBe(authMessages.invalidLink);
    expect(await userRow(invitee.id)).toMatchObject({ status: 'inactive', passwordHash: null });
  });

  it('answers missing, blank, oversized or mistyped fields with 422 and keeps the invitation usable', async () => {
    const invitee = await invite();
    const cases: [unknown, Record<string, string>][] = [
      [{}, { name: 'Name is required', password: 'Password is required' }],
      [{ name: '', password: 'password-1' }, { name: 'Name is required' }],
      [{ name: '    ', password: 'password-1' }, { name: 'Name is required' }],
      [
        { name: 'n'.repeat(101), password: 'password-1' },
        { name: 'Name accepts a maximum of 100 characters' },
      ],
      [{ name: 'Ok', password: 'short' }, { password: 'Password accepts a minimum of 8 characters' }],
      [
        { name: 'Ok', password: 'p'.repeat(129) },
        { password: 'Password accepts a maximum of 128 characters' },
      ],
      [
        { name: 42, password: 12345678 },
        { name: 'Name is invalid', password: 'Password is invalid' },
      ],
    ];
    for (const [payload, errors] of cases) {
      const response = await register(invitee.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json.errors).toEqual(errors);
    }
    const noBody = await t.call(null, { method: 'POST', url: `/api/register/${invitee.token}` });
    expect(noBody.statusCode).toBe(422);
    const malformed = await t.call(null, {
      method: 'POST',
      url: `/api/register/${invitee.token}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "x",',
    });
    expect(malformed.statusCode).toBe(400);
    const ok = await register(invitee.token, { name: 'n'.repeat(100), password: 'p'.repeat(8) });
    expect(ok.statusCode).toBe(200);
  });
});
