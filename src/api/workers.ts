import { queryOptions } from '@tanstack/react-query';
import type { AssetOption } from '../domain/inventory';
import { messages } from '../domain/messages';
import type { WorkerFlat, WorkerNested, WorkerSortField, WorkerStatus } from '../domain/workers';
import type { WorkerFields } from '../domain/workerValidation';
import { ApiError, cancelledError } from './apiError';
import { type ApiClient, buildUrl, type ListReply } from './client';

/**
 * Fetchers of spec §7 "Workers" (paths relative to the client's `/api` base) and their query
 * options. Replies are checked for the fields the screens rely on, so a view never meets a
 * shape it did not ask for.
 */

export interface WorkerFilters {
  search?: string;
  roleId?: number | null;
  subcontractorId?: number | null;
  crewId?: number | null;
  workshiftId?: number | null;
  status?: WorkerStatus | null;
}

export interface WorkerListParams extends WorkerFilters {
  page: number;
  perPage: number;
  sort: { field: WorkerSortField; direction: 'asc' | 'desc' };
}

export interface WorkerPage {
  rows: WorkerFlat[];
  page: number;
  perPage: number;
  total: number;
}

/** What create and edit send: the checked form (the picture goes separately, as multipart). */
export type WorkerBody = WorkerFields;

