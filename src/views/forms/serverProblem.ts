import { isApiError, isCancelled } from '../../api/apiError';
import { serverFieldErrorsOf, serverMessageOf } from '../shared/serverMessage';

/**
 * How a failed save shows, in the user's language: field messages of a 422 by field, a 409 (duplicate name) on the name
 * field, anything else above the form. Cancelled calls show nothing.
 */
export function serverProblem(
  error: unknown,
  fallback: string,
): { fields: Record<string, string>; general: string | null } {
  if (!error || isCancelled(error)) return { fields: {}, general: null };
  if (!isApiError(error)) return { fields: {}, general: fallback };
  const fields = serverFieldErrorsOf(error);
  if (Object.keys(fields).length > 0) return { fields, general: null };
  if (error.status === 409) return { fields: { name: serverMessageOf(error, fallback) }, general: null };
  return { fields: {}, general: serverMessageOf(error, fallback) };
}
