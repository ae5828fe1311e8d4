import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { Type } from 'typebox';
import {
  type ActivityBulkBody,
  type ActivityChangeResult,
  ActivityChangeResultSchema,
  ActivityCodeSchema,
  type ActivityListQuery,
  ActivityListReply,
  type ActivityListReplyBody,
  ActivityWithHistorySchema,
  type ApprovalResult,
  ApprovalResultSchema,
  type ApproveBulkBody,
  DelayCodeSchema,
} from '../domain/schemas/productivity';
import type { ApiClient, Query } from './client';
import { queryKeys } from './queryKeys';

export type { ActivityListQuery };

const activityPath = (siteId: number) => `/sites/${siteId}/activity`;

const ChangeResultsSchema = Type.Object({ results: Type.Array(ActivityChangeResultSchema) });
const ApprovalResultsSchema = Type.Object({ results: Type.Array(ApprovalResultSchema) });
const DelayCodeListSchema = Type.Array(DelayCodeSchema);
const ActivityCodeListSchema = Type.Array(ActivityCodeSchema);

function queryOf(params: ActivityListQuery): Query {
  const query: Query = {};
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') query[key] = value;
  return query;
}

/** One page of a site's activities, with the gain, loss and delay sums of the whole filtered range. */
export async function fetchActivities(
  api: ApiClient,
  siteId: number,
  params: ActivityListQuery,
  signal?: AbortSignal,
): Promise<ActivityListReplyBody> {
  return api.envelope(activityPath(siteId), ActivityListReply, { query: queryOf(params), signal });
}

export function activitiesQuery(api: ApiClient, siteId: number, params: ActivityListQuery) {
  return queryOptions({
    queryKey: queryKeys.productivity.list(siteId, params),
    queryFn: ({ signal }) => fetchActivities(api, siteId, params, signal),
    placeholderData: keepPreviousData,
  });
}

/** One activity with its status history. */
export function activityQuery(api: ApiClient, siteId: number, activityId: number) {
  return queryOptions({
    queryKey: queryKeys.productivity.activity(siteId, activityId),
    queryFn: ({ signal }) =>
      api.get(`${activityPath(siteId)}/${activityId}`, ActivityWithHistorySchema, { signal }),
  });
}

/** Bookings, delays and status actions of several activities; each row answered on its own. */
export async function changeActivities(
  api: ApiClient,
  siteId: number,
  body: ActivityBulkBody,
): Promise<ActivityChangeResult[]> {
  const { results } = await api.post(`${activityPath(siteId)}/bulk`, body, ChangeResultsSchema);
  return results;
}

/** Approves activities at the versions given; a row changed since is refused, not overwritten. */
export async function approveActivities(
  api: ApiClient,
  siteId: number,
  body: ApproveBulkBody,
  signal?: AbortSignal,
): Promise<{ results: ApprovalResult[]; message: string }> {
  const { data, message } = await api.send(
    'POST',
    `${activityPath(siteId)}/approve/bulk`,
    ApprovalResultsSchema,
    {
      body,
      signal,
    },
  );
  return { results: data.results, message };
}

export function delayCodesQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.productivity.delayCodes(siteId),
    queryFn: ({ signal }) => api.get(`/sites/${siteId}/delay-codes`, DelayCodeListSchema, { signal }),
    staleTime: 5 * 60_000,
  });
}

export function activityCodesQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.productivity.activityCodes(siteId),
    queryFn: ({ signal }) => api.get(`/sites/${siteId}/activity-code`, ActivityCodeListSchema, { signal }),
    staleTime: 5 * 60_000,
  });
}
