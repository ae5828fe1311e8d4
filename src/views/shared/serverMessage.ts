import type { TFunction } from 'i18next';
import { type ApiError, isApiError } from '../../api/apiError';
import { messageKeyOf } from '../../domain/messageCatalog';
import { localizedServerText } from './localizedServerText';

/** A text the server or a screen's own check gives, in the user's language, looked up in the whole catalogue. */
export function serverText(english: string, t?: TFunction | null): string {
  return localizedServerText(english, messageKeyOf(english), t);
}

/** An ApiError's message in the user's language (the fallback when it has none). */
export function serverMessageOf(error: ApiError, fallback: string, t?: TFunction | null): string {
  if (!error.message) return fallback;
  return localizedServerText(error.message, error.messageKey ?? messageKeyOf(error.message), t);
}

/** An ApiError's field messages (422 `errors`) in the user's language. */
export function serverFieldErrorsOf(error: ApiError, t?: TFunction | null): Record<string, string> {
  const keys = error.fieldErrorKeys;
  return Object.fromEntries(
    Object.entries(error.fieldErrors).map(([field, text]) => [
      field,
      localizedServerText(text, keys[field] ?? messageKeyOf(text), t),
    ]),
  );
}

/** Any failure's text for a toast or a line above a form: the server's words translated, else the fallback. */
export function failureText(error: unknown, fallback: string, t?: TFunction | null): string {
  if (!isApiError(error)) return fallback;
  const fields = serverFieldErrorsOf(error, t);
  return Object.values(fields)[0] ?? serverMessageOf(error, fallback, t);
}
