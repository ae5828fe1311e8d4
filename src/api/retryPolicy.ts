import { isApiError } from './apiError';

/** How many times react-query repeats a failed read. */
export const READ_RETRIES = 1;

/**
 * Only a read that may succeed on a second try is repeated: no response at all, or a server
 * error. A cancelled call, a 4xx (a 401/403 has already been toasted and redirected) or a
 * malformed reply would fail the same way again, and a second 403 would toast twice.
 */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  if (failureCount >= READ_RETRIES) return false;
  if (!isApiError(error)) return true;
  return error.kind === 'network' || (error.kind === 'http' && (error.status ?? 0) >= 500);
}
