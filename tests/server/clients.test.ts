import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENT } from '../../server/db/demoSeed';
import { clients } from '../../server/db/schema';
import type { Role } from '../../src/domain/roles';
import { type OtherTenant, seedOtherTenant } from './helpers/otherTenant';
import { startTestApp, type TestApp } from './helpers/testApp';

describe('clients', () => {
  let t: TestApp;
  let other: OtherTenant;
  let demoClientId: number;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await startTestApp();
    other = await seedOtherTenant(t.db);
    const [demo] = await t.db.select().from(clients).where(eq(clients.name, DEMO_CLIENT));
    demoClientId = demo.id;
    for (const role of ['super-admin', 'client-admin', 'group-of-sites-viewer'] as const) {
      tokens[role] = await t.loginAs(role);
    }
  });
  afterAll(() => t.close());

  const listClients = async (token: string) => {
    const response = await t.call(token, { method: 'GET', url: '/api/clients' });
    expect(response.statusCode).toBe(200);
    expect(response.json.status).toBe('success');
    return (response.json.data as { id: number; name: string }[]).map((c) => c.name);
  };

  const createClient = (token: string, payload: unknown) =>
    t.call(token, { method: 'POST', url: '/api/clients', payload: payload as object });

  describe('GET /api/clients', () => {
    it('answers 401 without a token', async () => {
      const response = await t.call(null, { method: 'GET', url: '/api/clients' });
      expect(response.statusCode).toBe(401);
    });

    it('shows a super-admin every client, sorted by name', async () => {
      expect(await listClients(tokens['super-admin'])).toEqual([DEMO_CLIENT, 'Other Co']);
    });

    it('shows a client-admin only its own client', async () => {
      expect(await listClients(tokens['client-admin'])).toEqual([DEMO_CLIENT]);
      const otherAdmin = await t.login(other.email('client-admin'));
      expect(await listClients(otherAdmin)).toEqual(['Other Co']);
    });

    it('shows a site viewer the client of its site only', async () => {
      expect(await listClients(tokens['group-of-sites-viewer'])).toEqual([DEMO_CLIENT]);
    });

    it('replies each client as {id, name}', async () => {
      const response = await t.call(tokens['client-admin'], { method: 'GET', url: '/api/clients' });
      expect(response.json.data).toEqual([{ id: demoClientId, name: DEMO_CLIENT }]);
    });
  });

  describe('POST /api/clients', () => {
    it('creates a client for a super-admin, trimming the name, and lists it in order', async () => {
      const response = await createClient(tokens['super-admin'], { name: '  Acme Builders  ' });
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({
        status: 'success',
        message: 'Client is created successfully',
        data: { id: expect.any(Number), name: 'Acme Builders' },
      });
      expect(await listClients(tokens['super-admin'])).toEqual(['Acme Builders', DEMO_CLIENT, 'Other Co']);
    });

    it('refuses a duplicate name whatever its case with 409', async () => {
      const response = await createClient(tokens['super-admin'], { name: 'demo construction co' });
      expect(response.statusCode).toBe(409);
      expect(response.json).toEqual({ status: 'error', message: 'Client name already exists!' });
    });

    it('lets exactly one of several simultaneous creations of a name win', async () => {
      const replies = await Promise.all(
        Array.from({ length: 5 }, () => createClient(tokens['super-admin'], { name: 'Race Ltd' })),
      );
      const codes = replies.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 409, 409, 409, 409]);
    });

    it('answers 403 to roles without the clients:create permission', async () => {
      for (const role of ['client-admin', 'group-of-sites-viewer'] as const) {
        const response = await createClient(tokens[role], { name: `Made by ${role}` });
        expect(response.statusCode, role).toBe(403);
        expect(response.json.message).toBe('Not Authorized');
      }
      expect(await listClients(tokens['super-admin'])).not.toContain('Made by client-admin');
    });

    it('answers 422 in the spec words for a missing, blank or oversized name', async () => {
      const cases: [unknown, string][] = [
        [{}, 'Name is required'],
        [{ name: '' }, 'Name is required'],
        [{ name: '   \t ' }, 'Name is required'],
        [{ name: 'x'.repeat(101) }, 'Name accepts a maximum of 100 characters'],
      ];
      for (const [payload, message] of cases) {
        const response = await createClient(tokens['super-admin'], payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
        expect(response.json.status).toBe('error');
        expect(response.json.errors).toEqual({ name: message });
        expect(response.json.message).toBe(message);
      }
    });

    it('answers wrong types with 422, broken JSON with 400 and XML with 415, never 500', async () => {
      for (const payload of [{ name: { first: 'x' } }, { name: null }, [], 42]) {
        const response = await t.call(tokens['super-admin'], {
          method: 'POST',
          url: '/api/clients',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      }
      // Fastify parses text/plain into a string, which is not the object the schema wants.
      const text = await t.call(tokens['super-admin'], {
        method: 'POST',
        url: '/api/clients',
        headers: { 'content-type': 'text/plain' },
        payload: 'name=Acme',
      });
      expect(text.statusCode).toBe(422);
      const xml = await t.call(tokens['super-admin'], {
        method: 'POST',
        url: '/api/clients',
        headers: { 'content-type': 'application/xml' },
        payload: '<name>Acme</name>',
      });
      expect(xml.statusCode).toBe(415);
      const malformed = await t.call(tokens['super-admin'], {
        method: 'POST',
        url: '/api/clients',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": ',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json.status).toBe('error');
    });
  });
});
