import { queryOptions } from '@tanstack/react-query';
import { GATEWAY_CONTINUE_WAIT_MS, GATEWAY_RETRIES } from '../domain/analytics';
import { messages } from '../domain/messages';
import { ApiError, cancelledError } from './apiError';
import { queryKeys } from './queryKeys';

/**
 * The console's client of the analytics gateway (Cube's REST `load` at /cubejs-api/v1, spec §7
 * "Analytics"): a plain fetch, not @cubejs-client/core, so the bundle stays small. It sends the
 * user's own session token, and on Cube's "Continue wait" it waits GATEWAY_CONTINUE_WAIT_MS and
 * asks again, up to GATEWAY_RETRIES times (spec §9); a lost connection or a 502–504 is retried
 * the same way. Failures reject with the main client's ApiError kinds.
 */

export const GATEWAY_BASE_URL = '/cubejs-api/v1';

export type GatewayGranularity = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

export type GatewayOperator =
  | 'equals'
  | 'notEquals'
  | 'contains'
  | 'notContains'
  | 'startsWith'
  | 'endsWith'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'set'
  | 'notSet'
  | 'inDateRange'
  | 'notInDateRange'
  | 'beforeDate'
  | 'beforeOrOnDate'
  | 'afterDate'
  | 'afterOrOnDate';

export type GatewayFilter =
  | { member: string; operator: GatewayOperator; values?: readonly string[] }
  | { and: readonly GatewayFilter[] }
  | { or: readonly GatewayFilter[] };

export interface GatewayTimeDimension<D extends string = string> {
  dimension: D;
  granularity?: GatewayGranularity;
  /** [from, to] as local times of the query's timezone, or a relative range ("this week"). */
  dateRange?: readonly [string, string] | string;
}

/** A Cube query: `Cube.member` names, as GET /cubejs-api/v1/meta lists them. */
export interface GatewayQuery<
  M extends string = string,
  D extends string = string,
  T extends GatewayTimeDimension = GatewayTimeDimension,
> {
  measures?: readonly M[];
  dimensions?: readonly D[];
  timeDimensions?: readonly T[];
  filters?: readonly GatewayFilter[];
  order?: Readonly<Record<string, 'asc' | 'desc'>> | readonly (readonly [string, 'asc' | 'desc'])[];
  limit?: number;
  offset?: number;
  /** IANA zone for granularities and date ranges; UTC when omitted. */
  timezone?: string;
}

/** The keys a time dimension adds to a row: itself, and itself at its granularity. */
type TimeKeys<T> = T extends { dimension: infer D extends string; granularity: infer G extends string }
  ? D | `${D}.${G}`
  : never;

/** A row of the reply: measures are numbers, dimensions text, numbers or null, times local texts. */
export type GatewayRow<M extends string = string, D extends string = string, T = GatewayTimeDimension> = {
  readonly [K in M]: number | null;
} & { readonly [K in D | TimeKeys<T>]: string | number | null };

/** Cube's load reply: the rows (`data`), the query as the gateway read it and the members' titles. */
export interface GatewayResult<Row> {
  data: Row[];
  query: Record<string, unknown>;
  annotation: Record<string, unknown>;
  lastRefreshTime: string;
}

export interface GatewayClientOptions {
  /** The session token, read at every call. */
  getToken: () => string | null;
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Waits between attempts; a test passes a fake clock. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onUnauthorized?: (error: ApiError) => void;
  onForbidden?: (error: ApiError) => void;
}

export interface GatewayClient {
  load<M extends string, D extends string, T extends GatewayTimeDimension>(
    query: GatewayQuery<M, D, T>,
    options?: { signal?: AbortSignal },
  ): Promise<GatewayResult<GatewayRow<M, D, T>>>;
}

