import { assign, type SnapshotFrom, setup } from 'xstate';
import type { Locale } from '../domain/limits';
import { messages, SHORT_TOAST_MS } from '../domain/messages';
import type { ApiUser } from '../domain/user';

/**
 * The signed-in session (spec §3 "User session", §4, §8). Pure: it never touches storage,
 * the network, toasts or the URL itself. Each of those is a named action that the root
 * provides (`machine.provide`), and the requests' outcomes come back as events:
 *
 * - requestLogin / requestLogout / requestProfile start a call; the root answers with
 *   login.succeeded | login.failed, logout.done, profile.loaded | profile.failed.
 * - persist / clearStorage write or remove the `auth` and `user` entries.
 * - toast shows a notice; navigate goes to a path after the toast has been seen (the root
 *   waits SHORT_TOAST_MS, navigates, then sends redirect.done); reload reloads the page.
 * - saveSelection / saveLocale tell the server about the user's choices.
 * - clearCache drops cached server data when a session ends ("logout clears the whole state").
 */

/** What browser storage held at start, already parsed by the root. */
export interface StoredSession {
  token: string;
  user: ApiUser;
}

export type SessionInput = StoredSession | null | undefined;

export interface SessionContext {
  user: ApiUser | null;
  token: string | null;
  /** The server's message of the last failed login ("Invalid email or password"). */
  loginError: string | null;
}

export interface LoginRequest {
  email: string;
  password: string;
  /** Sign straight into this site (POST /sites/{id}/login). */
  siteId?: number;
  /** Sent with a site login: the site's group of sites. */
  groupOfSitesId?: number;
}

export type SessionEvent =
  | ({ type: 'login.submit' } & LoginRequest)
  | { type: 'login.succeeded'; token: string; user: ApiUser }
  /** `message` null: nothing to show (the call was cancelled, or the browser is offline). */
  | { type: 'login.failed'; message: string | null }
  | { type: 'logout.start' }
  | { type: 'logout.done' }
  | { type: 'profile.loaded'; user: ApiUser }
  /** `handled`: the API client already reported it (401, 403) or it was cancelled. */
  | { type: 'profile.failed'; online: boolean; handled?: boolean }
  | { type: 'session.unauthorized' }
  | { type: 'session.forbidden' }
  | { type: 'redirect.done' }
  | { type: 'storage.changed' }
  | { type: 'selection.changed'; clientId: number | null; siteId: number | null }
  | { type: 'locale.changed'; locale: Locale };

export interface ToastParams {
  /** The spec's English text; also the fallback when `messageKey` has no translation. */
  message: string;
  /** i18n key of the same text. */
  messageKey: string;
  intent: 'danger' | 'warning' | 'success' | 'primary' | 'none';
  /** Milliseconds. */
  timeout: number;
}

export interface NavigateParams {
  to: string;
}

export const LOGIN_PATH = '/login';
export const FORBIDDEN_PATH = '/403';

const badCredentialsToast: ToastParams = {
  message: messages.badCredentials,
  messageKey: 'auth.toast.badCredentials',
  intent: 'danger',
  timeout: SHORT_TOAST_MS,
};

const notAuthorizedToast: ToastParams = {
  message: messages.notAuthorized,
  messageKey: 'auth.toast.notAuthorized',
  intent: 'danger',
  timeout: SHORT_TOAST_MS,
};

const profileFailedToast: ToastParams = {
  message: messages.somethingWentWrong,
  messageKey: 'auth.toast.somethingWentWrong',
  intent: 'danger',
  timeout: SHORT_TOAST_MS,
};