function replyError(): ApiError {
  return new ApiError({ kind: 'reply', message: messages.somethingWentWrongContactSupport });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isId = (value: unknown) => typeof value === 'number' && Number.isInteger(value);
const isNullableId = (value: unknown) => value === null || isId(value);

function checkFlat(value: unknown): WorkerFlat {
  if (
    !isRecord(value) ||
    !isId(value.id) ||
    typeof value.name !== 'string' ||
    !isNullableId(value.inventory_id)
  )
    throw replyError();
  return value as unknown as WorkerFlat;
}

function checkNested(value: unknown): WorkerNested {
  if (
    !isRecord(value) ||
    !isId(value.id) ||
    typeof value.name !== 'string' ||
    !Array.isArray(value.AssignedCrews) ||
    !Array.isArray(value.AssignedWorkshifts)
  )
    throw replyError();
  return value as unknown as WorkerNested;
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

// Fetchers: one per endpoint, no UI side effects.

/** GET /sites/{id}/workers: one page, sorted and filtered by the server, with its total. */
export async function fetchWorkerPage(
  api: ApiClient,
  siteId: number,
  params: WorkerListParams,
  signal?: AbortSignal,
): Promise<WorkerPage> {
  const reply: ListReply<unknown> = await api.list<unknown>(`/sites/${siteId}/workers`, {
    signal,
    query: workerListQuery(params),
  });
  const rows = reply.data.map(checkFlat);
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

export async function fetchWorker(
  api: ApiClient,
  siteId: number,
  workerId: number,
  signal?: AbortSignal,
): Promise<WorkerNested> {
  return checkNested(await api.get<unknown>(`/sites/${siteId}/workers/${workerId}`, { signal }));
}

export async function createWorker(
  api: ApiClient,
  siteId: number,
  body: WorkerBody,
): Promise<{ id: number }> {
  const reply = await api.post<unknown>(`/sites/${siteId}/workers`, body);
  if (!isRecord(reply) || !isId(reply.id)) throw replyError();
  return { id: reply.id as number };
}

export async function editWorker(
  api: ApiClient,
  siteId: number,
  workerId: number,
  body: WorkerBody,
): Promise<void> {
  await api.post<unknown>(`/sites/${siteId}/workers/${workerId}`, body);
}

/** DELETE; resolves with the server's message ("Worker is deleted successfully"). */
export async function deleteWorker(api: ApiClient, siteId: number, workerId: number): Promise<string> {
  const reply = await api.request<unknown>('DELETE', `/sites/${siteId}/workers/${workerId}`);
  return typeof reply.message === 'string' && reply.message ? reply.message : messages.deleted('Worker');
}

/** POST …/picture as multipart (field `picture`); the server checks type and size by content. */
export async function uploadWorkerPicture(
  api: ApiClient,
  siteId: number,
  workerId: number,
  file: File,
): Promise<void> {
  const form = new FormData();
  form.append('picture', file, file.name);
  await api.post<unknown>(`/sites/${siteId}/workers/${workerId}/picture`, form);
}

async function messageOf(promise: Promise<{ message?: unknown }>, fallback: string): Promise<string> {
  const reply = await promise;
  return typeof reply.message === 'string' && reply.message ? reply.message : fallback;
}

export function assignHelmet(
  api: ApiClient,
  siteId: number,
  workerId: number,
  helmetId: number,
): Promise<string> {
  return messageOf(
    api.request<unknown>('POST', `/sites/${siteId}/workers/${workerId}/inventories/assign/${helmetId}`),
    'The helmet is assigned successfully',
  );
}

export function unassignHelmet(api: ApiClient, siteId: number, workerId: number): Promise<string> {
  return messageOf(
    api.request<unknown>('POST', `/sites/${siteId}/workers/${workerId}/inventories/unassign`),
    'The helmet is unassigned successfully',
  );
}

function isAssetOption(value: unknown): value is AssetOption {
  return isRecord(value) && isId(value.value) && typeof value.label === 'string';
}

/**
 * The helmets nobody wears, as a select list sorted by wnt_inventory_id (spec §7's
 * GET /networks/{id}/inventory/assets?assigned=0, over every network of the site at once: the
 * site's device list is the nodes area's, which a crew manager assigning helmets may not read).
 */
export async function fetchUnassignedHelmets(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<AssetOption[]> {
  const { data } = await api.list<unknown>(`/sites/${siteId}/inventories/assets`, {
    signal,
    query: { assigned: 0 },
  });
  if (!data.every(isAssetOption)) throw replyError();
  return data as AssetOption[];
}

/** How a picture is fetched: an image, not JSON, so not through ApiClient, but with the token. */
export interface PictureSource {
  getToken: () => string | null;
  fetch?: typeof fetch;
}

/** GET the worker's picture (its media_url, an /api path) with the bearer token. */
export async function fetchWorkerPicture(
  source: PictureSource,
  url: string,
  signal?: AbortSignal,
): Promise<Blob> {
  const token = source.getToken();
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  const fetchImpl = source.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  let response: Response;
  try {
    response = await fetchImpl(buildUrl('', url), { headers, signal });
  } catch (error) {
    if (signal?.aborted) throw cancelledError(error);
    throw new ApiError({ kind: 'network', message: messages.offline, cause: error });
  }
  if (!response.ok)
    throw new ApiError({ kind: 'http', status: response.status, message: messages.somethingWentWrong });
  return response.blob();
}

// Query options: each owns its key.

export const workersKeys = {
  all: ['workers'] as const,
  lists: (siteId: number) => ['workers', 'list', siteId] as const,
  list: (siteId: number, params: WorkerListParams) => ['workers', 'list', siteId, params] as const,
  detail: (siteId: number, workerId: number) => ['workers', 'detail', siteId, workerId] as const,
  unassignedHelmets: (siteId: number) => ['workers', 'unassignedHelmets', siteId] as const,
  picture: (url: string) => ['workers', 'picture', url] as const,
} as const;

export function workerPageQuery(api: ApiClient, siteId: number, params: WorkerListParams) {
  return queryOptions({
    queryKey: workersKeys.list(siteId, params),
    queryFn: ({ signal }) => fetchWorkerPage(api, siteId, params, signal),
  });
}

export function workerQuery(api: ApiClient, siteId: number, workerId: number) {
  return queryOptions({
    queryKey: workersKeys.detail(siteId, workerId),
    queryFn: ({ signal }) => fetchWorker(api, siteId, workerId, signal),
  });
}

export function unassignedHelmetsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: workersKeys.unassignedHelmets(siteId),
    queryFn: ({ signal }) => fetchUnassignedHelmets(api, siteId, signal),
  });
}

/** The picture as an object URL's source; `version` (updated_at) changes after an upload. */
export function workerPictureQuery(source: PictureSource, url: string, version: string) {
  return queryOptions({
    queryKey: [...workersKeys.picture(url), version] as const,
    queryFn: ({ signal }) => fetchWorkerPicture(source, url, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