const CONTINUE_WAIT = 'Continue wait';
const TRANSIENT = new Set([502, 503, 504]);

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelledError(signal.reason));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(cancelledError(signal.reason));
      },
      { once: true },
    );
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isResult(value: unknown): value is GatewayResult<unknown> {
  return (
    isObject(value) &&
    Array.isArray(value.data) &&
    value.data.every(isObject) &&
    isObject(value.query) &&
    isObject(value.annotation)
  );
}

export function createGatewayClient({
  getToken,
  baseUrl = GATEWAY_BASE_URL,
  fetch: fetchImpl = (...args) => globalThis.fetch(...args),
  sleep = wait,
  onUnauthorized,
  onForbidden,
}: GatewayClientOptions): GatewayClient {
  async function attempt(
    query: unknown,
    signal?: AbortSignal,
  ): Promise<{ body: unknown; status: number } | null> {
    const token = getToken();
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
    };
    if (token) headers.Authorization = `Bearer ${token}`;
    const url = `${baseUrl}/load?query=${encodeURIComponent(JSON.stringify(query))}`;
    try {
      const response = await fetchImpl(url, { method: 'GET', headers, signal });
      const text = await response.text();
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = null;
      }
      return { body, status: response.status };
    } catch (error) {
      if (signal?.aborted) throw cancelledError(error);
      return null;
    }
  }

  return {
    async load(query, options = {}) {
      const { signal } = options;
      for (let tries = 0; ; tries += 1) {
        const reply = await attempt(query, signal);
        const continueWait = reply !== null && isObject(reply.body) && reply.body.error === CONTINUE_WAIT;
        const retryable = reply === null || continueWait || TRANSIENT.has(reply.status);
        if (retryable) {
          if (tries >= GATEWAY_RETRIES) {
            throw reply === null
              ? new ApiError({ kind: 'network', message: messages.offline })
              : new ApiError({ kind: 'http', status: reply.status, message: messages.somethingWentWrong });
          }
          await sleep(GATEWAY_CONTINUE_WAIT_MS, signal);
          continue;
        }
        const { body, status } = reply;
        const message =
          isObject(body) && typeof body.error === 'string' && body.error.trim() !== ''
            ? body.error
            : messages.somethingWentWrongContactSupport;
        if (status === 401) {
          const error = new ApiError({ kind: 'unauthorized', status, message, handled: true });
          onUnauthorized?.(error);
          throw error;
        }
        if (status === 403) {
          const error = new ApiError({ kind: 'forbidden', status, message, handled: true });
          onForbidden?.(error);
          throw error;
        }
        if (status < 200 || status >= 300) throw new ApiError({ kind: 'http', status, message });
        if (!isResult(body)) {
          throw new ApiError({ kind: 'reply', status, message: messages.somethingWentWrongContactSupport });
        }
        return body as GatewayResult<never>;
      }
    },
  };
}

/** The session token where the console keeps it (spec §9: the `auth` browser storage key). */
function storedToken(): string | null {
  try {
    const raw = globalThis.localStorage?.getItem('auth') ?? null;
    if (!raw) return null;
    if (!raw.startsWith('"')) return raw;
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'string' && parsed !== '' ? parsed : null;
  } catch {
    return null;
  }
}

let sharedClient: GatewayClient | null = null;

/** The client the query options use; the session may set one with its own token reader and 401/403 handling. */
export function setGatewayClient(client: GatewayClient | null): void {
  sharedClient = client;
}

function currentClient(): GatewayClient {
  sharedClient ??= createGatewayClient({ getToken: storedToken });
  return sharedClient;
}

/** react-query options of one gateway query; the key is the query itself. */
export function gatewayQueryOptions<M extends string, D extends string, T extends GatewayTimeDimension>(
  query: GatewayQuery<M, D, T>,
  client: GatewayClient = currentClient(),
) {
  return queryOptions({
    queryKey: queryKeys.gateway.load(query),
    queryFn: ({ signal }) => client.load(query, { signal }),
    // The client retries "Continue wait" itself; react-query adds no retries on top.
    retry: false,
  });
}
