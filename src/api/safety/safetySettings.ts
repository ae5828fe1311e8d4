import { queryOptions } from '@tanstack/react-query';
import { Type } from 'typebox';
import type { SafetySettings } from '../../domain/escalation';
import type { ApiClient, DataReply } from '../client';
import { queryKeys } from '../queryKeys';

/** GET/PUT /api/safety/sites/{siteId}/settings on the safety listener. */
export const safetySettingsPath = (siteId: number) => `/api/safety/sites/${siteId}/settings`;

/** The fields the dialog branches on are checked; the levels are shown as they come. */
export const SafetySettingsSchema = Type.Unsafe<SafetySettings>(
  Type.Object({
    possiblyInsideHours: Type.Union([Type.Number(), Type.Null()]),
    escalationLevels: Type.Array(Type.Object({ level: Type.Integer(), afterMinutes: Type.Number() })),
  }),
);

export function fetchSafetySettings(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<SafetySettings> {
  return api.get(safetySettingsPath(siteId), SafetySettingsSchema, { signal });
}

/** Saves them; the reply carries what was stored and the server's message. */
export function saveSafetySettings(
  api: ApiClient,
  siteId: number,
  settings: SafetySettings,
): Promise<DataReply<SafetySettings>> {
  return api.send('PUT', safetySettingsPath(siteId), SafetySettingsSchema, { body: settings });
}

export function safetySettingsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.safety.settings(siteId),
    queryFn: ({ signal }) => fetchSafetySettings(api, siteId, signal),
  });
}
