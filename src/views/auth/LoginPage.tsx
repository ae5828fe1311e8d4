import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useSession } from '../session/SessionProvider';
import { AuthCard, AuthField, FormFailure, SubmitButton } from './AuthCard';
import { emailError, serverText, signInPasswordError, useFormErrors } from './authForm';

type Field = 'email' | 'password';

/**
 * /login. The session signs in; the guard then sends the user to their home. A refused login
 * shows the server's message above the form.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { login, loginError, phase } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // A login error from an earlier visit is not this form's to show.
  const [attempted, setAttempted] = useState(false);
  const errors = useFormErrors<Field>({
    email: emailError(t, email),
    password: signInPasswordError(t, password),
  });
  const signingIn = phase === 'signingIn';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    errors.submitting();
    if (errors.hasErrors || signingIn) return;
    setAttempted(true);
    login({ email: email.trim(), password });
  };

  return (
    <AuthCard title={t('auth.login.title')}>
      <FormFailure
        message={attempted && loginError && !signingIn ? serverText(t, loginError) : null}
        testId="login-error"
      />
      <form onSubmit={submit} noValidate aria-label={t('auth.login.title')}>
        <AuthField
          {...errors.bind('email', email, setEmail)}
          type="email"
          label={t('auth.field.email')}
          autoComplete="username"
          autoFocus
        />
        <AuthField
          {...errors.bind('password', password, setPassword)}
          type="password"
          label={t('auth.field.password')}
          autoComplete="current-password"
        />
        <SubmitButton text={t('auth.login.submit')} pending={signingIn} />
      </form>
      <div className="sw-auth-links">
        <Link href="/forgot-password" data-testid="forgot-password-link">
          {t('auth.login.forgotPassword')}
        </Link>
      </div>
    </AuthCard>
  );
}
