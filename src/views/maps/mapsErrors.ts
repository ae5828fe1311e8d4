import { isApiError, isSilent } from '../../api/apiError';
import { notify } from '../notify';

/** The server's words for a failed call: a 422's first field message, else its message. */
export function errorMessageOf(error: unknown, fallback: string): string {
  if (!isApiError(error)) return fallback;
  return Object.values(error.fieldErrors)[0] ?? (error.message || fallback);
}

/** A failed call as a toast, unless it is one the client already reported or was cancelled. */
export function reportError(error: unknown, fallback: string): void {
  if (isSilent(error)) return;
  void notify({ message: errorMessageOf(error, fallback), intent: 'danger' });
}
