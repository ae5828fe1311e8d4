import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import { resetPassword } from '../../api/auth';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { AuthCard, BackToLogin, FormFailure, SubmitButton } from './AuthCard';
import {
  confirmPasswordError,
  describeFailure,
  newPasswordError,
  useAbortableCall,
  useFormErrors,
} from './authForm';
import { NewPasswordFields } from './NewPasswordFields';

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
