import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type CreatePowerBiReportBody,
  type EditPowerBiReportBody,
  type PowerBiReport,
  PowerBiReportSchema,
} from '../domain/schemas/powerBi';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

export type { PowerBiReport };

/** GET /sites/{id}/power-bi: every report for its writers, the active ones for its readers. */
export async function fetchPowerBiReports(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<PowerBiReport[]> {
  const { data } = await api.list(`/sites/${siteId}/power-bi`, PowerBiReportSchema, { signal });
  return data;
}

export function createPowerBiReport(api: ApiClient, siteId: number, body: CreatePowerBiReportBody) {
  return api.send('POST', `/sites/${siteId}/power-bi`, PowerBiReportSchema, { body });
}

/** A new name or link, or `is_active` to deactivate or activate the report. */
export function editPowerBiReport(
  api: ApiClient,
  siteId: number,
  reportId: number,
  body: EditPowerBiReportBody,
) {
  return api.send('POST', `/sites/${siteId}/power-bi/${reportId}`, PowerBiReportSchema, { body });
}

export function powerBiReportsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.powerBi.bySite(siteId),
    queryFn: ({ signal }) => fetchPowerBiReports(api, siteId, signal),
  });
}

export function usePowerBiReports(api: ApiClient, siteId: number) {
  return useQuery(powerBiReportsQuery(api, siteId));
}
