import { queryOptions, useQuery } from '@tanstack/react-query';
import { Type } from 'typebox';
import { DEFAULT_TOPIC_ROOT } from '../domain/live';
import {
  type CreatedDeviceToken,
  CreatedDeviceTokenSchema,
  type DeviceToken,
  DeviceTokenSchema,
} from '../domain/schemas/ingest';
import type { ApiClient } from './client';
import { liveSettingsQuery } from './liveSettings';
import { queryKeys } from './queryKeys';

/**
 * A site's device tokens (GET/POST /api/sites/{id}/device-tokens, POST …/{tokenId}/revoke): the
 * credentials gateways publish with. The secret comes back once, in the reply to its creation.
 */

const DeviceTokenListSchema = Type.Array(DeviceTokenSchema);

export function fetchDeviceTokens(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<DeviceToken[]> {
  // The route answers the array as `data` (no list envelope with meta).
  return api.get(`/sites/${siteId}/device-tokens`, DeviceTokenListSchema, { signal });
}

export function createDeviceToken(
  api: ApiClient,
  siteId: number,
  label: string,
): Promise<CreatedDeviceToken> {
  return api.post(`/sites/${siteId}/device-tokens`, { label: label.trim() }, CreatedDeviceTokenSchema);
}

export function revokeDeviceToken(api: ApiClient, siteId: number, tokenId: number): Promise<DeviceToken> {
  return api.post(`/sites/${siteId}/device-tokens/${tokenId}/revoke`, undefined, DeviceTokenSchema);
}

export function deviceTokensQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.deviceTokens.bySite(siteId),
    queryFn: ({ signal }) => fetchDeviceTokens(api, siteId, signal),
  });
}

export function useDeviceTokens(api: ApiClient, siteId: number) {
  return useQuery(deviceTokensQuery(api, siteId));
}

/** The topic root gateways publish under (MQTT_TOPIC_ROOT), from the live settings; the default when the server does not say. */
export function topicRootQuery(api: ApiClient) {
  return queryOptions({
    ...liveSettingsQuery(api),
    select: (settings) => settings.mqttTopicRoot ?? DEFAULT_TOPIC_ROOT,
  });
}

export function useTopicRoot(api: ApiClient) {
  return useQuery(topicRootQuery(api));
}
