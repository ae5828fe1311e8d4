import { Button, Callout } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'wouter';
import { register } from '../../api/auth';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { AuthCard, AuthField } from './AuthCard';
import {
  confirmPasswordError,
  describeFailure,
  nameError,
  newPasswordError,
  useAbortableCall,
  useFormErrors,
} from './authForm';

type Field = 'name' | 'password' | 'confirmPassword';
const FIELDS: readonly Field[] = ['name', 'password', 'confirmPassword'];

/** /register/:signature, the link of an invitation. Success leads to /login. */
export function RegisterPage() {
  const { t } = useTranslation();
  const api = useApi();
  const { signature = '' } = useParams<{ signature: string }>();
  const [, navigate] = useLocation();
  const { run, pending } = useAbortableCall();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const errors = useFormErrors<Field>({
    name: nameError(t, name),
    password: newPasswordError(t, password),
    confirmPassword: confirmPasswordError(t, password, confirmation),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.submitting();
    if (errors.hasErrors || pending) return;
    setFailure(null);
    try {
      await run((signal) => register(api, signature, { name: name.trim(), password }, signal));
      void notify({ message: t('auth.register.success'), intent: 'success', key: 'auth.register.success' });
      navigate('/login', { replace: true });
    } catch (error) {
      const { message, fieldErrors } = describeFailure(t, error, FIELDS);
      setFailure(message);
      errors.setServerErrors(fieldErrors);
    }
  };

  const field = (id: Field, value: string, set: (value: string) => void) => ({
    id,
    value,
    onChange: (next: string) => {
      set(next);
      errors.edited(id);
    },
    onBlur: () => errors.touch(id),
    error: errors.shown(id),
  });

  return (
    <AuthCard title={t('auth.register.title')} intro={t('auth.register.intro')}>
      {failure && (
        <Callout intent="danger" className="sw-auth-callout" data-testid="register-error" role="alert">
          {failure}
        </Callout>
      )}
      <form onSubmit={submit} noValidate aria-label={t('auth.register.title')}>
        <AuthField
          {...field('name', name, setName)}
          label={t('auth.field.name')}
          autoComplete="name"
          autoFocus
        />
        <AuthField
          {...field('password', password, setPassword)}
          type="password"
          label={t('auth.field.password')}
          autoComplete="new-password"
        />
        <AuthField
          {...field('confirmPassword', confirmation, setConfirmation)}
          type="password"
          label={t('auth.field.confirmPassword')}
          autoComplete="new-password"
        />
        <div className="sw-auth-actions">
          <Button type="submit" intent="primary" size="large" fill loading={pending}>
            {t('auth.register.submit')}
          </Button>
        </div>
      </form>
      <div className="sw-auth-links">
        <Link href="/login">{t('auth.backToLogin')}</Link>
      </div>
    </AuthCard>
  );
}
