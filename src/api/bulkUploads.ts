import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type BulkKindDefinition, bulkListPath } from '../domain/bulkKinds';
import { messages } from '../domain/messages';
import {
  type UploadDraft,
  UploadDraftSchema,
  type UploadSummary,
  UploadSummarySchema,
} from '../domain/schemas/bulk';
import type { Envelope } from '../domain/user';
import { ApiError, cancelledError, isApiError } from './apiError';
import {
  type ApiClient,
  buildUrl,
  createApiClient,
  isLoginPath,
  type ListReply,
  replyMatches,
} from './client';
import { type DownloadedFile, dispositionFileName } from './fileDownload';
import { queryKeys } from './queryKeys';

export type { UploadDraft, UploadSummary };

/** Where the bulk sub-API lives, beside the main API on the console's own origin (spec §7). */
export const BULK_BASE_URL = '/bulk/api';

/** Spec §7: "Bulk calls also send no-cache headers". */
export const BULK_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-cache',
  Pragma: 'no-cache',
};

/** Rows of a draft shown per page. */
export const DRAFT_ROWS_PER_PAGE = 100;
/** Past uploads shown per page. */
export const HISTORY_PER_PAGE = 20;

export interface BulkApiOptions {
  getToken: () => string | null;
  baseUrl?: string;
  onUnauthorized?: (error: ApiError) => void;
  onForbidden?: (error: ApiError) => void;
  fetch?: typeof fetch;
  /** Makes the upload's request; XMLHttpRequest because it reports the upload's progress. */
  createXhr?: () => XMLHttpRequest;
}

/** A file the server sent (a template, the rejected rows). */
export type { DownloadedFile };

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions {
  signal?: AbortSignal;
  /** Bytes sent so far, while the file goes up. */
  onProgress?: (progress: UploadProgress) => void;
  /** Every byte is sent: the server now reads and checks the file. */
  onSent?: () => void;
}

export interface DraftRowsParams {
  page: number;
  errorsOnly: boolean;
}

export type CommitResult = { message: string; upload: UploadSummary };

/**
 * The bulk sub-API (/bulk/api/sites/{siteId}/…): uploads as drafts, their rows, commit and
 * cancel, the rejected rows, each kind's template and history. Every call carries the main
 * client's headers (bearer token, X-Requested-With) plus the no-cache pair, and fails with an
 * ApiError like every other call: USER_CANCELLED when its signal aborts it.
 */
export interface BulkApi {
  readonly client: ApiClient;
  upload(
    siteId: number,
    definition: BulkKindDefinition,
    uploadId: string,
    file: Blob,
    fileName: string,
    options?: UploadOptions,
  ): Promise<UploadSummary>;
  draftRows(
    siteId: number,
    uploadId: string,
    params: DraftRowsParams,
    signal?: AbortSignal,
  ): Promise<UploadDraft>;
  commit(siteId: number, uploadId: string, signal?: AbortSignal): Promise<CommitResult>;
  cancel(siteId: number, uploadId: string, signal?: AbortSignal): Promise<UploadSummary>;
  history(
    siteId: number,
    definition: BulkKindDefinition,
    page: number,
    signal?: AbortSignal,
  ): Promise<ListReply<UploadSummary>>;
  template(siteId: number, definition: BulkKindDefinition): Promise<DownloadedFile>;
  rejectedRows(siteId: number, upload: Pick<UploadSummary, 'id' | 'kind'>): Promise<DownloadedFile>;
}

const uploadPath = (siteId: number, uploadId: string) =>
  `/sites/${siteId}/uploads/${encodeURIComponent(uploadId)}`;

