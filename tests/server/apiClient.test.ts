import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Type } from 'typebox';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findDemoSiteId } from '../../server/db/demoSeed';
import { ApiError, isCancelled, isSilent, USER_CANCELLED } from '../../src/api/apiError';
import * as authApi from '../../src/api/auth';
import { type ApiClient, createApiClient } from '../../src/api/client';
import { fetchAllWorkers } from '../../src/api/workers/workerList';
import { messages } from '../../src/domain/messages';
import { UnreadDataSchema } from '../../src/domain/schemas/replies';
import { ClientSchema } from '../../src/domain/schemas/sites';
import { startTestApp, type TestApp } from './helpers/testApp';

const DEMO_PASSWORD = 'sitewatch-demo';
const demo = (slug: string) => `${slug}@demo.sitewatch.dev`;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

/** A client whose stored token the test sets, with its callbacks as spies. */
function clientFor(baseUrl: string) {
  const state = { token: null as string | null };
  const onUnauthorized = vi.fn();
  const onForbidden = vi.fn();
  const api: ApiClient = createApiClient({
    baseUrl,
    getToken: () => state.token,
    onUnauthorized,
    onForbidden,
  });
  return { api, state, onUnauthorized, onForbidden };
}

describe('API client against the real server', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => t.close());

  it('logs in and reads the current user with the bearer token', async () => {
    const { api, state } = clientFor(baseUrl);
    const reply = await authApi.login(api, { email: demo('super-admin'), password: DEMO_PASSWORD });
    expect(reply.user.user_role).toBe('super-admin');
    expect(reply.user.locale).toBe('en');
    state.token = reply.access_token;
    const user = await authApi.currentUser(api);
    expect(user.email).toBe(demo('super-admin'));
  });

  it('hands a login 401 to the caller with the server message, without ending any session', async () => {
    const { api, state, onUnauthorized } = clientFor(baseUrl);
    state.token = 'a-stored-token';
    const error = await rejection(
      authApi.login(api, { email: demo('site-viewer'), password: 'wrong-password' }),
    );
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.message).toBe('Invalid email or password');
    expect(isSilent(error)).toBe(false);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('calls onUnauthorized on a 401 while a token is stored', async () => {
    const { api, state, onUnauthorized } = clientFor(baseUrl);
    state.token = 'not-a-real-token';
    const error = await rejection(authApi.currentUser(api));
    expect(error.kind).toBe('unauthorized');
    expect(error.handled).toBe(true);
    expect(isSilent(error)).toBe(true);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledWith(error);
  });

  it('treats a 401 without a stored token as cancelled', async () => {
    const { api, onUnauthorized } = clientFor(baseUrl);
    const error = await rejection(api.get('/user', UnreadDataSchema));
    expect(isCancelled(error)).toBe(true);
    expect(error.marker).toBe(USER_CANCELLED);
    expect(error.message).toBe(USER_CANCELLED);
    expect(error.status).toBe(401);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('ends the session when a logged-out token is used again', async () => {
    const { api, state, onUnauthorized } = clientFor(baseUrl);
    state.token = await t.login(demo('crew-manager'));
    await authApi.logout(api);
    await rejection(authApi.currentUser(api));
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('calls onForbidden on a 403', async () => {
    const { api, state, onForbidden, onUnauthorized } = clientFor(baseUrl);
    state.token = await t.login(demo('site-viewer'));
    const error = await rejection(api.list('/users', UnreadDataSchema));
    expect(error.kind).toBe('forbidden');
    expect(error.status).toBe(403);
    expect(error.message).toBe(messages.notAuthorized);
    expect(isSilent(error)).toBe(true);
    expect(onForbidden).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it("passes the server's message and field errors through", async () => {
    const { api } = clientFor(baseUrl);
    const error = await rejection(authApi.forgotPassword(api, ''));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(422);
    expect(error.message).toBe('Email is required');
    expect(error.fieldErrors).toMatchObject({ email: 'Email is required' });

    const invalidLink = await rejection(authApi.resetPassword(api, 'no-such-token', 'a-long-password'));
    expect(invalidLink.status).toBe(400);
    expect(invalidLink.message).toBe('This link is invalid or has expired');

    const notRegistered = await rejection(
      authApi.register(api, 'no-such-token', { name: 'Someone', password: 'a-long-password' }),
    );
    expect(notRegistered.message).toBe('This link is invalid or has expired');
  });

  it('replies to forgot-password with one message whether or not the address exists', async () => {
    const { api } = clientFor(baseUrl);
    const known = await authApi.forgotPassword(api, demo('site-admin'));
    const unknown = await authApi.forgotPassword(api, 'nobody@example.com');
    expect(known.message).toBe('If the address is registered, a reset link has been sent');
    expect(unknown).toEqual(known);
  });

  it('lists, and saves preferences and the recently visited client and site', async () => {
    const { api, state } = clientFor(baseUrl);
    const { access_token, user } = await authApi.login(api, {
      email: demo('client-admin'),
      password: DEMO_PASSWORD,
    });
    state.token = access_token;
    const clients = await api.list('/clients', ClientSchema);
    expect(clients.status).toBe('success');
    expect(clients.data.length).toBeGreaterThan(0);

    const arabic = await authApi.setPreferences(api, { locale: 'ar' });
    expect(arabic.locale).toBe('ar');
    const visited = await authApi.recentlyVisited(api, {
      clientId: clients.data[0].id,
      siteId: null,
    });
    expect(visited).toMatchObject({ id: user.id, last_client_id: clients.data[0].id, last_site_id: null });
  });

  it('fetches every page of the worker list for the export, telling the progress after each', async () => {
    const { api, state } = clientFor(baseUrl);
    state.token = (
      await authApi.login(api, { email: demo('site-admin'), password: DEMO_PASSWORD })
    ).access_token;
    const siteId = (await findDemoSiteId(t.db)) as number;
    const progress: [number, number][] = [];
    const all = await fetchAllWorkers(
      api,
      siteId,
      { sort: { field: 'name', direction: 'asc' } },
      { perPage: 60, onProgress: (fetched, total) => progress.push([fetched, total]) },
    );
    expect(all).toHaveLength(200);
    expect(new Set(all.map((worker) => worker.id)).size).toBe(200);
    expect(progress).toEqual([
      [60, 200],
      [120, 200],
      [180, 200],
      [200, 200],
    ]);
  });
});

describe('API client on the wire', () => {
  let server: Server;
  let baseUrl: string;
  let seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[];
  let reply: (url: string) => { status: number; body: string; delayMs?: number };

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, headers: request.headers, body });
        const answer = reply(request.url ?? '');
        setTimeout(() => {
          if (response.destroyed) return;
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(answer.body);
        }, answer.delayMs ?? 0);
      });
    });
    baseUrl = `${await listen(server)}/api`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen = [];
    reply = () => ({ status: 200, body: JSON.stringify({ status: 'success', data: { ok: true } }) });
  });

  it('sends the bearer token, JSON content type and X-Requested-With on every call', async () => {
    const { api, state } = clientFor(baseUrl);
    state.token = 'the-token';
    await api.get('/things', UnreadDataSchema, {
      query: { page: 2, search: 'a b', skipped: undefined, none: null },
    });
    await api.post('/things', { name: 'x' }, UnreadDataSchema);
    await api.patch('/things/1', { name: 'y' }, UnreadDataSchema);
    await api.delete('/things/1', UnreadDataSchema);
    await api.post('/things/1/activate', undefined, UnreadDataSchema);
    expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /api/things?page=2&search=a+b',
      'POST /api/things',
      'PATCH /api/things/1',
      'DELETE /api/things/1',
      'POST /api/things/1/activate',
    ]);
    for (const request of seen) {
      expect(request.headers.authorization).toBe('Bearer the-token');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-requested-with']).toBe('XMLHttpRequest');
    }
    expect(JSON.parse(seen[1].body)).toEqual({ name: 'x' });
    // Fastify refuses an empty JSON body, so a body-less POST sends {}.
    expect(seen[4].body).toBe('{}');
    expect(seen[0].body).toBe('');
  });

  it('sends no Authorization header without a token', async () => {
    const { api } = clientFor(baseUrl);
    await api.get('/things', UnreadDataSchema);
    expect(seen[0].headers.authorization).toBeUndefined();
    expect(seen[0].headers['x-requested-with']).toBe('XMLHttpRequest');
  });

  it("resolves to the reply's data, or the whole envelope for a list", async () => {
    const { api } = clientFor(baseUrl);
    expect(await api.get('/things', UnreadDataSchema)).toEqual({ ok: true });
    reply = () => ({
      status: 200,
      body: JSON.stringify({ status: 'success', data: [1, 2], meta: { page: 1, perPage: 2, total: 5 } }),
    });
    expect(await api.list('/things', UnreadDataSchema)).toEqual({
      status: 'success',
      data: [1, 2],
      meta: { page: 1, perPage: 2, total: 5 },
    });
  });

  it('checks the whole envelope of a list that carries more than its rows (the eTQR summary)', async () => {
    const { api } = clientFor(baseUrl);
    const Listing = Type.Object({
      status: Type.Literal('success'),
      data: Type.Array(Type.Integer()),
      summary: Type.Object({ total_hours: Type.Number() }),
    });
    const body = { status: 'success', data: [1, 2], summary: { total_hours: 3.5 } };
    reply = () => ({ status: 200, body: JSON.stringify(body) });
    expect(await api.envelope('/things', Listing)).toEqual(body);
    reply = () => ({
      status: 200,
      body: JSON.stringify({ ...body, summary: { total_hours: 'many' } }),
    });
    const error = await rejection(api.envelope('/things', Listing));
    expect(error.kind).toBe('reply');
    expect(error.message).toBe(messages.somethingWentWrongContactSupport);
  });

  it('rejects a list whose reply status is not success, with the reply', async () => {
    const { api } = clientFor(baseUrl);
    const body = { status: 'error', message: 'Could not list', data: [] };
    reply = () => ({ status: 200, body: JSON.stringify(body) });
    const error = await rejection(api.list('/things', UnreadDataSchema));
    expect(error.kind).toBe('reply');
    expect(error.reply).toEqual(body);
    expect(error.message).toBe('Could not list');
  });

  it('uses the support text when the server gives no message', async () => {
    const { api } = clientFor(baseUrl);
    reply = () => ({ status: 500, body: JSON.stringify({ status: 'error' }) });
    const error = await rejection(api.get('/things', UnreadDataSchema));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(500);
    expect(error.message).toBe('Something went wrong, please contact support!');

    reply = () => ({ status: 502, body: '<html>Bad gateway</html>' });
    expect((await rejection(api.get('/things', UnreadDataSchema))).message).toBe(
      messages.somethingWentWrongContactSupport,
    );

    reply = () => ({ status: 404, body: JSON.stringify({ status: 'error', message: '' }) });
    expect((await rejection(api.get('/things', UnreadDataSchema))).message).toBe(
      messages.somethingWentWrongContactSupport,
    );
  });

  it('rejects a call aborted by the user with USER_CANCELLED', async () => {
    const { api } = clientFor(baseUrl);
    reply = () => ({ status: 200, body: JSON.stringify({ status: 'success', data: 1 }), delayMs: 2000 });
    const controller = new AbortController();
    const pending = api.get('/slow', UnreadDataSchema, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await rejection(pending);
    expect(isCancelled(error)).toBe(true);
    expect(error.marker).toBe(USER_CANCELLED);
    expect(isSilent(error)).toBe(true);

    const early = await rejection(api.post('/things', {}, UnreadDataSchema, { signal: AbortSignal.abort() }));
    expect(isCancelled(early)).toBe(true);
  });

  it('rejects a call that gets no response as a silent network error', async () => {
    const closed = createServer();
    const closedUrl = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { api, onUnauthorized, onForbidden } = clientFor(`${closedUrl}/api`);
    const error = await rejection(api.get('/things', UnreadDataSchema));
    expect(error.kind).toBe('network');
    expect(error.status).toBeUndefined();
    expect(isSilent(error)).toBe(true);
    expect(isCancelled(error)).toBe(false);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(onForbidden).not.toHaveBeenCalled();
  });

  it('treats a site login 401 as a login failure', async () => {
    const { api, state, onUnauthorized } = clientFor(baseUrl);
    state.token = 'stored';
    reply = () => ({
      status: 401,
      body: JSON.stringify({ status: 'error', message: 'Invalid email or password' }),
    });
    const error = await rejection(
      authApi.siteLogin(api, 3, { email: 'a@b.c', password: 'whatever-pass', groupOfSitesId: 2 }),
    );
    expect(error.message).toBe('Invalid email or password');
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(seen[0].url).toBe('/api/sites/3/login');
    expect(JSON.parse(seen[0].body)).toEqual({
      email: 'a@b.c',
      password: 'whatever-pass',
      group_of_sites_id: 2,
    });
  });

  it("rejects a reply whose data does not match the route's schema as a 'reply' error, for get, list and post", async () => {
    const { api } = clientFor(baseUrl);
    const Thing = Type.Object({ id: Type.Integer(), name: Type.String() });
    reply = () => ({ status: 200, body: JSON.stringify({ status: 'success', data: { id: 'one' } }) });
    for (const call of [api.get('/things', Thing), api.post('/things', { name: 'x' }, Thing)]) {
      const error = await rejection(call);
      expect(error.kind).toBe('reply');
      expect(error.message).toBe(messages.somethingWentWrongContactSupport);
    }
    reply = () => ({
      status: 200,
      body: JSON.stringify({ status: 'success', data: [{ id: 1, name: 'a' }, { id: 2 }] }),
    });
    const error = await rejection(api.list('/things', Thing));
    expect(error.kind).toBe('reply');
    expect(error.message).toBe(messages.somethingWentWrongContactSupport);
  });

  it('resolves a reply that matches its schema with the typed data', async () => {
    const { api } = clientFor(baseUrl);
    const Thing = Type.Object({ id: Type.Integer(), name: Type.String() });
    reply = () => ({ status: 200, body: JSON.stringify({ status: 'success', data: { id: 1, name: 'a' } }) });
    const thing = await api.get('/things', Thing);
    expect(thing.name).toBe('a');
  });

  it('rejects a login reply that is not a login', async () => {
    const { api } = clientFor(baseUrl);
    reply = () => ({ status: 200, body: JSON.stringify({ status: 'success', data: { access_token: 5 } }) });
    const error = await rejection(authApi.login(api, { email: 'a@b.c', password: 'whatever-pass' }));
    expect(error.kind).toBe('reply');
    expect(error.message).toBe(messages.somethingWentWrongContactSupport);
  });
});
