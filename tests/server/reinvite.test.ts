import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/tokens';
import { consumeUserToken } from '../../server/auth/userTokens';
import { userTokens } from '../../server/db/schema';
import { invitationRequests } from './helpers/invitations';
import type { OtherTenant } from './helpers/otherTenant';
import { addUser } from './helpers/sessionFor';
import type { TestApp } from './helpers/testApp';
import { startUserManagementFixture, type UserManagementFixture } from './helpers/userManagementFixture';

describe('POST /api/invite and POST /api/users/{id}/reinvite', () => {
  let t: TestApp;
  let other: OtherTenant;
  let demo: UserManagementFixture['demo'];
  let tokens: UserManagementFixture['tokens'];

  beforeAll(async () => {
    ({ t, other, demo, tokens } = await startUserManagementFixture());
  });
  afterAll(() => t.close());

  const { invite, outboxFor, tokenOf } = invitationRequests(() => t);
  const reinvite = (token: string, id: number | string) =>
    t.call(token, { method: 'POST', url: `/api/users/${id}/reinvite` });

  describe('reinvite', () => {
    it('issues a new link and makes the previous one unusable', async () => {
      const invited = await invite(tokens['client-admin'], {
        name: 'Rita Reinvite',
        email: 'rita@example.test',
        user_role: 'site-engineer',
        site_ids: [demo.siteId],
      });
      const id = invited.json.data[0].id as number;
      const [first] = await outboxFor('rita@example.test');

      const response = await reinvite(tokens['client-admin'], id);
      expect(response.statusCode).toBe(200);
      expect(response.json.message).toBe('Invitation is sent successfully');
      expect(response.json.data).toMatchObject({ id, status: 'invited' });

      const mails = await outboxFor('rita@example.test');
      expect(mails).toHaveLength(2);
      expect(mails[1].link).not.toBe(first.link);
      const issued = await t.db
        .select()
        .from(userTokens)
        .where(and(eq(userTokens.userId, id), eq(userTokens.purpose, 'invitation')))
        .orderBy(asc(userTokens.id));
      expect(issued).toHaveLength(2);
      expect(issued[0].tokenHash).toBe(hashToken(tokenOf(first.link)));
      expect(issued[0].usedAt).not.toBeNull();
      expect(issued[1].usedAt).toBeNull();

      expect(await consumeUserToken(t.db, tokenOf(first.link), 'invitation')).toBeNull();
      expect(await consumeUserToken(t.db, tokenOf(mails[1].link), 'invitation')).toBe(id);
    });

    it('refuses a user who already registered with 409', async () => {
      const response = await reinvite(tokens['client-admin'], demo.userIds['crew-manager']);
      expect(response.statusCode).toBe(409);
      expect(response.json.message).toBe('User is already registered');
    });

    it('invites again a user deactivated before registering', async () => {
      const user = await addUser(t.db, { role: 'crew-manager', clientId: demo.clientId, status: 'inactive' });
      const response = await reinvite(tokens['client-admin'], user.id);
      expect(response.statusCode).toBe(200);
      expect(response.json.data.status).toBe('invited');
      expect(await outboxFor(user.email)).toHaveLength(1);
    });

    it('answers 404 outside the caller reach, 403 to roles without user management, 422 for bad ids', async () => {
      const pending = await addUser(t.db, {
        role: 'crew-manager',
        clientId: demo.clientId,
        groupOfSitesId: demo.groupOfSitesId,
        siteIds: [demo.siteId],
      });
      const foreign = await reinvite(tokens.otherSiteAdmin, pending.id);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json.message).toBe('User not found');
      expect(
        (await reinvite(tokens['client-admin'], other.userIds['group-of-sites-viewer'])).statusCode,
      ).toBe(404);
      expect((await reinvite(tokens['client-admin'], 999_999)).statusCode).toBe(404);
      expect((await reinvite(tokens.viewer, pending.id)).statusCode).toBe(403);
      expect((await reinvite(tokens.crew, pending.id)).statusCode).toBe(403);
      expect((await reinvite(tokens['client-admin'], 'abc')).statusCode).toBe(422);
      expect((await reinvite(tokens['client-admin'], 2 ** 40)).statusCode).toBe(422);
      expect(await outboxFor(pending.email)).toHaveLength(0);
    });
  });
});
