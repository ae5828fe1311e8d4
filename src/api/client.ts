import type { Static, TSchema } from 'typebox';
import { Check } from 'typebox/value';
import { messages } from '../domain/messages';
import type { Envelope } from '../domain/user';
import { ApiError, cancelledError } from './apiError';

export { ApiError, type ApiErrorKind, isApiError, isCancelled, isSilent, USER_CANCELLED } from './apiError';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type QueryValue = string | number | boolean | null | undefined;
/** Query parameters; null and undefined are left out, arrays repeat the key. */
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions {
  query?: Query;
  signal?: AbortSignal;
}

export interface SendOptions extends RequestOptions {
  /** JSON-serialisable, or a FormData for multipart uploads (then no JSON content type is sent). */
  body?: unknown;
}

export interface ListReply<T> {
  status: 'success';
  data: T[];
  message?: string;
  meta?: { page: number; perPage: number; total: number };
}

/** A reply's checked `data` with the server's message (for the success toast). */
export interface DataReply<T> {
  data: T;
  /** The server's message; '' when it sent none. */
  message: string;
}

export interface ApiClientOptions {
  /** Origin and prefix put before every path; '' (same origin) in the console. */
  baseUrl?: string;
  /** The stored access token, read at every call (and again when a 401 arrives). */
  getToken: () => string | null;
  /** A 401 on a non-login call while a token is stored: the session ends. */
  onUnauthorized?: (error: ApiError) => void;
  /** A 403: the session shows "Not Authorized" and goes to /403. */
  onForbidden?: (error: ApiError) => void;
  /** Extra headers on every call (the bulk sub-API adds no-cache headers). */
  headers?: Record<string, string>;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

/**
 * The one HTTP client of the console (spec §7, §8). It has no UI side effects: a 401 or 403
 * calls the injected callbacks and every failure rejects with an `ApiError`. Every method takes
 * the schema (from src/domain) of the reply's `data` and checks the reply against it once, here:
 * a 2xx reply that does not match rejects with kind 'reply' and the support message.
 */
export interface ApiClient {
  /** Any method; resolves to the checked `data` and the server's message. */
  send<S extends TSchema>(
    method: HttpMethod,
    path: string,
    schema: S,
    options?: SendOptions,
  ): Promise<DataReply<Static<S>>>;
  /** The envelope's `data`. */
  get<S extends TSchema>(path: string, schema: S, options?: RequestOptions): Promise<Static<S>>;
  /** The whole envelope of a list, each item checked; rejects (kind 'reply') when its status is not 'success'. */
  list<S extends TSchema>(
    path: string,
    itemSchema: S,
    options?: RequestOptions,
  ): Promise<ListReply<Static<S>>>;
  /**
   * The whole envelope of a successful reply, checked against `schema`: for a list that carries
   * more than `meta` beside its rows (the eTQR list's `summary`).
   */
  envelope<S extends TSchema>(path: string, schema: S, options?: RequestOptions): Promise<Static<S>>;
  post<S extends TSchema>(
    path: string,
    body: unknown,
    schema: S,
    options?: { signal?: AbortSignal },
  ): Promise<Static<S>>;
  patch<S extends TSchema>(
    path: string,
    body: unknown,
    schema: S,
    options?: { signal?: AbortSignal },
  ): Promise<Static<S>>;
  delete<S extends TSchema>(path: string, schema: S, options?: RequestOptions): Promise<Static<S>>;
}

/** Login calls (POST /api/login, POST /api/sites/{id}/login) hand their 401 to the caller. */
/**
 * Whether a reply's data has the schema's shape: for the calls that cannot go through the client
 * (an upload over XMLHttpRequest, for its progress), so replies are still checked here only.
 */
export function replyMatches<S extends TSchema>(schema: S, data: unknown): data is Static<S> {
  return Check(schema, data);
}

export function isLoginPath(path: string): boolean {
  return /\/login\/?$/.test(path.split('?')[0]);
}

export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item !== null && item !== undefined) params.append(key, String(item));
    }
  }
  const search = params.toString();
  if (!search) return `${baseUrl}${path}`;
  return `${baseUrl}${path}${path.includes('?') ? '&' : '?'}${search}`;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'status' in value;
}

function serverMessage(reply: Envelope<unknown> | undefined): string {
  const message = reply?.message;
  return typeof message === 'string' && message.trim() !== ''
    ? message
    : messages.somethingWentWrongContactSupport;
}

