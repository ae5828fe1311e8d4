import { Value } from 'typebox/value';
import { ApiUserSchema } from '../../domain/schemas/auth';
import type { ApiUser } from '../../domain/user';
import type { StoredSession } from '../../machines/session.machine';

/**
 * The browser storage of the session (spec §9: keys `auth` and `user`, in localStorage).
 *
 * - `auth` holds the access token as a plain string (not JSON). A JSON-quoted string, as
 *   some older clients wrote it, is read too.
 * - `user` holds the ApiUser as JSON.
 *
 * A session is restored only when both are present and well formed.
 */
export const STORAGE_KEYS = { auth: 'auth', user: 'user' } as const;

export type SessionStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function readToken(storage: SessionStorage | null): string | null {
  const raw = safely(() => storage?.getItem(STORAGE_KEYS.auth) ?? null, null);
  if (!raw) return null;
  if (raw.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      return typeof parsed === 'string' && parsed !== '' ? parsed : null;
    } catch {
      return null;
    }
  }
  return raw;
}

export function readUser(storage: SessionStorage | null): ApiUser | null {
  const raw = safely(() => storage?.getItem(STORAGE_KEYS.user) ?? null, null);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return Value.Check(ApiUserSchema, parsed) ? (parsed as ApiUser) : null;
  } catch {
    return null;
  }
}

export function readStoredSession(storage: SessionStorage | null): StoredSession | null {
  const token = readToken(storage);
  const user = readUser(storage);
  return token && user ? { token, user } : null;
}

export function writeStoredSession(
  storage: SessionStorage | null,
  session: { token: string | null; user: ApiUser | null },
): void {
  if (!session.token || !session.user) return;
  const { token, user } = session;
  safely(() => {
    storage?.setItem(STORAGE_KEYS.auth, token);
    storage?.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  }, undefined);
}

export function clearStoredSession(storage: SessionStorage | null): void {
  safely(() => {
    storage?.removeItem(STORAGE_KEYS.auth);
    storage?.removeItem(STORAGE_KEYS.user);
  }, undefined);
}

/** The browser's localStorage, or null where it is unavailable (private mode, no window). */
export function browserStorage(): SessionStorage | null {
  return safely(() => globalThis.localStorage ?? null, null);
}

// Storage can throw (quota, disabled cookies); the session then lives in memory only.
function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
