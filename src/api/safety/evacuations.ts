import { queryOptions, useQuery } from '@tanstack/react-query';
import { Type } from 'typebox';
import type { DrillComparisonEntry } from '../../domain/drillFigures';
import type { SafetyWorker } from '../../domain/evacuation';
import type { EvacuationReport, EvacuationSessionSummary } from '../../domain/evacuationReport';
import {
  DrillComparisonEntrySchema,
  EvacuationReportSchema,
  EvacuationSessionSummarySchema,
  type SafetyNetwork,
  SafetyNetworkSchema,
  SafetyWorkerSchema,
} from '../../domain/schemas/safety';
import type { ApiClient } from '../client';
import { queryKeys } from '../queryKeys';
import { safetyPaths } from './safetyPaths';

/** The evacuation screen's networks and workers, and past evacuations with their reports. */

const SafetyWorkerListSchema = Type.Array(SafetyWorkerSchema);

export type { SafetyNetwork };

/** POST /api/safety/getworkers: a floor's helmets of one network, with the evacuation fields. */
export async function fetchSafetyWorkers(
  api: ApiClient,
  body: { networkId: number; blueprintId: number },
  signal?: AbortSignal,
): Promise<SafetyWorker[]> {
  // The route answers the array as `data`, not as a list envelope.
  const { data } = await api.send('POST', safetyPaths.getWorkers, SafetyWorkerListSchema, { body, signal });
  return data;
}

/** GET /api/safety/sites/{siteId}/networks: the gateways of the start dialog. */
export async function fetchSafetyNetworks(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<SafetyNetwork[]> {
  const { data } = await api.list(safetyPaths.networks(siteId), SafetyNetworkSchema, { signal });
  return data;
}

/** GET /api/safety/sites/{siteId}/evacuations: past and running sessions, newest first. */
export async function fetchEvacuationSessions(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<EvacuationSessionSummary[]> {
  const { data } = await api.list(safetyPaths.evacuations(siteId), EvacuationSessionSummarySchema, {
    signal,
  });
  return data;
}

/** GET /api/safety/evacuations/{sessionId}/report. */
export function fetchEvacuationReport(
  api: ApiClient,
  sessionId: string,
  signal?: AbortSignal,
): Promise<EvacuationReport> {
  return api.get(safetyPaths.report(sessionId), EvacuationReportSchema, { signal });
}

/** GET /api/safety/sites/{siteId}/evacuations/figures: past drills' figures, oldest first. */
export async function fetchDrillComparison(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<DrillComparisonEntry[]> {
  const { data } = await api.list(safetyPaths.drillFigures(siteId), DrillComparisonEntrySchema, { signal });
  return data;
}

export function safetyNetworksQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.safety.networks(siteId),
    queryFn: ({ signal }) => fetchSafetyNetworks(api, siteId, signal),
    staleTime: 60_000,
  });
}

export function safetyWorkersQuery(api: ApiClient, networkId: number, floorId: number) {
  return queryOptions({
    queryKey: queryKeys.safety.workers(networkId, floorId),
    queryFn: ({ signal }) => fetchSafetyWorkers(api, { networkId, blueprintId: floorId }, signal),
  });
}

export function evacuationsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.safety.evacuations(siteId),
    queryFn: ({ signal }) => fetchEvacuationSessions(api, siteId, signal),
  });
}

export function evacuationReportQuery(api: ApiClient, sessionId: string) {
  return queryOptions({
    queryKey: queryKeys.safety.report(sessionId),
    queryFn: ({ signal }) => fetchEvacuationReport(api, sessionId, signal),
  });
}

/** Under the site's evacuations key, so whatever refreshes the list refreshes the comparison. */
export function drillComparisonQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.safety.drillComparison(siteId),
    queryFn: ({ signal }) => fetchDrillComparison(api, siteId, signal),
  });
}

export function useSafetyNetworks(api: ApiClient, siteId: number) {
  return useQuery(safetyNetworksQuery(api, siteId));
}

export function useEvacuations(api: ApiClient, siteId: number) {
  return useQuery(evacuationsQuery(api, siteId));
}

export function useEvacuationReport(api: ApiClient, sessionId: string) {
  return useQuery(evacuationReportQuery(api, sessionId));
}