export function createApiClient({
  baseUrl = '',
  getToken,
  onUnauthorized,
  onForbidden,
  headers: extraHeaders = {},
  fetch: fetchImpl = (...args) => globalThis.fetch(...args),
}: ApiClientOptions): ApiClient {
  const tell = (callback: ((error: ApiError) => void) | undefined, error: ApiError) => {
    try {
      callback?.(error);
    } catch (callbackError) {
      // A failing callback must not hide the call's own error from its caller.
      console.error(callbackError);
    }
  };

  async function request(
    method: HttpMethod,
    path: string,
    { body, query, signal }: SendOptions = {},
  ): Promise<Envelope<unknown>> {
    if (signal?.aborted) throw cancelledError(signal.reason);

    const token = getToken();
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      ...extraHeaders,
    };
    if (!isForm) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    // Fastify refuses an empty body sent as JSON, so body-carrying methods send at least {}.
    const payload = method === 'GET' ? undefined : isForm ? (body as FormData) : JSON.stringify(body ?? {});

    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(buildUrl(baseUrl, path, query), { method, headers, body: payload, signal });
      text = await response.text();
    } catch (error) {
      if (signal?.aborted || isAbort(error)) throw cancelledError(error);
      throw new ApiError({ kind: 'network', message: messages.offline, cause: error });
    }

    let reply: Envelope<unknown> | undefined;
    if (text.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(text);
        if (isEnvelope(parsed)) reply = parsed;
      } catch {
        reply = undefined;
      }
    }

    if (response.ok) {
      if (reply) return reply;
      if (text.trim() === '') return { status: 'success' };
      throw new ApiError({
        kind: 'reply',
        status: response.status,
        message: messages.somethingWentWrongContactSupport,
      });
    }

    const status = response.status;
    const message = serverMessage(reply);
    if (status === 401) {
      if (isLoginPath(path)) throw new ApiError({ kind: 'unauthorized', status, message, reply });
      // Read again: a parallel call's 401 may already have ended the session.
      if (!getToken()) throw cancelledError(undefined, status);
      const error = new ApiError({ kind: 'unauthorized', status, message, reply, handled: true });
      tell(onUnauthorized, error);
      throw error;
    }
    if (status === 403) {
      const error = new ApiError({ kind: 'forbidden', status, message, reply, handled: true });
      tell(onForbidden, error);
      throw error;
    }
    throw new ApiError({ kind: 'http', status, message, reply });
  }

  const replyError = (
    reply: Envelope<unknown>,
    message: string = messages.somethingWentWrongContactSupport,
  ) => new ApiError({ kind: 'reply', message, reply });

  async function send<S extends TSchema>(
    method: HttpMethod,
    path: string,
    schema: S,
    options?: SendOptions,
  ): Promise<DataReply<Static<S>>> {
    const reply = await request(method, path, options);
    // Check interprets the schema; TypeBox's compiler would evaluate code, which the
    // console's Content-Security-Policy (no 'unsafe-eval') refuses.
    if (!Check(schema, reply.data)) throw replyError(reply);
    return { data: reply.data as Static<S>, message: typeof reply.message === 'string' ? reply.message : '' };
  }

  const dataOf = async <S extends TSchema>(reply: Promise<DataReply<Static<S>>>) => (await reply).data;

  return {
    send,
    get: (path, schema, options) => dataOf(send('GET', path, schema, options)),
    async list<S extends TSchema>(path: string, itemSchema: S, options?: RequestOptions) {
      const reply = await request('GET', path, options);
      if (reply.status !== 'success' || !Array.isArray(reply.data))
        throw replyError(reply, serverMessage(reply));
      if (!reply.data.every((item) => Check(itemSchema, item))) throw replyError(reply);
      return reply as ListReply<Static<S>>;
    },
    async envelope<S extends TSchema>(path: string, schema: S, options?: RequestOptions) {
      const reply = await request('GET', path, options);
      if (reply.status !== 'success') throw replyError(reply, serverMessage(reply));
      if (!Check(schema, reply)) throw replyError(reply);
      return reply as Static<S>;
    },
    post: (path, body, schema, options) => dataOf(send('POST', path, schema, { ...options, body })),
    patch: (path, body, schema, options) => dataOf(send('PATCH', path, schema, { ...options, body })),
    delete: (path, schema, options) => dataOf(send('DELETE', path, schema, options)),
  };
}
