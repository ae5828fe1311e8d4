// Blueprint's styles for the widgets only signed-in screens draw (scripts/blueprintCss.ts).
import 'virtual:blueprint-screens.css';
import { HotkeysProvider } from '@blueprintjs/core';
import { type ReactNode, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { landingPath } from '../../domain/access';
import { FORBIDDEN_PATH, LOGIN_PATH } from '../../domain/routeAccess';
import { SCREEN_ROUTES, type ScreenRoute } from '../../domain/routes';
import { addScreenTexts } from '../../i18n';
import { ENGLISH_SCREENS } from '../../i18n/englishScreens';
import { ForbiddenScreen } from '../screens/ForbiddenScreen';
import { NotFoundScreen } from '../screens/NotFoundScreen';
import { ScreenPlaceholder } from '../screens/ScreenPlaceholder';
import { LiveProvider } from '../session/LiveProvider';
import { useSession } from '../session/SessionProvider';
import { AppShell } from '../shell/AppShell';
import { LoadingScreen } from './LoadingScreen';
import { SCREENS } from './screens';

// The screens' English texts arrive with this chunk, before any screen renders.
addScreenTexts(ENGLISH_SCREENS);

/**
 * Each screen waits for its chunk in a boundary of its own: the previous screen is then unmounted
 * at once, where a shared boundary would keep it in the page (hidden) until the new one arrives.
 */
function ScreenAt({ route }: { route: ScreenRoute }) {
  const Screen = SCREENS[route.path];
  if (!Screen) return <ScreenPlaceholder route={route} />;
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Screen />
    </Suspense>
  );
}

/** Inside the shell when someone is signed in; on its own otherwise (/403 and unknown paths). */
function Frame({ children }: { children: ReactNode }) {
  const { user } = useSession();
  if (user) return <AppShell user={user}>{children}</AppShell>;
  return <main className="sw-center">{children}</main>;
}

/**
 * The signed-in routes and their shell; a chunk of its own (loaded from App), so the login form
 * does not wait for the shell. The shell stays mounted while a screen's chunk downloads.
 */
export function SignedInRoutes() {
  const { user } = useSession();
  const home = user ? landingPath(user.user_role) : LOGIN_PATH;
  return (
    // Blueprint's table registers its keyboard shortcuts here; no signed-out page has any.
    <HotkeysProvider>
      <LiveProvider>
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
      </LiveProvider>
    </HotkeysProvider>
  );
}
