import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { resetPassword } from '../../api/auth';
import { useApi } from '../session/SessionProvider';
import { AuthCard, BackToLogin, FormFailure, SubmitButton } from './AuthCard';
import { confirmPasswordError, newPasswordError, useFormErrors } from './authForm';
import { NewPasswordFields } from './NewPasswordFields';
import { useLinkSubmit } from './useLinkSubmit';

type Field = 'password' | 'confirmPassword';
const FIELDS: readonly Field[] = ['password', 'confirmPassword'];

/** /reset-password/:token, the link of the reset e-mail. Success leads to /login. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const api = useApi();
  const { token = '' } = useParams<{ token: string }>();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const errors = useFormErrors<Field>({
    password: newPasswordError(t, password),
    confirmPassword: confirmPasswordError(t, password, confirmation),
  });

  const { submit, pending, failure } = useLinkSubmit({
    errors,
    fields: FIELDS,
    successKey: 'auth.reset.success',
    call: (signal) => resetPassword(api, token, password, signal),
  });

  return (
    <AuthCard title={t('auth.reset.title')}>
      <FormFailure message={failure} testId="reset-password-error" />
      <form onSubmit={submit} noValidate aria-label={t('auth.reset.title')}>
        <NewPasswordFields
          errors={errors}
          password={password}
          confirmation={confirmation}
          setPassword={setPassword}
          setConfirmation={setConfirmation}
          autoFocus
        />
        <SubmitButton text={t('auth.reset.submit')} pending={pending} />
      </form>
      <BackToLogin />
    </AuthCard>
  );
}
