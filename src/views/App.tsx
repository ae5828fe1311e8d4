import type { ComponentType, ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { landingPath } from '../domain/access';
import { FORBIDDEN_PATH, LOGIN_PATH, LOGOUT_PATH } from '../domain/routeAccess';
import { SCREEN_ROUTES, type ScreenRoute } from '../domain/routes';
import { ForgotPasswordPage } from './auth/ForgotPasswordPage';
import { LoginPage } from './auth/LoginPage';
import { LogoutPage } from './auth/LogoutPage';
import { RegisterPage } from './auth/RegisterPage';
import { ResetPasswordPage } from './auth/ResetPasswordPage';
import { MapsScreen } from './maps/MapsScreen';
import { NodesScreen } from './nodes/NodesScreen';
import { RouteGuard } from './routing/RouteGuard';
import { EvacuationScreen } from './safety/evacuation/EvacuationScreen';
import { SafetyDemoScreen } from './safety/SafetyDemoScreen';
import { SafetyScreen } from './safety/SafetyScreen';
import { ForbiddenScreen } from './screens/ForbiddenScreen';
import { HomeScreen } from './screens/HomeScreen';
import { NotFoundScreen } from './screens/NotFoundScreen';
import { ScreenPlaceholder } from './screens/ScreenPlaceholder';
import { useSession } from './session/SessionProvider';
import { AppShell } from './shell/AppShell';
import { LocaleSync } from './shell/LocaleSync';
import { OfflineNotice } from './shell/OfflineNotice';
import { PublicLayout } from './shell/PublicLayout';
import { SelectionProvider } from './shell/selection';
import { WorkersScreen } from './workers/WorkersScreen';
import { CrewsScreen } from './workforce/CrewsScreen';
import { SubcontractorsScreen, WorkerRolesScreen } from './workforce/NameListScreen';
import { WorkshiftsScreen } from './workforce/WorkshiftsScreen';

/**
 * The screen of each signed-in route. A route without an entry shows its title and a
 * "Nothing here yet" placeholder until the issue that builds it adds itself here.
 */
const SCREENS: Readonly<Record<string, ComponentType>> = {
  '/': HomeScreen,
  '/maps': MapsScreen,
  '/nodes': NodesScreen,
  '/safety': SafetyScreen,
  '/safteyDemo': SafetyDemoScreen,
  '/safetyevacuation': EvacuationScreen,
  '/workers': WorkersScreen,
  '/crews': CrewsScreen,
  '/workshifts': WorkshiftsScreen,
  '/configuration/workerRoles': WorkerRolesScreen,
  '/configuration/subContractors': SubcontractorsScreen,
};

function ScreenAt({ route }: { route: ScreenRoute }) {
  const Screen = SCREENS[route.path];
  return Screen ? <Screen /> : <ScreenPlaceholder route={route} />;
}

/** Inside the shell when someone is signed in; on its own otherwise (/403 and unknown paths). */
function Frame({ children }: { children: ReactNode }) {
  const { user } = useSession();
  if (user) return <AppShell user={user}>{children}</AppShell>;
  return <main className="sw-center">{children}</main>;
}

function SignedInRoutes() {
  const { user } = useSession();
  const home = user ? landingPath(user.user_role) : LOGIN_PATH;
  return (
    <Frame>
      <Switch>
        {SCREEN_ROUTES.map((route) => (
          <Route key={route.path} path={route.path}>
            <ScreenAt route={route} />
          </Route>
        ))}
        <Route path={FORBIDDEN_PATH}>
          <ForbiddenScreen homePath={home} />
        </Route>
        <Route>
          <NotFoundScreen homePath={home} />
        </Route>
      </Switch>
    </Frame>
  );
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
            <Route path={LOGIN_PATH}>
              <PublicLayout>
                <LoginPage />
              </PublicLayout>
            </Route>
            <Route path="/forgot-password">
              <PublicLayout>
                <ForgotPasswordPage />
              </PublicLayout>
            </Route>
            <Route path="/reset-password/:token">
              <PublicLayout>
                <ResetPasswordPage />
              </PublicLayout>
            </Route>
            <Route path="/register/:signature">
              <PublicLayout>
                <RegisterPage />
              </PublicLayout>
            </Route>
            <Route path={LOGOUT_PATH}>
              <LogoutPage />
            </Route>
            <Route>
              <SignedInRoutes />
            </Route>
          </Switch>
        </RouteGuard>
      </SelectionProvider>
    </>
  );
}
