import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages } from '../../domain/messages';
import { CreatedIdSchema, UnreadDataSchema } from '../../domain/schemas/replies';
import { WorkerDetailSchema } from '../../domain/schemas/workerReplies';
import type { WorkerNested } from '../../domain/workers';
import type { WorkerFields } from '../../domain/workerValidation';
import { ApiError, cancelledError } from '../apiError';
import { type ApiClient, buildUrl } from '../client';
import { queryKeys } from '../queryKeys';

/** One worker (spec §7 "Workers"): read, create, edit, delete, and the picture. */

/** What create and edit send: the checked form (the picture goes separately, as multipart). */
export type WorkerBody = WorkerFields;

export function fetchWorker(
  api: ApiClient,
  siteId: number,
  workerId: number,
  signal?: AbortSignal,
): Promise<WorkerNested> {
  return api.get(`/sites/${siteId}/workers/${workerId}`, WorkerDetailSchema, { signal });
}

export async function createWorker(
  api: ApiClient,
  siteId: number,
  body: WorkerBody,
): Promise<{ id: number }> {
  const { id } = await api.post(`/sites/${siteId}/workers`, body, CreatedIdSchema);
  return { id };
}

export async function editWorker(
  api: ApiClient,
  siteId: number,
  workerId: number,
  body: WorkerBody,
): Promise<void> {
  await api.post(`/sites/${siteId}/workers/${workerId}`, body, UnreadDataSchema);
}

/** DELETE; resolves with the server's message ("Worker is deleted successfully"). */
export async function deleteWorker(api: ApiClient, siteId: number, workerId: number): Promise<string> {
  const { message } = await api.send('DELETE', `/sites/${siteId}/workers/${workerId}`, UnreadDataSchema);
  return message || messages.deleted('Worker');
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
  await api.post(`/sites/${siteId}/workers/${workerId}/picture`, form, UnreadDataSchema);
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

export function workerQuery(api: ApiClient, siteId: number, workerId: number) {
  return queryOptions({
    queryKey: queryKeys.workers.detail(siteId, workerId),
    queryFn: ({ signal }) => fetchWorker(api, siteId, workerId, signal),
  });
}

/** The picture as an object URL's source; `version` (updated_at) changes after an upload. */
export function workerPictureQuery(source: PictureSource, url: string, version: string) {
  return queryOptions({
    queryKey: queryKeys.workers.picture(url, version),
    queryFn: ({ signal }) => fetchWorkerPicture(source, url, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useWorker(api: ApiClient, siteId: number, workerId: number) {
  return useQuery(workerQuery(api, siteId, workerId));
}
