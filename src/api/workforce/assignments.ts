import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  AssignReplySchema,
  type LatestAssignments,
  LatestAssignmentsSchema,
  type WorkerOption,
  WorkerOptionSchema,
} from '../../domain/schemas/workforce';
import type { ApiClient } from '../client';
import { queryKeys } from '../queryKeys';

/** Assignments (issue 6): crews and work shifts take workers from a date on. */

export type { LatestAssignments, WorkerOption };

/** Where workers are put: a crew or a work shift. */
export type AssignmentKind = 'crews' | 'workshifts';

/** POST …/assign: the workers and the date (YYYY-MM-DD, in the site's time zone) they start on. */
export interface AssignBody {
  workerIds: number[];
  assigned_at: string;
}

export interface AssignResult {
  assigned: number;
  /** YYYY-MM-DD */
  assigned_at: string;
  /** The server's message, for the success toast. */
  message: string;
}

/** GET …/workers/workshift-and-crews/latest: each worker's current crew and work shift. */
export function fetchLatestAssignments(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<LatestAssignments> {
  return api.get(`/sites/${siteId}/workers/workshift-and-crews/latest`, LatestAssignmentsSchema, { signal });
}

export function latestAssignmentsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.workforce.latest(siteId),
    queryFn: ({ signal }) => fetchLatestAssignments(api, siteId, signal),
  });
}

export function useLatestAssignments(api: ApiClient, siteId: number) {
  return useQuery(latestAssignmentsQuery(api, siteId));
}

/** POST /sites/{id}/workers/crews/{crewId}/assign or …/workers/workshifts/{workshiftId}/assign. */
export async function assignWorkers(
  api: ApiClient,
  siteId: number,
  kind: AssignmentKind,
  targetId: number,
  body: AssignBody,
): Promise<AssignResult> {
  const { data, message } = await api.send(
    'POST',
    `/sites/${siteId}/workers/${kind}/${targetId}/assign`,
    AssignReplySchema,
    { body },
  );
  const fallback =
    kind === 'crews' ? 'Workers are assigned to the crew' : 'Workers are assigned to the workshift';
  return { ...data, message: message || fallback };
}

/** How many matches the worker picker shows at once; typing more narrows them. */
export const WORKER_OPTIONS_PER_PAGE = 20;

/** GET /sites/{id}/workers?search=…: the first matches by name, for the assignment pickers. */
export async function searchWorkerOptions(
  api: ApiClient,
  siteId: number,
  search: string,
  signal?: AbortSignal,
): Promise<WorkerOption[]> {
  const text = search.trim();
  const reply = await api.list(`/sites/${siteId}/workers`, WorkerOptionSchema, {
    signal,
    query: {
      page: 1,
      perPage: WORKER_OPTIONS_PER_PAGE,
      sort: 'name,asc',
      search: text === '' ? undefined : text,
    },
  });
  return reply.data.map(({ id, name, worker_tag_id }) => ({ id, name, worker_tag_id }));
}

export function workerOptionsQuery(api: ApiClient, siteId: number, search: string) {
  return queryOptions({
    queryKey: queryKeys.workforce.workerOptions(siteId, search.trim()),
    queryFn: ({ signal }) => searchWorkerOptions(api, siteId, search, signal),
    placeholderData: (previous) => previous,
  });
}

export function useWorkerOptions(api: ApiClient, siteId: number, search: string) {
  return useQuery(workerOptionsQuery(api, siteId, search));
}
