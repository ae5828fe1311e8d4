import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type ApiClient, createApiClient } from '../../api/client';
import { liveSettingsQuery, liveUrl } from '../../api/live';
import { useApi, useSessionActor } from '../session/SessionProvider';
import { browserStorage, readToken } from '../session/storedSession';

export interface SafetyApi {
  /** Null until the safety listener's port is known. */
  api: ApiClient | null;
  /** The safety listener's origin, for downloads. */
  baseUrl: string | null;
  error: unknown;
  getToken: () => string | null;
}

const getToken = () => readToken(browserStorage());

/**
 * A client of the safety listener (SAFETY_PORT on the page's host). A 401 ends the session as on
 * the main API; a 403 is left to the screen, which shows the service's reason where it happens
 * (the demo's "only on the demo site") instead of leaving for /403.
 */
export function useSafetyApi(): SafetyApi {
  const mainApi = useApi();
  const session = useSessionActor();
  const settings = useQuery(liveSettingsQuery(mainApi));
  const baseUrl = settings.data ? liveUrl(window.location, settings.data) : null;
  const api = useMemo(
    () =>
      baseUrl === null
        ? null
        : createApiClient({
            baseUrl,
            getToken,
            onUnauthorized: () => session.send({ type: 'session.unauthorized' }),
          }),
    [baseUrl, session],
  );
  return { api, baseUrl, error: settings.error, getToken };
}