function parseEnvelope(text: string): Envelope<unknown> | undefined {
  if (text.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && 'status' in parsed
      ? (parsed as Envelope<unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function messageOf(reply: Envelope<unknown> | undefined): string {
  const message = reply?.message;
  return typeof message === 'string' && message.trim() !== ''
    ? message
    : messages.somethingWentWrongContactSupport;
}

/** The summary a 422 commit reply carries (its rows were re-validated), when it carries one. */
export function summaryOfError(error: unknown): UploadSummary | null {
  if (!isApiError(error)) return null;
  const data = error.reply?.data;
  return replyMatches(UploadSummarySchema, data) ? data : null;
}

export function createBulkApi({
  getToken,
  baseUrl = BULK_BASE_URL,
  onUnauthorized,
  onForbidden,
  fetch: fetchImpl = (...args) => globalThis.fetch(...args),
  createXhr = () => new XMLHttpRequest(),
}: BulkApiOptions): BulkApi {
  const client = createApiClient({
    baseUrl,
    getToken,
    onUnauthorized,
    onForbidden,
    headers: { ...BULK_HEADERS },
    fetch: fetchImpl,
  });

  const headers = (): Record<string, string> => {
    const token = getToken();
    return {
      'X-Requested-With': 'XMLHttpRequest',
      ...BULK_HEADERS,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    };
  };

  /** The same failure the JSON client gives for a status (its 401 and 403 callbacks included). */
  const failure = (path: string, status: number, reply: Envelope<unknown> | undefined): ApiError => {
    const message = messageOf(reply);
    if (status === 401) {
      if (isLoginPath(path)) return new ApiError({ kind: 'unauthorized', status, message, reply });
      if (!getToken()) return cancelledError(undefined, status);
      const error = new ApiError({ kind: 'unauthorized', status, message, reply, handled: true });
      onUnauthorized?.(error);
      return error;
    }
    if (status === 403) {
      const error = new ApiError({ kind: 'forbidden', status, message, reply, handled: true });
      onForbidden?.(error);
      return error;
    }
    return new ApiError({ kind: 'http', status, message, reply });
  };

  async function download(path: string, fallbackName: string, signal?: AbortSignal): Promise<DownloadedFile> {
    let response: Response;
    try {
      response = await fetchImpl(buildUrl(baseUrl, path), { headers: headers(), cache: 'no-store', signal });
    } catch (error) {
      if (signal?.aborted) throw cancelledError(error);
      throw new ApiError({ kind: 'network', message: messages.offline, cause: error });
    }
    if (!response.ok) throw failure(path, response.status, parseEnvelope(await response.text()));
    const blob = await response.blob();
    return { blob, fileName: dispositionFileName(response.headers.get('Content-Disposition'), fallbackName) };
  }

  function upload(
    siteId: number,
    definition: BulkKindDefinition,
    uploadId: string,
    file: Blob,
    fileName: string,
    { signal, onProgress, onSent }: UploadOptions = {},
  ): Promise<UploadSummary> {
    const path = `/sites/${siteId}/${definition.bulkPath}/${encodeURIComponent(uploadId)}`;
    return new Promise<UploadSummary>((resolve, reject) => {
      if (signal?.aborted) {
        reject(cancelledError(signal.reason));
        return;
      }
      const xhr = createXhr();
      const onAbort = () => xhr.abort();
      const settle = () => signal?.removeEventListener('abort', onAbort);
      xhr.open('POST', buildUrl(baseUrl, path, { mode: 'draft' }));
      xhr.setRequestHeader('Accept', 'application/json');
      for (const [name, value] of Object.entries(headers())) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
      };
      xhr.upload.onload = () => onSent?.();
      xhr.onabort = () => {
        settle();
        reject(cancelledError(signal?.reason));
      };
      xhr.onerror = () => {
        settle();
        reject(new ApiError({ kind: 'network', message: messages.offline }));
      };
      xhr.onload = () => {
        settle();
        const reply = parseEnvelope(xhr.responseText);
        if (xhr.status < 200 || xhr.status >= 300) {
          reject(failure(path, xhr.status, reply));
          return;
        }
        if (!reply || !replyMatches(UploadSummarySchema, reply.data)) {
          reject(new ApiError({ kind: 'reply', status: xhr.status, message: messageOf(undefined), reply }));
          return;
        }
        resolve(reply.data);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const form = new FormData();
      form.append('file', file, fileName);
      xhr.send(form);
    });
  }

  return {
    client,
    upload,
    draftRows: (siteId, uploadId, { page, errorsOnly }, signal) =>
      client.get(uploadPath(siteId, uploadId), UploadDraftSchema, {
        query: { page, perPage: DRAFT_ROWS_PER_PAGE, errors_only: errorsOnly },
        signal,
      }),
    async commit(siteId, uploadId, signal) {
      const { data, message } = await client.send(
        'POST',
        `${uploadPath(siteId, uploadId)}/commit`,
        UploadSummarySchema,
        { signal },
      );
      return { upload: data, message };
    },
    cancel: (siteId, uploadId, signal) =>
      client.post(`${uploadPath(siteId, uploadId)}/cancel`, {}, UploadSummarySchema, { signal }),
    history: (siteId, definition, page, signal) =>
      client.list(`/sites/${siteId}/${bulkListPath(definition)}`, UploadSummarySchema, {
        query: { page, perPage: HISTORY_PER_PAGE },
        signal,
      }),
    template: (siteId, definition) =>
      download(`/sites/${siteId}/${definition.bulkPath}/template`, `${definition.kind}-template.xlsx`),
    rejectedRows: (siteId, upload) =>
      download(`${uploadPath(siteId, upload.id)}/rejected`, `${upload.kind}-rejected-rows.xlsx`),
  };
}

// Query options: each owns its key.

export function draftRowsQuery(api: BulkApi, siteId: number, uploadId: string, params: DraftRowsParams) {
  return queryOptions({
    queryKey: queryKeys.bulkUploads.rows(siteId, uploadId, params.page, params.errorsOnly),
    queryFn: ({ signal }) => api.draftRows(siteId, uploadId, params, signal),
    // The page shown stays while the next page of the same upload loads (no table flashing empty).
    placeholderData: (previous) => (previous?.upload.id === uploadId ? previous : undefined),
  });
}

export function uploadHistoryQuery(
  api: BulkApi,
  siteId: number,
  definition: BulkKindDefinition,
  page: number,
) {
  return queryOptions({
    queryKey: queryKeys.bulkUploads.history(siteId, definition.kind, page),
    queryFn: ({ signal }) => api.history(siteId, definition, page, signal),
    placeholderData: keepPreviousData,
  });
}
