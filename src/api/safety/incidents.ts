import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SafetyIncident } from '../../domain/incidents';
import { SafetyIncidentSchema } from '../../domain/schemas/safety';
import type { ApiClient } from '../client';
import { queryKeys } from '../queryKeys';
import { type IncidentQuery, safetyPaths } from './safetyPaths';

/** GET /api/safety/incident/getAll/{siteId}/{from}/{to}/{status?}: newest first. */
export async function fetchSafetyIncidents(
  api: ApiClient,
  query: IncidentQuery,
  signal?: AbortSignal,
): Promise<SafetyIncident[]> {
  const { data } = await api.list(safetyPaths.incidents(query), SafetyIncidentSchema, { signal });
  return data;
}

/**
 * POST /api/safety/incident/escelate (the spec's spelling): one level up. `level` is the level the
 * user saw, so a step someone else took meanwhile is refused instead of repeated.
 */
export function escalateSafetyIncident(
  api: ApiClient,
  incidentId: number,
  level?: number,
): Promise<SafetyIncident> {
  return api.post(safetyPaths.escalate, { incidentId, level }, SafetyIncidentSchema);
}

export const incidentStepPaths = {
  acknowledge: '/api/safety/incident/acknowledge',
  resolve: '/api/safety/incident/resolve',
} as const;

/** POST /api/safety/incident/acknowledge | resolve: the incident after the step. */
export function settleSafetyIncident(
  api: ApiClient,
  action: keyof typeof incidentStepPaths,
  incidentId: number,
): Promise<SafetyIncident> {
  return api.post(incidentStepPaths[action], { incidentId }, SafetyIncidentSchema);
}

export function incidentsQuery(api: ApiClient, query: IncidentQuery) {
  return queryOptions({
    queryKey: queryKeys.safety.incidents(query),
    queryFn: ({ signal }) => fetchSafetyIncidents(api, query, signal),
  });
}

export function useIncidents(api: ApiClient, query: IncidentQuery) {
  return useQuery(incidentsQuery(api, query));
}
