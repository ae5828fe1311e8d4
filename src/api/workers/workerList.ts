import { queryOptions, useQuery } from '@tanstack/react-query';
import { WorkerRowSchema } from '../../domain/schemas/workerReplies';
import type { WorkerFlat } from '../../domain/workers';
import type { ApiClient } from '../client';
import { queryKeys } from '../queryKeys';
import type { WorkerFilters, WorkerListParams } from '../queryParams';

/** GET /sites/{id}/workers (spec §7 "Workers"): pages sorted and filtered by the server. */

export type { WorkerFilters, WorkerListParams };

export interface WorkerPage {
  rows: WorkerFlat[];
  page: number;
  perPage: number;
  total: number;
}

/** The list's query string: filters that are unset are left out. */
export function workerListQuery(params: WorkerListParams): Record<string, string | number | undefined> {
  const search = params.search?.trim();
  return {
    page: params.page,
    perPage: params.perPage,
    sort: `${params.sort.field},${params.sort.direction}`,
    search: search ? search : undefined,
    roleId: params.roleId ?? undefined,
    subcontractorId: params.subcontractorId ?? undefined,
    crewId: params.crewId ?? undefined,
    workshiftId: params.workshiftId ?? undefined,
    status: params.status ?? undefined,
  };
}

/** One page, with its total. */
export async function fetchWorkerPage(
  api: ApiClient,
  siteId: number,
  params: WorkerListParams,
  signal?: AbortSignal,
): Promise<WorkerPage> {
  const reply = await api.list(`/sites/${siteId}/workers`, WorkerRowSchema, {
    signal,
    query: workerListQuery(params),
  });
  const rows = reply.data;
  const meta = reply.meta ?? { page: params.page, perPage: params.perPage, total: rows.length };
  return { rows, page: meta.page, perPage: meta.perPage, total: meta.total };
}

/** Every page of the filtered list (the export), `perPage` rows per call; `onProgress` after each. */
export async function fetchAllWorkers(
  api: ApiClient,
  siteId: number,
  params: Omit<WorkerListParams, 'page' | 'perPage'>,
  options: { perPage?: number; signal?: AbortSignal; onProgress?(fetched: number, total: number): void } = {},
): Promise<WorkerFlat[]> {
  const perPage = options.perPage ?? 500;
  const all: WorkerFlat[] = [];
  for (let page = 1; ; page++) {
    const reply = await fetchWorkerPage(api, siteId, { ...params, page, perPage }, options.signal);
    all.push(...reply.rows);
    options.onProgress?.(all.length, reply.total);
    if (reply.rows.length < perPage || all.length >= reply.total) return all;
  }
}

export function workerPageQuery(api: ApiClient, siteId: number, params: WorkerListParams) {
  return queryOptions({
    queryKey: queryKeys.workers.list(siteId, params),
    queryFn: ({ signal }) => fetchWorkerPage(api, siteId, params, signal),
  });
}

export function useWorkerPage(api: ApiClient, siteId: number, params: WorkerListParams) {
  return useQuery(workerPageQuery(api, siteId, params));
}
