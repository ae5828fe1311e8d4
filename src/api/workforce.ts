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

// Assignments and crew managers (issue 6): crews and work shifts take workers from a date on.

/** Where workers are put: a crew or a work shift. */
export type AssignmentKind = 'crews' | 'workshifts';

/** POST …/assign: the workers and the date (YYYY-MM-DD, in the site's time zone) they start on. */
export interface AssignBody {
  workerIds: number[];
  assigned_at: string;
}

const AssignReplySchema = Type.Object({ assigned: Type.Integer(), assigned_at: Type.String() });

export interface AssignResult {
  assigned: number;
  /** YYYY-MM-DD */
  assigned_at: string;
  /** The server's message, for the success toast. */
  message: string;
}

/** POST /sites/{id}/workers/crews/{crewId}/assign or …/workers/workshifts/{workshiftId}/assign. */
export async function assignWorkers(
  api: ApiClient,
  siteId: number,
  kind: AssignmentKind,
  targetId: number,
  body: AssignBody,
): Promise<AssignResult> {
  const reply = await api.request<unknown>('POST', `/sites/${siteId}/workers/${kind}/${targetId}/assign`, {
    body,
  });
  const data = checked(AssignReplySchema, reply.data);
  const fallback =
    kind === 'crews' ? 'Workers are assigned to the crew' : 'Workers are assigned to the workshift';
  return { ...data, message: reply.message || fallback };
}

const CrewWithManagersSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  manager_ids: Type.Array(Type.Integer()),
});
/** A crew with the ids of the users (crew-manager role) who manage it. */
export type CrewWithManagers = Static<typeof CrewWithManagersSchema>;

export async function fetchCrewsWithManagers(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<CrewWithManagers[]> {
  const { data } = await api.list<unknown>(`/sites/${siteId}/crews`, { signal });
  return checked(Type.Array(CrewWithManagersSchema), data)
    .map(({ id, name, manager_ids }) => ({ id, name, manager_ids }))
    .sort(byName);
}

/** POST /sites/{id}/crews/{crewId}/managers (admins only): the crew's managers become exactly these. */
export async function setCrewManagers(
  api: ApiClient,
  siteId: number,
  crewId: number,
  userIds: number[],
): Promise<{ crew: CrewWithManagers; message: string }> {
  const reply = await api.request<unknown>('POST', `/sites/${siteId}/crews/${crewId}/managers`, {
    body: { userIds },
  });
  const crew = checked(CrewWithManagersSchema, reply.data);
  return {
    crew: { id: crew.id, name: crew.name, manager_ids: crew.manager_ids },
    message: reply.message || 'Crew managers are updated successfully',
  };
}

const ManagerCandidateSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  user_role: Type.String(),
});
/** A user who may manage the site's crews (crew-manager role, member of the site). */
export type CrewManagerUser = Static<typeof ManagerCandidateSchema>;

const SiteRefSchema = Type.Object({ id: Type.Integer() });
const USERS_PER_PAGE = 100;
/** A safety stop for the paging below: a client with more users than this is not expected. */
const USERS_MAX_PAGES = 20;

/**
 * The crew-manager users of a site, for the managers picker (admins: GET /users is theirs).
 * GET /users has no role or site filter, so the client's users are paged through, the
 * crew managers kept, and each kept only when GET /users/{id}/sites lists the site (the
 * server's own rule for who may manage the site's crews).
 */
export async function fetchCrewManagerUsers(
  api: ApiClient,
  site: { id: number; client_id: number },
  signal?: AbortSignal,
): Promise<CrewManagerUser[]> {
  const candidates: CrewManagerUser[] = [];
  for (let page = 1; page <= USERS_MAX_PAGES; page++) {
    const reply = await api.list<unknown>('/users', {
      signal,
      query: { client_id: site.client_id, page, perPage: USERS_PER_PAGE, sort: 'name,asc' },
    });
    const users = checked(Type.Array(ManagerCandidateSchema), reply.data);
    for (const user of users) {
      if (user.user_role === 'crew-manager')
        candidates.push({ id: user.id, name: user.name, email: user.email, user_role: user.user_role });
    }
    const total = reply.meta?.total ?? 0;
    if (users.length < USERS_PER_PAGE || page * USERS_PER_PAGE >= total) break;
  }
  const members = await Promise.all(
    candidates.map(async (user) => {
      const reply = await api.list<unknown>(`/users/${user.id}/sites`, {
        signal,
        query: { client_id: site.client_id },
      });
      return checked(Type.Array(SiteRefSchema), reply.data).some((item) => item.id === site.id);
    }),
  );
  return candidates.filter((_, index) => members[index]).sort(byName);
}

const WorkerOptionSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  worker_tag_id: Type.Union([Type.String(), Type.Null()]),
});
/** A worker as the assignment pickers show it: name and tag. */
export type WorkerOption = Static<typeof WorkerOptionSchema>;

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
  const reply = await api.list<unknown>(`/sites/${siteId}/workers`, {
    signal,
    query: {
      page: 1,
      perPage: WORKER_OPTIONS_PER_PAGE,
      sort: 'name,asc',
      search: text === '' ? undefined : text,
    },
  });
  return checked(Type.Array(WorkerOptionSchema), reply.data).map(({ id, name, worker_tag_id }) => ({
    id,
    name,
    worker_tag_id,
  }));
}

/** Keys of the assignment queries; under the crews name list's key, so a rename refreshes them too. */
export const assignmentKeys = {
  crewsWithManagers: (siteId: number) => ['workforce', 'crews', siteId, 'managers'] as const,
  crewManagerUsers: (siteId: number) => ['workforce', 'crewManagerUsers', siteId] as const,
  workerOptions: (siteId: number, search: string) => ['workforce', 'workerOptions', siteId, search] as const,
} as const;

export function crewsWithManagersQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: assignmentKeys.crewsWithManagers(siteId),
    queryFn: ({ signal }) => fetchCrewsWithManagers(api, siteId, signal),
  });
}

export function crewManagerUsersQuery(api: ApiClient, site: { id: number; client_id: number }) {
  return queryOptions({
    queryKey: assignmentKeys.crewManagerUsers(site.id),
    queryFn: ({ signal }) => fetchCrewManagerUsers(api, site, signal),
  });
}

export function workerOptionsQuery(api: ApiClient, siteId: number, search: string) {
  return queryOptions({
    queryKey: assignmentKeys.workerOptions(siteId, search.trim()),
    queryFn: ({ signal }) => searchWorkerOptions(api, siteId, search, signal),
    placeholderData: (previous) => previous,
  });
}
