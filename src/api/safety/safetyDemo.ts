import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Evacuation } from '../../domain/evacuation';
import { type SafetyDemoStatus, safetyDemoPath, safetyDrillPath } from '../../domain/safetyDemo';
import { EvacuationSchema, SafetyDemoStatusSchema } from '../../domain/schemas/safety';
import type { ApiClient } from '../client';
import { queryKeys } from '../queryKeys';

/** The safety demo (issue 5): whether the drill can run on a site, and running it. */

export function fetchSafetyDemo(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<SafetyDemoStatus> {
  return api.get(safetyDemoPath(siteId), SafetyDemoStatusSchema, { signal });
}

export function safetyDemoQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.safety.demo(siteId),
    queryFn: ({ signal }) => fetchSafetyDemo(api, siteId, signal),
  });
}

export function useSafetyDemo(api: ApiClient, siteId: number) {
  return useQuery(safetyDemoQuery(api, siteId));
}

export function runSafetyDrill(api: ApiClient, siteId: number): Promise<Evacuation> {
  return api.post(safetyDrillPath(siteId), undefined, EvacuationSchema);
}
