import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { messages, SHORT_TOAST_MS } from '../../src/domain/messages';
import { type SessionInput, sessionMachine, sessionStateOf } from '../../src/machines/session.machine';
import type { Notice } from '../../src/views/notify';
import { createSessionEffects } from '../../src/views/session/sessionEffects';
import { readStoredSession, type SessionStorage } from '../../src/views/session/storedSession';
import { loggedInUser, refreshedProfile, startSession, storedSession } from './helpers/sessionHarness';

const credentials = { email: 'super-admin@demo.sitewatch.dev', password: 'sitewatch-demo' };

describe('session machine', () => {
  it('starts signed out when storage holds no session, without asking for a profile', () => {
    const sut = startSession(null);
    expect(sessionStateOf(sut.snapshot())).toBe('signedOut');
    expect(sut.effects).toEqual([]);
  });

  it('restores a stored session: busy until the profile answers', () => {
    const sut = startSession(storedSession);
    expect(sut.snapshot().matches({ restoring: 'fetchingProfile' })).toBe(true);
    expect(sut.snapshot().hasTag('busy')).toBe(true);
    expect(sut.effects).toEqual([{ type: 'requestProfile' }]);
    expect(sut.snapshot().context.user).toEqual(storedSession.user);
  });

  it('takes only name, last_site_id and last_client_id from the refreshed profile', () => {
    const sut = startSession(storedSession);
    sut.send({ type: 'profile.loaded', user: refreshedProfile });
    expect(sessionStateOf(sut.snapshot())).toBe('signedIn');
    expect(sut.stored().user).toEqual({
      ...storedSession.user,
      name: 'Renamed',
      last_client_id: 2,
      last_site_id: 20,
    });
    expect(sut.stored().auth).toBe(storedSession.token);
  });

  it('keeps the stored session when the profile fails; the notice shows only while online', () => {
    const online = startSession(storedSession);
    expect(online.send({ type: 'profile.failed', online: true })).toEqual([
      {
        type: 'toast',
        params: expect.objectContaining({ message: messages.somethingWentWrong, timeout: SHORT_TOAST_MS }),
      },
    ]);
    expect(sessionStateOf(online.snapshot())).toBe('signedIn');
    expect(online.snapshot().context.user).toEqual(storedSession.user);

    const offline = startSession(storedSession);
    expect(offline.send({ type: 'profile.failed', online: false })).toEqual([]);
    expect(sessionStateOf(offline.snapshot())).toBe('signedIn');

    const alreadyReported = startSession(storedSession);
    expect(alreadyReported.send({ type: 'profile.failed', online: true, handled: true })).toEqual([]);
  });

  it('signs in, forcing the locale to en, and stores token and user', () => {
    const sut = startSession(null);
    expect(sut.send({ type: 'login.submit', ...credentials })).toEqual([
      { type: 'requestLogin', params: credentials },
    ]);
    expect(sut.snapshot().hasTag('busy')).toBe(true);
    sut.send({ type: 'login.succeeded', token: 'fresh-token', user: loggedInUser });
    expect(sessionStateOf(sut.snapshot())).toBe('signedIn');
    expect(sut.snapshot().context.user?.locale).toBe('en');
    expect(sut.stored()).toEqual({ auth: 'fresh-token', user: { ...loggedInUser, locale: 'en' } });
  });

  it('passes a site login through to the request', () => {
    const sut = startSession(null);
    expect(sut.send({ type: 'login.submit', ...credentials, siteId: 4, groupOfSitesId: 9 })).toEqual([
      { type: 'requestLogin', params: { ...credentials, siteId: 4, groupOfSitesId: 9 } },
    ]);
  });

  it('shows the login error until the next attempt', () => {
    const sut = startSession(null);
    sut.send({ type: 'login.submit', ...credentials });
    sut.send({ type: 'login.failed', message: 'Invalid email or password' });
    expect(sessionStateOf(sut.snapshot())).toBe('signedOut');
    expect(sut.snapshot().context.loginError).toBe('Invalid email or password');
    sut.send({ type: 'login.submit', ...credentials });
    expect(sut.snapshot().context.loginError).toBeNull();
  });

  it('on a 401 clears storage, says "Bad Credentials" for 1 s and goes to /login', () => {
    const sut = startSession(storedSession);
    sut.send({ type: 'profile.loaded', user: refreshedProfile });
    expect(sut.send({ type: 'session.unauthorized' })).toEqual([
      { type: 'clearStorage' },
      {
        type: 'toast',
        params: {
          message: 'Bad Credentials',
          messageKey: 'auth.toast.badCredentials',
          intent: 'danger',
          timeout: 1000,
        },
      },
      { type: 'navigate', params: { to: '/login' } },
    ]);
    expect(sessionStateOf(sut.snapshot())).toBe('redirecting');
    expect(sut.stored()).toEqual({ auth: null, user: null });
    // More 401s and 403s from screens still open change nothing.
    expect(sut.send({ type: 'session.unauthorized' })).toEqual([]);
    expect(sut.send({ type: 'session.forbidden' })).toEqual([]);
    expect(sut.send({ type: 'redirect.done' })).toEqual([{ type: 'clearCache' }]);
    expect(sessionStateOf(sut.snapshot())).toBe('signedOut');
    expect(sut.snapshot().context).toEqual({ user: null, token: null, loginError: null });
  });

  it('on a 403 says "Not Authorized" and goes to /403, still signed in', () => {
    const sut = startSession(storedSession);
    sut.send({ type: 'profile.loaded', user: refreshedProfile });
    expect(sut.send({ type: 'session.forbidden' })).toEqual([
      { type: 'toast', params: expect.objectContaining({ message: 'Not Authorized', timeout: 1000 }) },
      { type: 'navigate', params: { to: '/403' } },
    ]);
    expect(sessionStateOf(sut.snapshot())).toBe('signedIn');
    expect(sut.stored().auth).toBe(storedSession.token);
  });

  it('logs out: the token stays for the logout call, then everything is cleared', () => {
    const sut = startSession(storedSession);
    sut.send({ type: 'profile.loaded', user: refreshedProfile });
    expect(sut.send({ type: 'logout.start' })).toEqual([{ type: 'requestLogout' }]);
    expect(sut.stored().auth).toBe(storedSession.token);
    // The logout call's own 401 must not turn into "Bad Credentials".
    expect(sut.send({ type: 'session.unauthorized' })).toEqual([]);
    expect(sut.send({ type: 'logout.done' })).toEqual([{ type: 'clearStorage' }, { type: 'clearCache' }]);
    expect(sessionStateOf(sut.snapshot())).toBe('signedOut');
    expect(sut.snapshot().context).toEqual({ user: null, token: null, loginError: null });
    expect(sut.stored()).toEqual({ auth: null, user: null });
  });

  it('can log out while the session is still being restored', () => {
    const sut = startSession(storedSession);
    expect(sut.send({ type: 'logout.start' })).toEqual([{ type: 'requestLogout' }]);
    // The profile reply that arrives late is ignored.
    expect(sut.send({ type: 'profile.loaded', user: refreshedProfile })).toEqual([]);
    expect(sessionStateOf(sut.snapshot())).toBe('signingOut');
  });

  it('reloads when another tab changes the stored session, whatever the state', () => {
    for (const input of [null, storedSession]) {
      const sut = startSession(input);
      expect(sut.send({ type: 'storage.changed' })).toEqual([{ type: 'reload' }]);
    }
  });

  it('remembers the selection and the locale only while signed in', () => {
    const signedOut = startSession(null);
    expect(signedOut.send({ type: 'selection.changed', clientId: 1, siteId: 2 })).toEqual([]);
    expect(signedOut.send({ type: 'locale.changed', locale: 'ar' })).toEqual([]);

    const sut = startSession(storedSession);
    sut.send({ type: 'profile.failed', online: false });
    expect(sut.send({ type: 'selection.changed', clientId: 5, siteId: null }).map((e) => e.type)).toEqual([
      'persist',
      'saveSelection',
    ]);
    expect(sut.stored().user).toMatchObject({ last_client_id: 5, last_site_id: null });
    sut.send({ type: 'locale.changed', locale: 'en' });
    expect(sut.stored().user?.locale).toBe('en');
    expect(sut.ofType('saveLocale')).toEqual([{ type: 'saveLocale', params: { locale: 'en' } }]);
  });

  it('has no invoke and no delayed transition, so xstate/graph can model it', async () => {
    const { createTestModel } = await import('xstate/graph');
    expect(() => createTestModel(sessionMachine)).not.toThrow();
  });
});

