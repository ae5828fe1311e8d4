import { useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type ApiClient, createApiClient } from '../../api/client';
import { liveSettingsQuery, liveUrl } from '../../api/liveSettings';
import { sessionStateOf } from '../../machines/session.machine';
import { createLiveClient, type LiveClient } from '../../streams/liveClient';
import { useApi, useSessionActor, useTokenSource } from './SessionProvider';

/** The safety listener's REST client (spec §7 "Safety service"), made once per tab. */
export interface SafetyApi {
  /** Null until the safety listener's port is known. */
  api: ApiClient | null;
  /** The safety listener's origin, for downloads. */
  baseUrl: string | null;
  error: unknown;
}

interface LiveRuntime {
  live: LiveClient;
  safety: SafetyApi;
}

const LiveContext = createContext<LiveRuntime | null>(null);

/**
 * The tab's one live client (one socket.io connection, every feed multiplexed over it) and the
 * one client of the safety listener's REST calls, for the signed-in screens (it is not part of
 * the login page's download). The session owns the token; when it ends, or the signed-in routes
 * unmount, every feed closes at once and the next session gets a client of its own.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const { getToken } = useTokenSource();
  const session = useSessionActor();
  const signedIn = useSelector(session, (snapshot) => sessionStateOf(snapshot) === 'signedIn');
  const onUnauthorized = useCallback(() => session.send({ type: 'session.unauthorized' }), [session]);
  const [live, setLive] = useState(() => createLiveClient({ api, getToken }));

  // A closed client (a StrictMode remount, a session that ended) is replaced; unmounting closes it.
  useEffect(() => {
    if (live.isClosed()) {
      setLive(createLiveClient({ api, getToken }));
      return;
    }
    return () => live.close('Signed out');
  }, [live, api, getToken]);

  const wasSignedIn = useRef(signedIn);
  useEffect(() => {
    const ended = wasSignedIn.current && !signedIn;
    wasSignedIn.current = signedIn;
    if (!ended) return;
    live.close('Signed out');
    setLive(createLiveClient({ api, getToken }));
  }, [signedIn, live, api, getToken]);

  const settings = useQuery({ ...liveSettingsQuery(api), enabled: signedIn });
  const baseUrl = settings.data ? liveUrl(window.location, settings.data) : null;
  const safetyApi = useMemo(
    () => (baseUrl === null ? null : createApiClient({ baseUrl, getToken, onUnauthorized })),
    [baseUrl, getToken, onUnauthorized],
  );

  const runtime = useMemo<LiveRuntime>(
    () => ({ live, safety: { api: safetyApi, baseUrl, error: settings.error } }),
    [live, safetyApi, baseUrl, settings.error],
  );
  return <LiveContext.Provider value={runtime}>{children}</LiveContext.Provider>;
}

function useLiveRuntime(): LiveRuntime {
  const runtime = useContext(LiveContext);
  if (!runtime) throw new Error('useLiveClient must be used inside <LiveProvider>');
  return runtime;
}

/** The tab's live client. */
export function useLiveClient(): LiveClient {
  return useLiveRuntime().live;
}

/**
 * The safety listener's REST client. A 401 ends the session as on the main API; a 403 is left
 * to the screen, which shows the service's reason where it happens (the demo's "only on the demo
 * site") instead of leaving for /403.
 */
export function useSafetyApi(): SafetyApi {
  return useLiveRuntime().safety;
}
