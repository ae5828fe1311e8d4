import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import { register } from '../../api/auth';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { AuthCard, AuthField, BackToLogin, FormFailure, SubmitButton } from './AuthCard';
import {
  confirmPasswordError,
  describeFailure,
  nameError,
  newPasswordError,
  useAbortableCall,
  useFormErrors,
} from './authForm';
import { NewPasswordFields } from './NewPasswordFields';

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
