import { QueryClientContext } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from 'wouter/use-browser-location';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import { type ApiClient, createApiClient } from '../../api/client';
import { type SessionSnapshot, sessionMachine, sessionStateOf } from '../../machines/session.machine';
import { notify } from '../notify';
import type { SessionActions, SessionView } from './sessionContract';
import { createSessionEffects } from './sessionEffects';
import {
  browserStorage,
  clearStoredSession,
  readStoredSession,
  readToken,
  STORAGE_KEYS,
} from './storedSession';

type SessionActor = ActorRefFrom<typeof sessionMachine>;

const ApiContext = createContext<ApiClient | null>(null);
const SessionActorContext = createContext<SessionActor | null>(null);

/** What a download or image outside the JSON client needs: the API's base and the token reader. */
export interface TokenSource {
  baseUrl: string;
  getToken: () => string | null;
}
const TokenContext = createContext<TokenSource | null>(null);

export interface SessionProviderProps {
  children: ReactNode;
  /** Where the main API lives; the console is served with it, under /api. */
  baseUrl?: string;
}

/**
 * Owns the session: the one reader of the stored token, the API client (its token read at every
 * call), the session machine with its real effects, and the listener for other tabs changing the
 * stored session. The signed-in screens get the tab's live client from LiveProvider.
 */
export function SessionProvider({ children, baseUrl = '/api' }: SessionProviderProps) {
  const queryClient = useContext(QueryClientContext);
  const { i18n } = useTranslation();
  // Read by effects at the time they run, so a later QueryClient or language is the one used.
  const latest = useRef({ queryClient, i18n });
  latest.current = { queryClient, i18n };

  const [runtime] = useState(() => {
    const storage = browserStorage();
    const stored = readStoredSession(storage);
    // Half a session (a token without its user, or unreadable JSON) is no session.
    if (!stored) clearStoredSession(storage);
    // The actor exists only after useActorRef; the client's callbacks find it here.
    const target: { actor: AnyActorRef | null } = { actor: null };
    const getToken = () => readToken(storage);
    const api = createApiClient({
      baseUrl,
      getToken,
      onUnauthorized: () => target.actor?.send({ type: 'session.unauthorized' }),
      onForbidden: () => target.actor?.send({ type: 'session.forbidden' }),
    });
    const machine = sessionMachine.provide(
      createSessionEffects({
        api,
        storage,
        notify,
        navigate: (to, options) => navigate(to, options),
        reload: () => window.location.reload(),
        isOnline: () => navigator.onLine,
        clearCache: () => latest.current.queryClient?.clear(),
        translate: (key, fallback) => latest.current.i18n.t(key, { defaultValue: fallback }),
      }),
    );
    return { api, machine, stored, target, getToken, tokenSource: { baseUrl, getToken } };
  });

  const actor = useActorRef(runtime.machine, { input: runtime.stored });
  runtime.target.actor = actor;

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea !== browserStorage()) return;
      // key null: another tab cleared the whole storage.
      if (event.key === null || event.key === STORAGE_KEYS.auth || event.key === STORAGE_KEYS.user) {
        actor.send({ type: 'storage.changed' });
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [actor]);

  return (
    <ApiContext.Provider value={runtime.api}>
      <TokenContext.Provider value={runtime.tokenSource}>
        <SessionActorContext.Provider value={actor}>{children}</SessionActorContext.Provider>
      </TokenContext.Provider>
    </ApiContext.Provider>
  );
}

export function useApi(): ApiClient {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi must be used inside <SessionProvider>');
  return api;
}

/**
 * The API's base and the session's token reader (read at the moment it is called), for downloads
 * and images that the JSON client does not fetch.
 */
export function useTokenSource(): TokenSource {
  const source = useContext(TokenContext);
  if (!source) throw new Error('useTokenSource must be used inside <SessionProvider>');
  return source;
}

/** The session actor itself, for the rare view that needs `state.can(...)`. */
export function useSessionActor(): SessionActor {
  const actor = useContext(SessionActorContext);
  if (!actor) throw new Error('useSession must be used inside <SessionProvider>');
  return actor;
}

const selectPhase = (snapshot: SessionSnapshot) => sessionStateOf(snapshot);
const selectUser = (snapshot: SessionSnapshot) => snapshot.context.user;
const selectLoginError = (snapshot: SessionSnapshot) => snapshot.context.loginError;
const selectBusy = (snapshot: SessionSnapshot) => snapshot.hasTag('busy');

/** The session as views see it. Each field is its own selection, so unrelated changes do not re-render. */
export function useSession(): SessionView & SessionActions {
  const actor = useSessionActor();
  const phase = useSelector(actor, selectPhase);
  const user = useSelector(actor, selectUser);
  const loginError = useSelector(actor, selectLoginError);
  const busy = useSelector(actor, selectBusy);

  const actions = useMemo<SessionActions>(
    () => ({
      login: (credentials) => actor.send({ type: 'login.submit', ...credentials }),
      logout: () => actor.send({ type: 'logout.start' }),
      rememberSelection: ({ clientId, siteId }) =>
        actor.send({ type: 'selection.changed', clientId, siteId }),
      setLocale: (locale) => actor.send({ type: 'locale.changed', locale }),
    }),
    [actor],
  );

  return useMemo(
    () => ({ phase, user, loginError, busy, ...actions }),
    [phase, user, loginError, busy, actions],
  );
}
