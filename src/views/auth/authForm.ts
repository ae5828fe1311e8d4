import type { TFunction } from 'i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError, isSilent } from '../../api/apiError';
import { LIMITS } from '../../domain/limits';
import { CORE_MESSAGE_CATALOG, type MessageKey } from '../../domain/messageCatalogCore';
import { messages } from '../../domain/messages';
import { authMessages } from '../../domain/schemas/auth';
import { localizedServerText } from '../shared/localizedServerText';

export type Translate = TFunction;

// Spec §5's messages, worded through i18n so Arabic gets them too; limits from src/domain.

function required(t: Translate, labelKey: string): string {
  return t('auth.validation.required', { label: t(labelKey) });
}

function tooLong(t: Translate, labelKey: string, limit: number): string {
  return t('auth.validation.maxChars', { label: t(labelKey), limit });
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailError(t: Translate, email: string): string | null {
  const value = email.trim();
  if (value === '') return required(t, 'auth.field.email');
  if (value.length > LIMITS.emailMax) return tooLong(t, 'auth.field.email', LIMITS.emailMax);
  if (!EMAIL_SHAPE.test(value)) return t('auth.validation.invalid', { label: t('auth.field.email') });
  return null;
}

/** At sign-in only presence and the maximum: a password chosen under an older rule still works. */
export function signInPasswordError(t: Translate, password: string): string | null {
  if (password === '') return required(t, 'auth.field.password');
  if (password.length > LIMITS.passwordMax) return tooLong(t, 'auth.field.password', LIMITS.passwordMax);
  return null;
}

/** A password being chosen (reset, registration). */
export function newPasswordError(t: Translate, password: string): string | null {
  if (password === '') return required(t, 'auth.field.password');
  if (password.length < LIMITS.passwordMin) {
    return t('auth.validation.minChars', { label: t('auth.field.password'), limit: LIMITS.passwordMin });
  }
  if (password.length > LIMITS.passwordMax) return tooLong(t, 'auth.field.password', LIMITS.passwordMax);
  return null;
}

export function confirmPasswordError(t: Translate, password: string, confirmation: string): string | null {
  if (confirmation === '') return required(t, 'auth.field.confirmPassword');
  if (confirmation !== password) return t('auth.validation.passwordsDiffer');
  return null;
}

export function nameError(t: Translate, name: string): string | null {
  const value = name.trim();
  if (value === '') return required(t, 'auth.field.name');
  if (value.length > LIMITS.nameMax) return tooLong(t, 'auth.field.name', LIMITS.nameMax);
  return null;
}

const SERVER_MESSAGE_KEYS: Readonly<Record<string, string>> = {
  [authMessages.invalidCredentials]: 'auth.server.invalidCredentials',
  [authMessages.tooManyLogins]: 'auth.server.tooManyLogins',
  [authMessages.invalidLink]: 'auth.server.invalidLink',
  [messages.somethingWentWrongContactSupport]: 'auth.server.contactSupport',
};

/** The server's message in the user's language when it is one we know; as sent otherwise. */
export function serverText(t: Translate, message: string, described?: MessageKey): string {
  const key = SERVER_MESSAGE_KEYS[message];
  return key ? t(key) : localizedServerText(message, described ?? CORE_MESSAGE_CATALOG.keyOf(message), t);
}

export type FieldErrors<F extends string> = Partial<Record<F, string | null>>;

/** What ties an AuthField to its value and its errors. */
export interface FieldBinding {
  id: string;
  value: string;
  onChange(next: string): void;
  onBlur(): void;
  error: string | null;
}

/**
 * Shows a field's error once the user has left the field or tried to submit, so an empty form
 * does not open in red. Field errors of a 422 reply show until the field is edited.
 */
export function useFormErrors<F extends string>(errors: FieldErrors<F>) {
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<FieldErrors<F>>({});

  const shown = (field: F): string | null =>
    server[field] ?? (submitted || touched[field] ? (errors[field] ?? null) : null);
  const hasErrors = Object.values(errors).some(Boolean);

  return {
    shown,
    hasErrors,
    /** The props that tie an AuthField to its value and to these errors. */
    bind: (field: F, value: string, set: (value: string) => void): FieldBinding => ({
      id: field,
      value,
      onChange: (next: string) => {
        set(next);
        setServer((known) => (known[field] ? { ...known, [field]: null } : known));
      },
      onBlur: () => setTouched((known) => (known[field] ? known : { ...known, [field]: true })),
      error: shown(field),
    }),
    submitting: () => setSubmitted(true),
    setServerErrors: setServer,
  };
}

/** The outcome of a failed call for a public page: a message to show, and per-field ones. */
export function describeFailure<F extends string>(
  t: Translate,
  error: unknown,
  fields: readonly F[],
): { message: string | null; fieldErrors: FieldErrors<F> } {
  if (isSilent(error)) return { message: null, fieldErrors: {} };
  if (!isApiError(error)) return { message: t('auth.server.contactSupport'), fieldErrors: {} };
  const fieldErrors: FieldErrors<F> = {};
  for (const [field, text] of Object.entries(error.fieldErrors)) {
    if ((fields as readonly string[]).includes(field))
      fieldErrors[field as F] = serverText(t, text, error.fieldErrorKeys[field]);
  }
  // A message that only repeats a field's error is shown next to the field alone.
  const repeated = Object.values(error.fieldErrors).includes(error.message);
  return { message: repeated ? null : serverText(t, error.message, error.messageKey), fieldErrors };
}

/**
 * Runs one call at a time with an AbortSignal that is aborted when the page unmounts, and
 * reports whether the page is still there to take the result.
 */
export function useAbortableCall() {
  const controller = useRef<AbortController | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(
    () => () => {
      controller.current?.abort();
    },
    [],
  );
  const run = useCallback(async <T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setPending(true);
    try {
      return await call(current.signal);
    } finally {
      if (controller.current === current && !current.signal.aborted) setPending(false);
    }
  }, []);
  return { run, pending };
}
