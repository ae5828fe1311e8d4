import { Callout } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { forgotPassword } from '../../api/auth';
import { useApi } from '../session/SessionProvider';
import { AuthCard, AuthField, BackToLogin, FormFailure, SubmitButton } from './AuthCard';
import { describeFailure, emailError, useAbortableCall, useFormErrors } from './authForm';

type Field = 'email';
const FIELDS: readonly Field[] = ['email'];

/**
 * /forgot-password. The confirmation is the same whether or not the address is registered, so
 * the page cannot be used to find out who has an account.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const api = useApi();
  const { run, pending } = useAbortableCall();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const errors = useFormErrors<Field>({ email: emailError(t, email) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.submitting();
    if (errors.hasErrors || pending) return;
    setFailure(null);
    try {
      await run((signal) => forgotPassword(api, email.trim(), signal));
      setSent(true);
    } catch (error) {
      const { message, fieldErrors } = describeFailure(t, error, FIELDS);
      setFailure(message);
      errors.setServerErrors(fieldErrors);
    }
  };

  return (
    <AuthCard title={t('auth.forgot.title')} intro={sent ? undefined : t('auth.forgot.intro')}>
      {sent ? (
        <Callout
          intent="success"
          className="sw-auth-callout"
          data-testid="forgot-password-sent"
          role="status"
        >
          {t('auth.forgot.sent')}
        </Callout>
      ) : (
        <>
          <FormFailure message={failure} testId="forgot-password-error" />
          <form onSubmit={submit} noValidate aria-label={t('auth.forgot.title')}>
            <AuthField
              {...errors.bind('email', email, setEmail)}
              type="email"
              label={t('auth.field.email')}
              autoComplete="email"
              autoFocus
            />
            <SubmitButton text={t('auth.forgot.submit')} pending={pending} />
          </form>
        </>
      )}
      <BackToLogin />
    </AuthCard>
  );
}
