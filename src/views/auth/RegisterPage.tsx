import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { register } from '../../api/auth';
import { useApi } from '../session/SessionProvider';
import { AuthCard, AuthField, BackToLogin, FormFailure, SubmitButton } from './AuthCard';
import { confirmPasswordError, nameError, newPasswordError, useFormErrors } from './authForm';
import { NewPasswordFields } from './NewPasswordFields';
import { useLinkSubmit } from './useLinkSubmit';

type Field = 'name' | 'password' | 'confirmPassword';
const FIELDS: readonly Field[] = ['name', 'password', 'confirmPassword'];

/** /register/:signature, the link of an invitation. Success leads to /login. */
export function RegisterPage() {
  const { t } = useTranslation();
  const api = useApi();
  const { signature = '' } = useParams<{ signature: string }>();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const errors = useFormErrors<Field>({
    name: nameError(t, name),
    password: newPasswordError(t, password),
    confirmPassword: confirmPasswordError(t, password, confirmation),
  });

  const { submit, pending, failure } = useLinkSubmit({
    errors,
    fields: FIELDS,
    successKey: 'auth.register.success',
    call: (signal) => register(api, signature, { name: name.trim(), password }, signal),
  });

  return (
    <AuthCard title={t('auth.register.title')} intro={t('auth.register.intro')}>
      <FormFailure message={failure} testId="register-error" />
      <form onSubmit={submit} noValidate aria-label={t('auth.register.title')}>
        <AuthField
          {...errors.bind('name', name, setName)}
          label={t('auth.field.name')}
          autoComplete="name"
          autoFocus
        />
        <NewPasswordFields
          errors={errors}
          password={password}
          confirmation={confirmation}
          setPassword={setPassword}
          setConfirmation={setConfirmation}
        />
        <SubmitButton text={t('auth.register.submit')} pending={pending} />
      </form>
      <BackToLogin />
    </AuthCard>
  );
}
