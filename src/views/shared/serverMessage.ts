import type { TFunction } from 'i18next';
import { type ApiError, isApiError } from '../../api/apiError';
import { labelKey, type MessageKey, messageKeyOf } from '../../domain/messageCatalog';
import { i18n } from '../../i18n';

/** The console's translate function, or null before i18n starts (unit tests): English then. */
function activeTranslate(): TFunction | null {
  return i18n.isInitialized ? (i18n.t.bind(i18n) as TFunction) : null;
}

/**
 * A text the server sent, in the user's language: by the key and values it came with, else by the
 * key the catalogue knows for the English text; a text outside the catalogue stays as sent.
 * A `label` value ("Crew", "Name") is translated too when the i18n files know it.
 */
export function localizedServerText(
  english: string,
  described: MessageKey | undefined = messageKeyOf(english),
  t: TFunction | null = activeTranslate(),
): string {
  if (!t || !described) return english;
  const params: Record<string, string | number> = { ...described.params };
  if (typeof params.label === 'string') {
    params.label = t(labelKey(params.label), { defaultValue: params.label });
  }
  return t(described.key, { ...params, defaultValue: english });
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
