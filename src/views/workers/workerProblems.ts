import { isApiError, isCancelled } from '../../api/apiError';
import { WORKER_PICTURE_MAX_BYTES } from '../../domain/workers';
import { workerMessages } from '../../domain/workerValidation';
import { serverFieldErrorsOf, serverMessageOf, serverText } from '../shared/serverMessage';

/** The spec §5 image rule, checked before the upload (the server checks the bytes again). */
export function pictureProblem(file: Pick<File, 'type' | 'size' | 'name'>): string | null {
  const typeOk = file.type === 'image/png' || file.type === 'image/jpeg' || /\.(png|jpe?g)$/i.test(file.name);
  return typeOk && file.size > 0 && file.size <= WORKER_PICTURE_MAX_BYTES ? null : workerMessages.image;
}

/**
 * How a failed save shows, in the user's language: a 422's messages by field, an image refusal (413/415) on the picture,
 * anything else above the form. Cancelled calls show nothing.
 */
export function saveProblem(
  error: unknown,
  fallback: string,
): { fields: Record<string, string>; general: string | null } {
  if (!error || isCancelled(error)) return { fields: {}, general: null };
  if (!isApiError(error)) return { fields: {}, general: fallback };
  if (error.status === 413 || error.status === 415 || error.message === workerMessages.image)
    return { fields: { picture: serverText(workerMessages.image) }, general: null };
  const fields = serverFieldErrorsOf(error);
  if (Object.keys(fields).length > 0) return { fields, general: null };
  return { fields: {}, general: serverMessageOf(error, fallback) };
}
