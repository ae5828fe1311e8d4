import type { MessageKey } from '../domain/messageCatalog';
import type { Envelope } from '../domain/user';

/** Marker and shared message of a request the user (or the session) cancelled (spec §8). */
export const USER_CANCELLED = 'USER_CANCELLED';

/**
 * Why a call failed:
 * - `cancelled`: aborted by its signal, or a 401 with no stored token; ignore silently.
 * - `network`: no response at all (offline, refused); silent, the shell reports offline itself.
 * - `unauthorized`: 401. On a login call it is the caller's to show; otherwise the client has
 *   already called `onUnauthorized`, so the caller stays silent.
 * - `forbidden`: 403; the client has already called `onForbidden`.
 * - `http`: any other non-2xx reply; `message` is the server's (or the support text).
 * - `reply`: a 2xx reply that is not what was asked for (a list whose status is not
 *   'success', a body that is not JSON or not the expected shape).
 */
export type ApiErrorKind = 'cancelled' | 'network' | 'unauthorized' | 'forbidden' | 'http' | 'reply';

export interface ApiErrorDetails {
  kind: ApiErrorKind;
  message: string;
  /** HTTP status, when there was a response. */
  status?: number;
  /** The reply envelope, when the server sent one. */
  reply?: Envelope<unknown>;
  /** True when the client already called `onUnauthorized` or `onForbidden` for it. */
  handled?: boolean;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly reply: Envelope<unknown> | undefined;
  readonly handled: boolean;
  /** `USER_CANCELLED` on cancelled calls, so callers that only know the marker can skip them. */
  readonly marker: typeof USER_CANCELLED | undefined;

  constructor({ kind, message, status, reply, handled = false, cause }: ApiErrorDetails) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.reply = reply;
    this.handled = handled;
    this.marker = kind === 'cancelled' ? USER_CANCELLED : undefined;
  }

  /** Field messages of a 422 reply (`{ field: message }`), empty otherwise. */
  get fieldErrors(): Record<string, string> {
    return this.reply?.errors ?? {};
  }

  /** The i18n key and values of the server's message, when the reply carried them. */
  get messageKey(): MessageKey | undefined {
    const key = this.reply?.messageKey;
    if (!key) return undefined;
    return this.reply?.messageParams ? { key, params: this.reply.messageParams } : { key };
  }

  /** The i18n key and values of each field message the reply carried them for. */
  get fieldErrorKeys(): Record<string, MessageKey> {
    return this.reply?.errorKeys ?? {};
  }
}

export function cancelledError(cause?: unknown, status?: number): ApiError {
  return new ApiError({ kind: 'cancelled', message: USER_CANCELLED, cause, status });
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** A cancelled call: callers ignore it without a word. */
export function isCancelled(error: unknown): boolean {
  return isApiError(error) && error.kind === 'cancelled';
}

/**
 * Errors a caller must not report again: cancelled, no response (the shell shows offline),
 * and the 401/403 that the client's callbacks already turned into a toast and a redirect.
 * The 401 of a login call is not silent: it is the login form's to show.
 */
export function isSilent(error: unknown): boolean {
  return isApiError(error) && (error.kind === 'cancelled' || error.kind === 'network' || error.handled);
}
