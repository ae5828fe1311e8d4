import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../server/auth/passwords';
import { sessions, users, userTokens } from '../../server/db/schema';
import type { OtherTenant } from './helpers/otherTenant';
import { addUser, sessionFor } from './helpers/sessionFor';
import type { TestApp } from './helpers/testApp';
import {
  startUserManagementFixture,
  type UserManagementFixture,
  userManagementRequests,
} from './helpers/userManagementFixture';

describe('user management: /api/users', () => {
  let t: TestApp;
  let other: OtherTenant;
  let demo: UserManagementFixture['demo'];
  let tokens: UserManagementFixture['tokens'];

  beforeAll(async () => {
    ({ t, other, demo, tokens } = await startUserManagementFixture());
  });
  afterAll(() => t.close());

  const { get, post, demoUser } = userManagementRequests(() => ({ t, demo }));

  describe('activate and deactivate', () => {
    it('deactivates at once: the user is inactive, its sessions revoked, its links unusable', async () => {
      const user = await addUser(t.db, {
        role: 'group-of-sites-viewer',
        clientId: demo.clientId,
        groupOfSitesId: demo.groupOfSitesId,
        siteIds: [demo.siteId],
        password: 'a-long-password',
      });
      const token = await sessionFor(t.db, user.id);
      const second = await sessionFor(t.db, user.id);
      expect((await get(token, `/api/users/${user.id}/sites`)).statusCode).toBe(200);
      await t.db.insert(userTokens).values({
        userId: user.id,
        purpose: 'password-reset',
        tokenHash: 'unused',
        expiresAt: new Date(Date.now() + 1e6),
      });

      const response = await post(tokens['client-admin'], `/api/users/${user.id}/deactivate`);
      expect(response.statusCode).toBe(200);
      expect(response.json.message).toBe('User is deactivated successfully');
      expect(response.json.data).toMatchObject({ id: user.id, status: 'inactive' });

      const rows = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(rows).toHaveLength(2);
      expect(rows.every((s) => s.revokedAt !== null)).toBe(true);
      expect((await get(token, `/api/users/${user.id}/sites`)).statusCode).toBe(401);
      expect((await get(second, `/api/users/${user.id}/clients`)).statusCode).toBe(401);
      const links = await t.db.select().from(userTokens).where(eq(userTokens.userId, user.id));
      expect(links.every((l) => l.usedAt !== null)).toBe(true);

      const activated = await post(tokens['client-admin'], `/api/users/${user.id}/activate`);
      expect(activated.statusCode).toBe(200);
      expect(activated.json.message).toBe('User is activated successfully');
      expect(activated.json.data).toMatchObject({ id: user.id, status: 'active' });
      // Revoked sessions stay revoked: the user signs in again.
      expect((await get(token, `/api/users/${user.id}/sites`)).statusCode).toBe(401);
      expect((await get(await sessionFor(t.db, user.id), `/api/users/${user.id}/sites`)).statusCode).toBe(
        200,
      );
    });

    it('does not activate a user who never registered', async () => {
      const user = await addUser(t.db, { role: 'crew-manager', clientId: demo.clientId });
      const response = await post(tokens['client-admin'], `/api/users/${user.id}/activate`);
      expect(response.statusCode).toBe(409);
      expect(response.json.message).toBe('User has not registered yet');
      const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
      expect(row.status).toBe('invited');
    });

    it('does not let a user deactivate itself', async () => {
      const response = await post(
        tokens['client-admin'],
        `/api/users/${demoUser('client-admin')}/deactivate`,
      );
      expect(response.statusCode).toBe(422);
      expect(response.json.message).toBe('You cannot deactivate yourself');
    });

    it('answers 404 across tenants, 403 to other roles and 422 to bad ids', async () => {
      for (const action of ['activate', 'deactivate']) {
        const foreign = await post(
          tokens['client-admin'],
          `/api/users/${other.userIds['group-of-sites-viewer']}/${action}`,
        );
        expect(foreign.statusCode).toBe(404);
        expect(
          (await post(tokens['group-of-sites-admin'], `/api/users/${demoUser('client-admin')}/${action}`))
            .statusCode,
        ).toBe(404);
        expect(
          (await post(tokens.viewer, `/api/users/${demoUser('crew-manager')}/${action}`)).statusCode,
        ).toBe(403);
        expect(
          (await post(tokens.crew, `/api/users/${demoUser('site-engineer')}/${action}`)).statusCode,
        ).toBe(403);
        expect((await post(tokens['client-admin'], `/api/users/abc/${action}`)).statusCode).toBe(422);
      }
      const [row] = await t.db
        .select()
        .from(users)
        .where(eq(users.id, other.userIds['group-of-sites-viewer']));
      expect(row.status).toBe('active');
    });
  });

  describe('POST /users/{id}/reset-password', () => {
    it('sets the password and revokes the sessions of the user', async () => {
      const user = await addUser(t.db, {
        role: 'site-engineer',
        clientId: demo.clientId,
        groupOfSitesId: demo.groupOfSitesId,
        siteIds: [demo.siteId],
        password: 'the-old-password',
      });
      const token = await sessionFor(t.db, user.id);
      const response = await post(tokens['group-of-sites-admin'], `/api/users/${user.id}/reset-password`, {
        password: 'a-brand-new-password',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({ status: 'success', message: 'Password is updated successfully' });
      const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
      expect(await verifyPassword(row.passwordHash, 'a-brand-new-password')).toBe(true);
      expect(row.passwordHash).toMatch(/^\$argon2id\$/);
      expect((await get(token, `/api/users/${user.id}/sites`)).statusCode).toBe(401);
      const login = await t.call(null, {
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: 'a-brand-new-password' },
      });
      expect(login.statusCode).toBe(200);
    });

    it("keeps the caller's own session when it resets its own password", async () => {
      const admin = await addUser(t.db, {
        role: 'client-admin',
        clientId: demo.clientId,
        password: 'first-password',
      });
      const mine = await sessionFor(t.db, admin.id);
      const elsewhere = await sessionFor(t.db, admin.id);
      const response = await post(mine, `/api/users/${admin.id}/reset-password`, {
        password: 'second-password',
      });
      expect(response.statusCode).toBe(200);
      expect((await get(mine, '/api/users')).statusCode).toBe(200);
      expect((await get(elsewhere, '/api/users')).statusCode).toBe(401);
    });

    it('refuses bad passwords with 422, other tenants with 404 and other roles with 403', async () => {
      const target = demoUser('crew-manager');
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'Password is required'],
        [{ password: 'short' }, 'Password accepts a minimum of 8 characters'],
        [{ password: 'x'.repeat(129) }, 'Password accepts a maximum of 128 characters'],
        [{ password: { p: 1 } }, 'Password is invalid'],
      ];
      for (const [payload, message] of cases) {
        const response = await post(tokens['client-admin'], `/api/users/${target}/reset-password`, payload);
        expect(response.statusCode).toBe(422);
        expect(response.json.errors).toEqual({ password: message });
      }
      const body = { password: 'a-long-password' };
      const foreign = await post(
        tokens['client-admin'],
        `/api/users/${other.userIds['group-of-sites-viewer']}/reset-password`,
        body,
      );
      expect(foreign.statusCode).toBe(404);
      expect((await post(tokens.viewer, `/api/users/${target}/reset-password`, body)).statusCode).toBe(403);
      expect((await post(tokens.crew, `/api/users/${target}/reset-password`, body)).statusCode).toBe(403);
      const [row] = await t.db.select().from(users).where(eq(users.id, target));
      expect(await verifyPassword(row.passwordHash, 'sitewatch-demo')).toBe(true);
    });
  });
});
