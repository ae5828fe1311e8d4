import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { notify } from '../notify';
import { describeFailure, type FieldErrors, useAbortableCall } from './authForm';

interface LinkSubmitOptions<F extends string> {
  errors: { hasErrors: boolean; submitting(): void; setServerErrors(errors: FieldErrors<F>): void };
  fields: readonly F[];
  /** i18n key of the success toast shown on the way to /login. */
  successKey: string;
  call(signal: AbortSignal): Promise<unknown>;
}

/**
 * Submitting a form opened from an e-mailed link (register, reset): check the fields, call once,
 * then a success toast and /login, or the failure above the form and next to its fields.
 */
export function useLinkSubmit<F extends string>({ errors, fields, successKey, call }: LinkSubmitOptions<F>) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { run, pending } = useAbortableCall();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.submitting();
    if (errors.hasErrors || pending) return;
    setFailure(null);
    try {
      await run(call);
      void notify({ message: t(successKey), intent: 'success', key: successKey });
      navigate('/login', { replace: true });
    } catch (error) {
      const { message, fieldErrors } = describeFailure(t, error, fields);
      setFailure(message);
      errors.setServerErrors(fieldErrors);
    }
  };
  return { submit, pending, failure };
}
