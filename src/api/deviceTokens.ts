import { queryOptions } from '@tanstack/react-query';
import { type Static, type TSchema, Type } from 'typebox';
import { Value } from 'typebox/value';
import { DEFAULT_TOPIC_ROOT } from '../domain/live';
import { messages } from '../domain/messages';
import {
  type CreatedDeviceToken,
  CreatedDeviceTokenSchema,
  type DeviceToken,
  DeviceTokenSchema,
} from '../domain/schemas/ingest';
import { ApiError } from './apiError';
import type { ApiClient } from './client';

/**
 * A site's device tokens (GET/POST /api/sites/{id}/device-tokens, POST …/{tokenId}/revoke): the
 * credentials gateways publish with. The secret comes back once, in the reply to its creation.
 */

export const deviceTokenKeys = {
  all: ['deviceTokens'] as const,
  bySite: (siteId: number) => ['deviceTokens', 'bySite', siteId] as const,
  /** The MQTT topic root, from the public live settings. */
  topicRoot: () => ['deviceTokens', 'topicRoot'] as const,
};

/** A reply that is not what was asked for fails here, not inside a view. */
function checked<S extends TSchema>(schema: S, value: unknown): Static<S> {
  if (Value.Check(schema, value)) return value as Static<S>;
  throw new ApiError({ kind: 'reply', message: messages.somethingWentWrongContactSupport });
}

const DeviceTokenListSchema = Type.Array(DeviceTokenSchema);
const TopicRootSettingsSchema = Type.Object({ mqttTopicRoot: Type.String({ minLength: 1 }) });

export async function fetchDeviceTokens(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<DeviceToken[]> {
  return checked(DeviceTokenListSchema, await api.get<unknown>(`/sites/${siteId}/device-tokens`, { signal }));
}

export async function createDeviceToken(
  api: ApiClient,
  siteId: number,
  label: string,
): Promise<CreatedDeviceToken> {
  return checked(
    CreatedDeviceTokenSchema,
    await api.post<unknown>(`/sites/${siteId}/device-tokens`, { label: label.trim() }),
  );
}

export async function revokeDeviceToken(
  api: ApiClient,
  siteId: number,
  tokenId: number,
): Promise<DeviceToken> {
  return checked(
    DeviceTokenSchema,
    await api.post<unknown>(`/sites/${siteId}/device-tokens/${tokenId}/revoke`),
  );
}

export function deviceTokensQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: deviceTokenKeys.bySite(siteId),
    queryFn: ({ signal }) => fetchDeviceTokens(api, siteId, signal),
  });
}

/** The topic root gateways publish under (MQTT_TOPIC_ROOT); the default when the server does not say. */
export function topicRootQuery(api: ApiClient) {
  return queryOptions({
    queryKey: deviceTokenKeys.topicRoot(),
    queryFn: async ({ signal }) => {
      const settings = await api.get<unknown>('/live-settings', { signal });
      return Value.Check(TopicRootSettingsSchema, settings) ? settings.mqttTopicRoot : DEFAULT_TOPIC_ROOT;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}
