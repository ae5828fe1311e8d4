import { Spinner } from '@blueprintjs/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { useSession } from '../session/SessionProvider';
import './auth.css';

/** /logout: ends the session (the server revokes the token), then opens /login. */
export function LogoutPage() {
  const { t } = useTranslation();
  const { phase, logout } = useSession();
  const [, navigate] = useLocation();

  useEffect(() => {
    if (phase === 'signedIn' || phase === 'restoring') logout();
    // Once the session has settled as signed out, there is nothing left to end here.
    if (phase === 'signedOut') navigate('/login', { replace: true });
  }, [phase, logout, navigate]);

  return (
    <div className="sw-auth" role="status" aria-live="polite">
      <Spinner size={32} aria-label={t('auth.logout.signingOut')} />
      <span className="sw-auth-intro">{t('auth.logout.signingOut')}</span>
    </div>
  );
}
