import { queryOptions, useQuery } from '@tanstack/react-query';
import { type WorkshiftReply, WorkshiftReplySchema } from '../../domain/schemas/workforce';
import type { ApiClient } from '../client';
import { queryKeys } from '../queryKeys';
import { byName } from './byName';

export interface ShiftBreakTimes {
  /** HH:mm */
  start: string;
  /** HH:mm */
  end: string;
}

/** A work shift (spec §3): times are HH:mm in the site's time zone; an end before the start crosses midnight. */
export interface Workshift {
  id: number;
  name: string;
  category: string;
  /** 0 = Sunday … 6 = Saturday. */
  non_working_days: number[];
  start: string;
  end: string;
  breaks: ShiftBreakTimes[];
}

/** What create and edit send. */
export interface WorkshiftBody {
  name: string;
  category: string;
  non_working_days: number[];
  start: string;
  end: string;
  breaks: ShiftBreakTimes[];
}

function toWorkshift(reply: WorkshiftReply): Workshift {
  return {
    id: reply.id,
    name: reply.name,
    category: reply.category ?? '',
    non_working_days: reply.non_working_days ?? [],
    start: reply.start ?? reply.start_time ?? '',
    end: reply.end ?? reply.end_time ?? '',
    breaks: reply.breaks ?? [],
  };
}

export async function fetchWorkshifts(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<Workshift[]> {
  const { data } = await api.list(`/sites/${siteId}/workshifts`, WorkshiftReplySchema, { signal });
  return data.map(toWorkshift).sort(byName);
}

export async function createWorkshift(
  api: ApiClient,
  siteId: number,
  body: WorkshiftBody,
): Promise<Workshift> {
  return toWorkshift(await api.post(`/sites/${siteId}/workshifts`, body, WorkshiftReplySchema));
}

export async function editWorkshift(
  api: ApiClient,
  siteId: number,
  id: number,
  body: WorkshiftBody,
): Promise<Workshift> {
  return toWorkshift(await api.post(`/sites/${siteId}/workshifts/${id}`, body, WorkshiftReplySchema));
}

export function workshiftsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.workforce.workshifts(siteId),
    queryFn: ({ signal }) => fetchWorkshifts(api, siteId, signal),
  });
}

export function useWorkshifts(api: ApiClient, siteId: number) {
  return useQuery(workshiftsQuery(api, siteId));
}
