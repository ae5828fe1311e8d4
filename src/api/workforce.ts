import { queryOptions } from '@tanstack/react-query';
import { type Static, type TSchema, Type } from 'typebox';
import { Value } from 'typebox/value';
import { messages } from '../domain/messages';
import { ApiError } from './apiError';
import type { ApiClient } from './client';

/**
 * Fetchers of spec §7 "Workers, worker roles, subcontractors" and "Work shifts, crews, groups"
 * (paths relative to the client's `/api` base), and their query options. Replies are checked
 * here, so a view never meets a shape it did not ask for.
 */

/** The name lists of a site: each is GET (sorted name,asc), POST create and POST /{id} edit. */
export type NameListKind = 'worker-roles' | 'subcontractors' | 'crews';

const NamedItemSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  site_id: Type.Optional(Type.Integer()),
  created_at: Type.Optional(Type.String()),
  updated_at: Type.Optional(Type.String()),
});
/** A worker role, a subcontractor or a crew (spec §3 Crew: id, name). */
export type NamedItem = Static<typeof NamedItemSchema>;

const BreakSchema = Type.Object({ start: Type.String(), end: Type.String() });
const WorkshiftReplySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  category: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  non_working_days: Type.Optional(Type.Array(Type.Integer())),
  start: Type.Optional(Type.String()),
  end: Type.Optional(Type.String()),
  start_time: Type.Optional(Type.String()),
  end_time: Type.Optional(Type.String()),
  breaks: Type.Optional(Type.Array(BreakSchema)),
  updated_at: Type.Optional(Type.String()),
});

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

/** A reply that is not what was asked for fails here, not inside a view. */
function checked<S extends TSchema>(schema: S, value: unknown): Static<S> {
  if (Value.Check(schema, value)) return value as Static<S>;
  throw new ApiError({ kind: 'reply', message: messages.somethingWentWrongContactSupport });
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || 0;

function toWorkshift(value: unknown): Workshift {
  const reply = checked(WorkshiftReplySchema, value);
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

// Fetchers: one per endpoint, no UI side effects.

export async function fetchNameList(
  api: ApiClient,
  siteId: number,
  kind: NameListKind,
  signal?: AbortSignal,
): Promise<NamedItem[]> {
  const { data } = await api.list<unknown>(`/sites/${siteId}/${kind}`, { signal });
  // The server sorts name,asc already; crews have no promised order, so sort them the same way.
  return [...checked(Type.Array(NamedItemSchema), data)].sort(byName);
}

export async function createNamedItem(
  api: ApiClient,
  siteId: number,
  kind: NameListKind,
  name: string,
): Promise<NamedItem> {
  return checked(NamedItemSchema, await api.post<unknown>(`/sites/${siteId}/${kind}`, { name: name.trim() }));
}

export async function editNamedItem(
  api: ApiClient,
  siteId: number,
  kind: NameListKind,
  id: number,
  name: string,
): Promise<NamedItem> {
  return checked(
    NamedItemSchema,
    await api.post<unknown>(`/sites/${siteId}/${kind}/${id}`, { name: name.trim() }),
  );
}

export async function fetchWorkshifts(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<Workshift[]> {
  const { data } = await api.list<unknown>(`/sites/${siteId}/workshifts`, { signal });
  if (!Array.isArray(data))
    throw new ApiError({ kind: 'reply', message: messages.somethingWentWrongContactSupport });
  return data.map(toWorkshift).sort(byName);
}

export async function createWorkshift(
  api: ApiClient,
  siteId: number,
  body: WorkshiftBody,
): Promise<Workshift> {
  return toWorkshift(await api.post<unknown>(`/sites/${siteId}/workshifts`, body));
}

export async function editWorkshift(
  api: ApiClient,
  siteId: number,
  id: number,
  body: WorkshiftBody,
): Promise<Workshift> {
  return toWorkshift(await api.post<unknown>(`/sites/${siteId}/workshifts/${id}`, body));
}

// Query options: each owns its key.

export const workforceKeys = {
  all: ['workforce'] as const,
  nameList: (siteId: number, kind: NameListKind) => ['workforce', kind, siteId] as const,
  workshifts: (siteId: number) => ['workforce', 'workshifts', siteId] as const,
  latest: (siteId: number) => ['workforce', 'latest', siteId] as const,
} as const;

export function nameListQuery(api: ApiClient, siteId: number, kind: NameListKind) {
  return queryOptions({
    queryKey: workforceKeys.nameList(siteId, kind),
    queryFn: ({ signal }) => fetchNameList(api, siteId, kind, signal),
  });
}

export function workshiftsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: workforceKeys.workshifts(siteId),
    queryFn: ({ signal }) => fetchWorkshifts(api, siteId, signal),
  });
}

const Nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);
const LatestAssignmentSchema = Type.Object({
  worker_id: Type.Integer(),
  worker_name: Type.String(),
  crew_id: Nullable(Type.Integer()),
  crew_name: Nullable(Type.String()),
  /** YYYY-MM-DD */
  crew_assigned_at: Nullable(Type.String()),
  workshift_id: Nullable(Type.Integer()),
  workshift_name: Nullable(Type.String()),
  workshift_assigned_at: Nullable(Type.String()),
});
const LatestAssignmentsSchema = Type.Object({
  /** The site's date the assignments are current on. */
  date: Type.String(),
  workers: Type.Array(LatestAssignmentSchema),
});
/** Each worker's current crew and work shift (GET .../workers/workshift-and-crews/latest). */
export type LatestAssignments = Static<typeof LatestAssignmentsSchema>;

export async function fetchLatestAssignments(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<LatestAssignments> {
  return checked(
    LatestAssignmentsSchema,
    await api.get<unknown>(`/sites/${siteId}/workers/workshift-and-crews/latest`, { signal }),
  );
}

export function latestAssignmentsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: workforceKeys.latest(siteId),
    queryFn: ({ signal }) => fetchLatestAssignments(api, siteId, signal),
  });
}
