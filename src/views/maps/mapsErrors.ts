import { isSilent } from '../../api/apiError';
import { notify } from '../notify';
import { failureText } from '../shared/serverMessage';

/** The server's words for a failed call, in the user's language: a 422's first field message, else its message. */
export function errorMessageOf(error: unknown, fallback: string): string {
  return failureText(error, fallback);
}

/** A failed call as a toast, unless it is one the client already reported or was cancelled. */
export function reportError(error: unknown, fallback: string): void {
  if (isSilent(error)) return;
  void notify({ message: errorMessageOf(error, fallback), intent: 'danger' });
}
