import { createActor } from 'xstate';
import type { ApiUser } from '../../../src/domain/user';
import { type StoredSession, sessionMachine } from '../../../src/machines/session.machine';

/** One effect the session machine asked the root for, as the fakes recorded it. */
export interface Effect {
  type: string;
  params?: any;
}

export const storedUser: ApiUser = {
  id: 11,
  name: 'Stored Name',
  email: 'site-admin@demo.sitewatch.dev',
  user_role: 'group-of-sites-admin',
  permissions: [],
  locale: 'ar',
  last_client_id: 1,
  last_site_id: 10,
};

export const storedSession: StoredSession = { token: 'stored-token', user: storedUser };

/** The server's reply to a login: its locale is 'ar' so forcing 'en' shows. */
export const loggedInUser: ApiUser = {
  id: 22,
  name: 'Super Admin',
  email: 'super-admin@demo.sitewatch.dev',
  user_role: 'super-admin',
  permissions: ['clients:create'],
  locale: 'ar',
  last_client_id: null,
  last_site_id: null,
};

/** GET /user after a restore: other fields changed too, but only three may be taken. */
export const refreshedProfile: ApiUser = {
  ...storedUser,
  name: 'Renamed',
  email: 'changed@demo.sitewatch.dev',
  user_role: 'crew-manager',
  locale: 'en',
  last_client_id: 2,
  last_site_id: 20,
};

/**
 * The session machine with fake effects: storage is a Map, every other effect is recorded.
 * This is the system under test of the model-based and example tests.
 */
export function startSession(input: StoredSession | null = null) {
  const storage = new Map<string, string>();
  if (input) {
    storage.set('auth', input.token);
    storage.set('user', JSON.stringify(input.user));
  }
  const effects: Effect[] = [];
  const record =
    (type: string) =>
    (_: unknown, params?: unknown): void => {
      effects.push(params === undefined ? { type } : { type, params });
    };

  const machine = sessionMachine.provide({
    actions: {
      persist: (_, params) => {
        effects.push({ type: 'persist', params });
        if (params.token && params.user) {
          storage.set('auth', params.token);
          storage.set('user', JSON.stringify(params.user));
        }
      },
      clearStorage: () => {
        effects.push({ type: 'clearStorage' });
        storage.delete('auth');
        storage.delete('user');
      },
      clearCache: record('clearCache'),
      toast: record('toast'),
      navigate: record('navigate'),
      reload: record('reload'),
      requestLogin: record('requestLogin'),
      requestLogout: record('requestLogout'),
      requestProfile: record('requestProfile'),
      saveSelection: record('saveSelection'),
      saveLocale: record('saveLocale'),
    },
  });
  const actor = createActor(machine, { input }).start();
  const sentTypes: string[] = [];

  return {
    actor,
    storage,
    effects,
    snapshot: () => actor.getSnapshot(),
    stored: () => ({
      auth: storage.get('auth') ?? null,
      user: storage.has('user') ? (JSON.parse(storage.get('user')!) as ApiUser) : null,
    }),
    /** Sends an event; returns the effects it caused. */
    send(event: Parameters<typeof actor.send>[0]): Effect[] {
      const from = effects.length;
      sentTypes.push(event.type);
      actor.send(event);
      return effects.slice(from);
    },
    /** How many events of this type were sent. */
    sent: (type: string) => sentTypes.filter((sentType) => sentType === type).length,
    ofType: (type: string) => effects.filter((effect) => effect.type === type),
  };
}

export type SessionHarness = ReturnType<typeof startSession>;
