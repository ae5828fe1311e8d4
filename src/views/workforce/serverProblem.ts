import { isApiError, isCancelled } from '../../api/apiError';

/**
 * How a failed save shows: field messages of a 422 by field, a 409 (duplicate name) on the name
 * field, anything else above the form. Cancelled calls show nothing.
 */
export function serverProblem(
  error: unknown,
  fallback: string,
): { fields: Record<string, string>; general: string | null } {
  if (!error || isCancelled(error)) return { fields: {}, general: null };
  if (!isApiError(error)) return { fields: {}, general: fallback };
  const fields = error.fieldErrors;
  if (Object.keys(fields).length > 0) return { fields, general: null };
  if (error.status === 409) return { fields: { name: error.message }, general: null };
  return { fields: {}, general: error.message || fallback };
}