const signedOutContext: SessionContext = { user: null, token: null, loginError: null };

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actions: {
    persist: (_, _params: { token: string | null; user: ApiUser | null }) => {},
    clearStorage: () => {},
    clearCache: () => {},
    toast: (_, _params: ToastParams) => {},
    navigate: (_, _params: NavigateParams) => {},
    reload: () => {},
    requestLogin: (_, _params: LoginRequest) => {},
    requestLogout: () => {},
    requestProfile: () => {},
    saveSelection: (_, _params: { clientId: number | null; siteId: number | null }) => {},
    saveLocale: (_, _params: { locale: Locale }) => {},
    clearSession: assign(() => signedOutContext),
    clearLoginError: assign({ loginError: null }),
  },
  guards: {
    hasStoredSession: ({ context }) => context.token !== null && context.user !== null,
    /** Spec §8: the profile failure notice shows only while online, and only once. */
    reportsProfileFailure: ({ event }) => event.type === 'profile.failed' && event.online && !event.handled,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    user: input?.user ?? null,
    token: input?.token ?? null,
    loginError: null,
  }),
  initial: 'restoring',
  on: {
    // Another tab signed in or out: this page's memory is stale (spec §4).
    'storage.changed': { actions: 'reload' },
    'session.forbidden': {
      actions: [
        { type: 'toast', params: notAuthorizedToast },
        { type: 'navigate', params: { to: FORBIDDEN_PATH } },
      ],
    },
  },
  states: {
    restoring: {
      tags: ['busy'],
      initial: 'checking',
      states: {
        checking: {
          always: [
            { guard: 'hasStoredSession', target: 'fetchingProfile' },
            { target: '#session.signedOut' },
          ],
        },
        fetchingProfile: { entry: 'requestProfile' },
      },
      on: {
        'profile.loaded': {
          target: 'signedIn',
          actions: [
            assign({ user: ({ context, event }) => withProfile(context.user, event.user) }),
            { type: 'persist', params: ({ context }) => ({ token: context.token, user: context.user }) },
          ],
        },
        // The stored session stays usable: the profile only refreshes a few fields.
        'profile.failed': [
          {
            guard: 'reportsProfileFailure',
            target: 'signedIn',
            actions: { type: 'toast', params: profileFailedToast },
          },
          { target: 'signedIn' },
        ],
        'session.unauthorized': { target: 'redirecting' },
        'logout.start': { target: 'signingOut' },
      },
    },

    signedOut: {
      on: {
        'login.submit': {
          target: 'signingIn',
          actions: [
            'clearLoginError',
            {
              type: 'requestLogin',
              params: ({ event }) => ({
                email: event.email,
                password: event.password,
                ...(event.siteId === undefined ? {} : { siteId: event.siteId }),
                ...(event.groupOfSitesId === undefined ? {} : { groupOfSitesId: event.groupOfSitesId }),
              }),
            },
          ],
        },
      },
    },

    signingIn: {
      tags: ['busy'],
      on: {
        'login.succeeded': {
          target: 'signedIn',
          actions: [
            // The locale is forced to en on login (spec §1, §9).
            assign({
              token: ({ event }) => event.token,
              user: ({ event }) => ({ ...event.user, locale: 'en' as const }),
              loginError: null,
            }),
            { type: 'persist', params: ({ context }) => ({ token: context.token, user: context.user }) },
          ],
        },
        'login.failed': {
          target: 'signedOut',
          actions: assign({ loginError: ({ event }) => event.message }),
        },
      },
    },

    signedIn: {
      on: {
        'logout.start': { target: 'signingOut' },
        'session.unauthorized': { target: 'redirecting' },
        'profile.loaded': {
          actions: [
            assign({ user: ({ context, event }) => withProfile(context.user, event.user) }),
            { type: 'persist', params: ({ context }) => ({ token: context.token, user: context.user }) },
          ],
        },
        'selection.changed': {
          actions: [
            assign({
              user: ({ context, event }) =>
                context.user && {
                  ...context.user,
                  last_client_id: event.clientId,
                  last_site_id: event.siteId,
                },
            }),
            { type: 'persist', params: ({ context }) => ({ token: context.token, user: context.user }) },
            {
              type: 'saveSelection',
              params: ({ event }) => ({ clientId: event.clientId, siteId: event.siteId }),
            },
          ],
        },
        'locale.changed': {
          actions: [
            assign({
              user: ({ context, event }) => context.user && { ...context.user, locale: event.locale },
            }),
            { type: 'persist', params: ({ context }) => ({ token: context.token, user: context.user }) },
            { type: 'saveLocale', params: ({ event }) => ({ locale: event.locale }) },
          ],
        },
      },
    },

    // The token is still stored until the server has revoked it.
    signingOut: {
      tags: ['busy'],
      entry: 'requestLogout',
      on: {
        'logout.done': { target: 'signedOut', actions: ['clearStorage', 'clearCache', 'clearSession'] },
        // A 401 from the logout call itself ends the session anyway: no "Bad Credentials".
        'session.unauthorized': {},
      },
    },

    // Spec §8: a 401 with a stored token. The stored session is gone at once; the user stays
    // in memory (so the screen does not jump) until the toast has been seen and /login opens.
    redirecting: {
      entry: [
        'clearStorage',
        { type: 'toast', params: badCredentialsToast },
        { type: 'navigate', params: { to: LOGIN_PATH } },
      ],
      on: {
        'redirect.done': { target: 'signedOut', actions: ['clearCache', 'clearSession'] },
        'session.forbidden': {},
      },
    },
  },
});

/** The refreshed profile updates only the name and the last visited client and site (spec §4). */
function withProfile(stored: ApiUser | null, profile: ApiUser): ApiUser | null {
  if (!stored) return stored;
  return {
    ...stored,
    name: profile.name,
    last_client_id: profile.last_client_id,
    last_site_id: profile.last_site_id,
  };
}

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

export type SessionStateName =
  | 'restoring'
  | 'signedOut'
  | 'signingIn'
  | 'signedIn'
  | 'signingOut'
  | 'redirecting';

/** The top-level state, which is what views call the session's phase. */
export function sessionStateOf(snapshot: SessionSnapshot): SessionStateName {
  const value = snapshot.value;
  return (typeof value === 'string' ? value : Object.keys(value)[0]) as SessionStateName;
}
