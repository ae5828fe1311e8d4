import { Button, Callout } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'wouter';
import { resetPassword } from '../../api/auth';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { AuthCard, AuthField } from './AuthCard';
import {
  confirmPasswordError,
  describeFailure,
  newPasswordError,
  useAbortableCall,
  useFormErrors,
} from './authForm';

type Field = 'password' | 'confirmPassword';
const FIELDS: readonly Field[] = ['password', 'confirmPassword'];

/** /reset-password/:token, the link of the reset e-mail. Success leads to /login. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const api = useApi();
  const { token = '' } = useParams<{ token: string }>();
  const [, navigate] = useLocation();
  const { run, pending } = useAbortableCall();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const errors = useFormErrors<Field>({
    password: newPasswordError(t, password),
    confirmPassword: confirmPasswordError(t, password, confirmation),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.submitting();
    if (errors.hasErrors || pending) return;
    setFailure(null);
    try {
      await run((signal) => resetPassword(api, token, password, signal));
      void notify({ message: t('auth.reset.success'), intent: 'success', key: 'auth.reset.success' });
      navigate('/login', { replace: true });
    } catch (error) {
      const { message, fieldErrors } = describeFailure(t, error, FIELDS);
      setFailure(message);
      errors.setServerErrors(fieldErrors);
    }
  };

  return (
    <AuthCard title={t('auth.reset.title')}>
      {failure && (
        <Callout intent="danger" className="sw-auth-callout" data-testid="reset-password-error" role="alert">
          {failure}
        </Callout>
      )}
      <form onSubmit={submit} noValidate aria-label={t('auth.reset.title')}>
        <AuthField
          id="password"
          type="password"
          label={t('auth.field.password')}
          value={password}
          onChange={(value) => {
            setPassword(value);
            errors.edited('password');
          }}
          onBlur={() => errors.touch('password')}
          error={errors.shown('password')}
          autoComplete="new-password"
          autoFocus
        />
        <AuthField
          id="confirmPassword"
          type="password"
          label={t('auth.field.confirmPassword')}
          value={confirmation}
          onChange={(value) => {
            setConfirmation(value);
            errors.edited('confirmPassword');
          }}
          onBlur={() => errors.touch('confirmPassword')}
          error={errors.shown('confirmPassword')}
          autoComplete="new-password"
        />
        <div className="sw-auth-actions">
          <Button type="submit" intent="primary" size="large" fill loading={pending}>
            {t('auth.reset.submit')}
          </Button>
        </div>
      </form>
      <div className="sw-auth-links">
        <Link href="/login">{t('auth.backToLogin')}</Link>
      </div>
    </AuthCard>
  );
}