/** The root's effects with a fake server behind a real API client. */
describe('session effects', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function memoryStorage(
    initial: Record<string, string> = {},
  ): SessionStorage & { data: Map<string, string> } {
    const data = new Map(Object.entries(initial));
    return {
      data,
      getItem: (key) => data.get(key) ?? null,
      setItem: (key, value) => void data.set(key, value),
      removeItem: (key) => void data.delete(key),
    };
  }

  type Route = (init: RequestInit) => { status: number; body?: unknown } | 'offline';

  function boot(routes: Record<string, Route>, initial: Record<string, string> = {}, online = true) {
    const storage = memoryStorage(initial);
    const notices: Notice[] = [];
    const navigations: string[] = [];
    const reloads: number[] = [];
    const requests: { url: string; init: RequestInit }[] = [];
    const target: { actor: { send(event: { type: string }): void } | null } = { actor: null };
    const fakeFetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = String(input);
      requests.push({ url, init });
      const route = routes[`${init.method} ${url}`];
      const answer = route ? route(init) : { status: 404, body: { status: 'error', message: 'Not found' } };
      if (answer === 'offline') throw new TypeError('fetch failed');
      return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
        status: answer.status,
      });
    }) as typeof fetch;
    const api = createApiClient({
      baseUrl: '/api',
      getToken: () => storage.getItem('auth'),
      onUnauthorized: () => target.actor?.send({ type: 'session.unauthorized' }),
      onForbidden: () => target.actor?.send({ type: 'session.forbidden' }),
      fetch: fakeFetch,
    });
    const machine = sessionMachine.provide(
      createSessionEffects({
        api,
        storage,
        notify: (notice) => notices.push(notice),
        navigate: (to) => navigations.push(to),
        reload: () => reloads.push(1),
        isOnline: () => online,
        clearCache: () => {},
        translate: (_key, fallback) => fallback,
      }),
    );
    const input: SessionInput = readStoredSession(storage);
    const actor = createActor(machine, { input });
    target.actor = actor;
    actor.start();
    return { actor, storage, notices, navigations, reloads, requests };
  }

  const storedEntries = { auth: storedSession.token, user: JSON.stringify(storedSession.user) };

  it('logs in through POST /api/login and stores the session', async () => {
    const app = boot({
      'POST /api/login': () => ({
        status: 200,
        body: { status: 'success', data: { access_token: 'tok', user: loggedInUser } },
      }),
    });
    app.actor.send({ type: 'login.submit', ...credentials });
    await waitFor(app.actor, (s) => s.matches('signedIn'));
    expect(app.storage.data.get('auth')).toBe('tok');
    expect(JSON.parse(app.storage.data.get('user')!)).toEqual({ ...loggedInUser, locale: 'en' });
    expect(JSON.parse(String(app.requests[0].init.body))).toEqual(credentials);
  });

  it("shows the server's message when the login is refused", async () => {
    const app = boot({
      'POST /api/login': () => ({
        status: 401,
        body: { status: 'error', message: 'Invalid email or password' },
      }),
    });
    app.actor.send({ type: 'login.submit', ...credentials });
    await waitFor(app.actor, (s) => s.matches('signedOut') && s.context.loginError !== null);
    expect(app.actor.getSnapshot().context.loginError).toBe('Invalid email or password');
    expect(app.notices).toEqual([]);
  });

  it('says nothing on a login that got no response', async () => {
    const app = boot({ 'POST /api/login': () => 'offline' });
    app.actor.send({ type: 'login.submit', ...credentials });
    await waitFor(app.actor, (s) => s.matches('signedOut'));
    expect(app.actor.getSnapshot().context.loginError).toBeNull();
  });

  it('restores a session and refreshes the profile from GET /api/user', async () => {
    const app = boot(
      { 'GET /api/user': () => ({ status: 200, body: { status: 'success', data: refreshedProfile } }) },
      storedEntries,
    );
    await waitFor(app.actor, (s) => s.matches('signedIn'));
    expect(JSON.parse(app.storage.data.get('user')!).name).toBe('Renamed');
    expect(new Headers(app.requests[0].init.headers).get('authorization')).toBe(
      `Bearer ${storedSession.token}`,
    );
  });

  it('ends a restored session whose token the server refuses, going to /login after 1 s', async () => {
    vi.useFakeTimers();
    const app = boot(
      { 'GET /api/user': () => ({ status: 401, body: { status: 'error', message: 'Unauthenticated' } }) },
      storedEntries,
    );
    await vi.waitFor(() => expect(app.actor.getSnapshot().matches('redirecting')).toBe(true));
    expect(app.storage.data.size).toBe(0);
    expect(app.notices).toEqual([
      { message: 'Bad Credentials', intent: 'danger', timeout: 1000, key: 'auth.toast.badCredentials' },
    ]);
    expect(app.navigations).toEqual([]);
    await vi.advanceTimersByTimeAsync(SHORT_TOAST_MS);
    expect(app.navigations).toEqual(['/login']);
    expect(app.actor.getSnapshot().matches('signedOut')).toBe(true);
  });

  it('keeps a restored session when the server is unreachable, noticing it only while online', async () => {
    const online = boot({ 'GET /api/user': () => 'offline' }, storedEntries, true);
    await waitFor(online.actor, (s) => s.matches('signedIn'));
    expect(online.notices.map((n) => n.message)).toEqual([messages.somethingWentWrong]);
    expect(online.storage.data.get('auth')).toBe(storedSession.token);

    const offline = boot({ 'GET /api/user': () => 'offline' }, storedEntries, false);
    await waitFor(offline.actor, (s) => s.matches('signedIn'));
    expect(offline.notices).toEqual([]);
  });

  it('logs out through GET /api/logout, even when that call fails', async () => {
    const app = boot(
      {
        'GET /api/user': () => ({ status: 200, body: { status: 'success', data: storedSession.user } }),
        'GET /api/logout': () => ({ status: 500, body: { status: 'error' } }),
      },
      storedEntries,
    );
    await waitFor(app.actor, (s) => s.matches('signedIn'));
    app.actor.send({ type: 'logout.start' });
    await waitFor(app.actor, (s) => s.matches('signedOut'));
    expect(app.requests.at(-1)?.url).toBe('/api/logout');
    expect(new Headers(app.requests.at(-1)?.init.headers).get('authorization')).toBe(
      `Bearer ${storedSession.token}`,
    );
    expect(app.storage.data.size).toBe(0);
  });

  it('tells the server about the selection and the locale', async () => {
    const app = boot(
      {
        'GET /api/user': () => ({ status: 200, body: { status: 'success', data: storedSession.user } }),
        'POST /api/users/recently-visited': () => ({
          status: 200,
          body: { status: 'success', data: storedSession.user },
        }),
        'POST /api/users/preferences': () => ({
          status: 422,
          body: { status: 'error', message: 'Locale is invalid' },
        }),
      },
      storedEntries,
    );
    await waitFor(app.actor, (s) => s.matches('signedIn'));
    app.actor.send({ type: 'selection.changed', clientId: 1, siteId: 10 });
    app.actor.send({ type: 'locale.changed', locale: 'ar' });
    await vi.waitFor(() => expect(app.notices.map((n) => n.message)).toEqual(['Locale is invalid']));
    const visited = app.requests.find((r) => r.url === '/api/users/recently-visited');
    expect(JSON.parse(String(visited?.init.body))).toEqual({ client_id: 1, site_id: 10 });
  });
});
