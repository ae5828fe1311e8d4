import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/tokens';
import { groupsOfSites, userSites, users, userTokens } from '../../server/db/schema';
import { invitationRequests } from './helpers/invitations';
import type { OtherTenant } from './helpers/otherTenant';
import type { TestApp } from './helpers/testApp';
import { startUserManagementFixture, type UserManagementFixture } from './helpers/userManagementFixture';

describe('POST /api/invite and POST /api/users/{id}/reinvite', () => {
  let t: TestApp;
  let other: OtherTenant;
  let demo: UserManagementFixture['demo'];
  let towerB: number;
  let tokens: UserManagementFixture['tokens'];

  beforeAll(async () => {
    ({ t, other, demo, towerB, tokens } = await startUserManagementFixture());
  });
  afterAll(() => t.close());

  const { invite, outboxFor, tokenOf } = invitationRequests(() => t);

  const userByEmail = async (email: string) => {
    const [row] = await t.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
    return row;
  };

  it('creates an invited user without a password, its memberships and its invitation e-mail', async () => {
    const response = await invite(tokens['client-admin'], {
      name: '  Nadia Viewer ',
      email: 'Nadia.Viewer@Example.test',
      user_role: 'group-of-sites-viewer',
      site_ids: [demo.siteId, demo.siteId],
      group_of_sites_id: demo.groupOfSitesId,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json.status).toBe('success');
    expect(response.json.message).toBe('User is invited successfully');
    const [user] = response.json.data;
    expect(user).toEqual({
      id: expect.any(Number),
      key: user.id,
      name: 'Nadia Viewer',
      email: 'nadia.viewer@example.test',
      user_role: 'group-of-sites-viewer',
      status: 'invited',
      client_id: demo.clientId,
      group_of_sites_id: demo.groupOfSitesId,
      clients: [{ id: demo.clientId, name: 'Demo Construction Co' }],
      sites: [{ id: demo.siteId, name: 'Tower A' }],
      site_ids: [demo.siteId],
      registered: false,
    });

    const row = await userByEmail('nadia.viewer@example.test');
    expect(row.status).toBe('invited');
    expect(row.passwordHash).toBeNull();
    const memberships = await t.db.select().from(userSites).where(eq(userSites.userId, user.id));
    expect(memberships.map((m) => m.siteId)).toEqual([demo.siteId]);

    const [mail] = await outboxFor('nadia.viewer@example.test');
    expect(mail.subject).toBe('You are invited to Sitewatch');
    expect(mail.link).toMatch(/^http:\/\/sitewatch\.test\/register\/[A-Za-z0-9_-]{43}$/);
    expect(mail.body).toContain(mail.link);
    const [issued] = await t.db.select().from(userTokens).where(eq(userTokens.userId, user.id));
    expect(issued).toMatchObject({
      purpose: 'invitation',
      usedAt: null,
      tokenHash: hashToken(tokenOf(mail.link)),
    });
    const ttlMs = issued.expiresAt.getTime() - Date.now();
    expect(ttlMs).toBeGreaterThan((t.config.tokenTtlHours - 1) * 3_600_000);
    expect(ttlMs).toBeLessThanOrEqual(t.config.tokenTtlHours * 3_600_000);
  });

  it('lets a super-admin invite into any client, and requires the client for client roles', async () => {
    const intoOther = await invite(tokens['super-admin'], {
      name: 'Otto Admin',
      email: 'otto@example.test',
      user_role: 'client-admin',
      client_id: other.clientId,
    });
    expect(intoOther.statusCode).toBe(200);
    expect(intoOther.json.data[0]).toMatchObject({ client_id: other.clientId, group_of_sites_id: null });
    expect(intoOther.json.data[0].clients).toEqual([{ id: other.clientId, name: 'Other Co' }]);

    const noClient = await invite(tokens['super-admin'], {
      name: 'Nobody',
      email: 'nobody@example.test',
      user_role: 'crew-manager',
    });
    expect(noClient.statusCode).toBe(422);
    expect(noClient.json).toMatchObject({
      status: 'error',
      message: 'Client is required',
      errors: { client_id: 'Client is required' },
    });

    const superAdmin = await invite(tokens['super-admin'], {
      name: 'Second Super',
      email: 'super2@example.test',
      user_role: 'super-admin',
      client_id: null,
    });
    expect(superAdmin.statusCode).toBe(200);
    expect(superAdmin.json.data[0]).toMatchObject({ user_role: 'super-admin', client_id: null });
    expect(superAdmin.json.data[0].clients.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['Demo Construction Co', 'Other Co']),
    );

    const unknownClient = await invite(tokens['super-admin'], {
      name: 'Lost',
      email: 'lost@example.test',
      user_role: 'crew-manager',
      client_id: 999_999,
    });
    expect(unknownClient.statusCode).toBe(404);
    expect(unknownClient.json.message).toBe('Client not found');
  });

  it('keeps a client-admin inside its own client and below super-admin', async () => {
    const otherClient = await invite(tokens['client-admin'], {
      name: 'Sneaky',
      email: 'sneaky@example.test',
      user_role: 'crew-manager',
      client_id: other.clientId,
    });
    expect(otherClient.statusCode).toBe(404);
    expect(otherClient.json.message).toBe('Client not found');

    const otherSite = await invite(tokens['client-admin'], {
      name: 'Sneaky',
      email: 'sneaky@example.test',
      user_role: 'crew-manager',
      site_ids: [demo.siteId, other.siteId],
    });
    expect(otherSite.statusCode).toBe(404);
    expect(otherSite.json.message).toBe('Site not found');

    const [otherGroup] = await t.db
      .select({ id: groupsOfSites.id })
      .from(groupsOfSites)
      .where(eq(groupsOfSites.clientId, other.clientId));
    const foreignGroup = await invite(tokens['client-admin'], {
      name: 'Sneaky',
      email: 'sneaky@example.test',
      user_role: 'crew-manager',
      group_of_sites_id: otherGroup.id,
    });
    expect(foreignGroup.statusCode).toBe(404);

    const superAdmin = await invite(tokens['client-admin'], {
      name: 'Climber',
      email: 'climber@example.test',
      user_role: 'super-admin',
    });
    expect(superAdmin.statusCode).toBe(403);
    expect(superAdmin.json.message).toBe('Not Authorized');
    expect(await userByEmail('sneaky@example.test')).toBeUndefined();
    expect(await userByEmail('climber@example.test')).toBeUndefined();

    const clientAdmin = await invite(tokens['client-admin'], {
      name: 'Peer Admin',
      email: 'peer@example.test',
      user_role: 'client-admin',
      site_ids: [demo.siteId],
    });
    expect(clientAdmin.statusCode).toBe(200);
    expect(clientAdmin.json.data[0]).toMatchObject({ client_id: demo.clientId, group_of_sites_id: null });
  });

  it('lets a site admin invite only site roles, into its group and its sites', async () => {
    const crew = await invite(tokens['group-of-sites-admin'], {
      name: 'Carl Crew',
      email: 'carl@example.test',
      user_role: 'crew-manager',
      site_ids: [demo.siteId],
    });
    expect(crew.statusCode).toBe(200);
    expect(crew.json.data[0]).toMatchObject({
      user_role: 'crew-manager',
      client_id: demo.clientId,
      group_of_sites_id: demo.groupOfSitesId,
    });

    for (const role of ['client-admin', 'super-admin']) {
      const response = await invite(tokens['group-of-sites-admin'], {
        name: 'Too High',
        email: `high-${role}@example.test`,
        user_role: role,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json.message).toBe('Not Authorized');
    }

    // Tower B is the demo client's, but outside the site admin's group of sites.
    for (const siteId of [towerB, other.siteId]) {
      const response = await invite(tokens['group-of-sites-admin'], {
        name: 'Elsewhere',
        email: 'elsewhere@example.test',
        user_role: 'site-engineer',
        site_ids: [siteId],
      });
      expect(response.statusCode).toBe(404);
      expect(response.json.message).toBe('Site not found');
    }
    expect(await userByEmail('elsewhere@example.test')).toBeUndefined();
  });

  it('refuses roles without user management with 403, and no token with 401', async () => {
    const body = { name: 'Nope', email: 'nope@example.test', user_role: 'crew-manager' };
    expect((await invite(tokens.viewer, body)).statusCode).toBe(403);
    expect((await invite(tokens.crew, body)).statusCode).toBe(403);
    // The role check comes before validation: a forbidden caller learns nothing from a bad body.
    expect((await invite(tokens.viewer, {})).statusCode).toBe(403);
    expect((await invite(null, body)).statusCode).toBe(401);
    expect(await userByEmail('nope@example.test')).toBeUndefined();
  });

  it('answers an address already taken inside the inviter reach, in any case, with 409', async () => {
    const response = await invite(tokens['client-admin'], {
      name: 'Copy',
      email: 'SITE-VIEWER@demo.sitewatch.dev',
      user_role: 'crew-manager',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json).toMatchObject({ status: 'error', message: 'Email already exists!' });
  });

  describe('an address whose account the inviter does not manage', () => {
    /** A reply with its generated parts (id) set aside: what is left must match a real invitation's. */
    const shapeOf = (json: { data?: unknown }) => ({
      ...json,
      data: (json.data as Record<string, unknown>[]).map(({ id, key, ...rest }) => ({
        id: typeof id,
        key: key === id,
        ...rest,
      })),
    });

    it('answers exactly like an invitation, and e-mails the account holder instead of changing anything', async () => {
      const holderEmail = other.email('client-admin');
      const before = await userByEmail(holderEmail);
      const [{ total: usersBefore }] = await t.db.select({ total: sql<number>`count(*)::int` }).from(users);
      const body = { name: 'Probe', user_role: 'crew-manager', site_ids: [demo.siteId] };

      const probe = await invite(tokens['client-admin'], { ...body, email: holderEmail.toUpperCase() });
      const fresh = await invite(tokens['client-admin'], { ...body, email: 'probe-fresh@example.test' });
      expect(probe.statusCode).toBe(fresh.statusCode);
      expect(probe.statusCode).toBe(200);
      expect(shapeOf(probe.json)).toEqual({
        ...shapeOf(fresh.json),
        data: [{ ...shapeOf(fresh.json).data[0], email: holderEmail }],
      });
      // Its id is a new user's id, as a fresh invitation's would be.
      expect(probe.json.data[0].id).toBeGreaterThan(before.id);

      expect(await userByEmail(holderEmail)).toEqual(before);
      const [{ total: usersAfter }] = await t.db.select({ total: sql<number>`count(*)::int` }).from(users);
      expect(usersAfter).toBe(usersBefore + 1); // only the fresh invitee
      expect(await t.db.select().from(userTokens).where(eq(userTokens.userId, before.id))).toEqual([]);
      const mails = await outboxFor(holderEmail);
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe('Someone tried to invite you to Sitewatch');
      expect(mails[0].body).toContain('Demo Construction Co');
      expect(mails[0].body).toContain('Nothing about your account has changed');
      expect(mails[0].link).toBeNull();
      expect(mails[0].body).not.toMatch(/register|reset-password/);
    });

    it('is the same for a site admin probing a client admin of its own client, and for a lost race', async () => {
      const clientAdmin = await userByEmail('client-admin@demo.sitewatch.dev');
      const response = await invite(tokens['group-of-sites-admin'], {
        name: 'Probe',
        email: clientAdmin.email,
        user_role: 'site-engineer',
        site_ids: [demo.siteId],
      });
      expect(response.statusCode).toBe(200);
      expect(response.json).toMatchObject({
        status: 'success',
        message: 'User is invited successfully',
        data: [{ email: clientAdmin.email, status: 'invited', user_role: 'site-engineer' }],
      });
      expect(await userByEmail(clientAdmin.email)).toEqual(clientAdmin);
      expect((await outboxFor(clientAdmin.email)).map((mail) => mail.subject)).toEqual([
        'Someone tried to invite you to Sitewatch',
      ]);

      // Another client's admin invites the same new address twice at once: the loser of the race
      // names an account it does manage (the winner), so it still hears 409.
      const body = { name: 'Twin', email: 'twin@example.test', user_role: 'crew-manager' };
      const [a, b] = await Promise.all([
        invite(tokens.otherClientAdmin, body),
        invite(tokens.otherClientAdmin, body),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      // The demo client then probes it: an ordinary-looking invitation, and a note to the holder.
      const probe = await invite(tokens['client-admin'], body);
      expect(probe.statusCode).toBe(200);
      expect((await outboxFor('twin@example.test')).map((mail) => mail.subject)).toEqual([
        'You are invited to Sitewatch',
        'Someone tried to invite you to Sitewatch',
      ]);
    });
  });

  it('lets one of two racing invitations for one address win, and answers the other 409', async () => {
    const body = { name: 'Racer', email: 'racer@example.test', user_role: 'crew-manager' };
    const replies = await Promise.all([
      invite(tokens['client-admin'], body),
      invite(tokens['client-admin'], { ...body, email: 'RACER@example.test' }),
    ]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await outboxFor('racer@example.test')).toHaveLength(1);
  });

  it.each([
    [{}, { name: 'Name is required', email: 'Email is required', user_role: 'User role is required' }],
    [{ name: '   ', email: 'blank@example.test', user_role: 'crew-manager' }, { name: 'Name is required' }],
    [{ name: '', email: 'blank@example.test', user_role: 'crew-manager' }, { name: 'Name is required' }],
    [
      { name: 'x'.repeat(101), email: 'long@example.test', user_role: 'crew-manager' },
      { name: 'Name accepts a maximum of 100 characters' },
    ],
    [
      { name: 'Long', email: `${'a'.repeat(250)}@ex.test`, user_role: 'crew-manager' },
      { email: 'Email accepts a maximum of 254 characters' },
    ],
    [{ name: 'Bad', email: 'not-an-email', user_role: 'crew-manager' }, { email: 'Email is invalid' }],
    [{ name: 'Bad', email: 'bad@example.test', user_role: 'king' }, { user_role: 'User role is invalid' }],
    [
      { name: 'Bad', email: 'bad@example.test', user_role: 'crew-manager', site_ids: ['x'] },
      // The shared error handler words an array item by its index; the field is what matters here.
      { 'site_ids.0': expect.any(String) },
    ],
    [
      { name: 'Bad', email: 'bad@example.test', user_role: 'crew-manager', client_id: 'abc' },
      { client_id: 'Client id is invalid' },
    ],
    [
      { name: 'Bad', email: 'bad@example.test', user_role: 'crew-manager', client_id: 0 },
      { client_id: 'Client id is invalid' },
    ],
    [
      { name: 'Bad', email: 'bad@example.test', user_role: 'crew-manager', site_ids: [2 ** 40] },
      // The shared error handler words an array item by its index; the field is what matters here.
      { 'site_ids.0': expect.any(String) },
    ],
    [
      { name: { first: 'A' }, email: 'bad@example.test', user_role: 'crew-manager' },
      { name: 'Name is invalid' },
    ],
    [
      { name: 'Bad', email: 'bad@example.test', user_role: 'crew-manager', password: 'secret123' },
      { password: 'Password is not allowed' },
    ],
  ])('refuses invalid input %j with 422', async (payload, errors) => {
    const response = await invite(tokens['super-admin'], { client_id: demo.clientId, ...payload });
    expect(response.statusCode).toBe(422);
    expect(response.json.status).toBe('error');
    expect(response.json.errors).toMatchObject(errors);
  });

  it('refuses a body that is not JSON with 400, never 500', async () => {
    const response = await t.call(tokens['client-admin'], {
      method: 'POST',
      url: '/api/invite',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(response.statusCode).toBe(400);
  });
});
