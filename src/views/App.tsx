import { type ReactNode, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { LOGIN_PATH, LOGOUT_PATH } from '../domain/routeAccess';
import { LoginPage } from './auth/LoginPage';
import { LoadingScreen } from './routing/LoadingScreen';
import { lazyNamed } from './routing/lazyNamed';
import { RouteGuard } from './routing/RouteGuard';
import { useSession } from './session/SessionProvider';
import { LocaleSync } from './shell/LocaleSync';
import { OfflineNotice } from './shell/OfflineNotice';
import { PublicLayout } from './shell/PublicLayout';
import { SelectionProvider } from './shell/selection';

// Only the login form is in the first download; every other page is a chunk loaded when first opened.
const ForgotPasswordPage = lazyNamed(() => import('./auth/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyNamed(() => import('./auth/ResetPasswordPage'), 'ResetPasswordPage');
const RegisterPage = lazyNamed(() => import('./auth/RegisterPage'), 'RegisterPage');
const LogoutPage = lazyNamed(() => import('./auth/LogoutPage'), 'LogoutPage');
const SignedInRoutes = lazyNamed(() => import('./routing/SignedInRoutes'), 'SignedInRoutes');

/**
 * A lazy page in a boundary of its own (each route is keyed), so the page before it is unmounted
 * at once rather than kept in the page, hidden, until the new chunk arrives.
 */
function Loaded({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LoadingScreen />}>{children}</Suspense>;
}

/** Every route of spec §2, behind the guard; the shell stays mounted while screens change. */
export function App() {
  const { user } = useSession();
  return (
    <>
      <LocaleSync />
      <OfflineNotice />
      <SelectionProvider key={user?.id ?? 'signed-out'}>
        <RouteGuard>
          <Switch>
            <Route key="login" path={LOGIN_PATH}>
              <PublicLayout>
                <LoginPage />
              </PublicLayout>
            </Route>
            <Route key="forgot-password" path="/forgot-password">
              <PublicLayout>
                <Loaded>
                  <ForgotPasswordPage />
                </Loaded>
              </PublicLayout>
            </Route>
            <Route key="reset-password" path="/reset-password/:token">
              <PublicLayout>
                <Loaded>
                  <ResetPasswordPage />
                </Loaded>
              </PublicLayout>
            </Route>
            <Route key="register" path="/register/:signature">
              <PublicLayout>
                <Loaded>
                  <RegisterPage />
                </Loaded>
              </PublicLayout>
            </Route>
            <Route key="logout" path={LOGOUT_PATH}>
              <Loaded>
                <LogoutPage />
              </Loaded>
            </Route>
            <Route key="signed-in">
              <Loaded>
                <SignedInRoutes />
              </Loaded>
            </Route>
          </Switch>
        </RouteGuard>
      </SelectionProvider>
    </>
  );
}
