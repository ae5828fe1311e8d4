import { queryOptions, useQuery } from '@tanstack/react-query';
import { type LiveSettings, LiveSettingsSchema } from '../domain/schemas/liveSettings';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/** GET /live-settings (public): where the live channel and the safety listener are. */

export type { LiveSettings };

export function fetchLiveSettings(api: ApiClient, signal?: AbortSignal): Promise<LiveSettings> {
  return api.get('/live-settings', LiveSettingsSchema, { signal });
}

export function liveSettingsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: queryKeys.live.settings(),
    queryFn: ({ signal }) => fetchLiveSettings(api, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useLiveSettings(api: ApiClient) {
  return useQuery(liveSettingsQuery(api));
}

/** The safety listener (live socket and safety REST calls) on the page's own host. */
export function liveUrl(location: Pick<Location, 'protocol' | 'hostname'>, settings: LiveSettings): string {
  return `${location.protocol}//${location.hostname}:${settings.safetyPort}`;
}
