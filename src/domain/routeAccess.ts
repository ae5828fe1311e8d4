import { can, landingPath, SITE_ENGINEER_LANDING } from './access';
import type { Role } from './roles';
import { PUBLIC_PATHS, type ScreenRoute, screenRouteFor } from './routes';

/** The session phases the guard tells apart (the same names as the session view's). */
export type RoutePhase = 'restoring' | 'signedOut' | 'signingIn' | 'signedIn' | 'signingOut' | 'redirecting';

export type RouteDecision = { kind: 'render' } | { kind: 'redirect'; to: string } | { kind: 'loading' };

export interface RouteQuery {
  path: string;
  phase: RoutePhase;
  /** The signed-in user's role, or null when nobody is signed in. */
  role: Role | null;
}

export const LOGIN_PATH = '/login';
export const LOGOUT_PATH = '/logout';
export const FORBIDDEN_PATH = '/403';

const RENDER: RouteDecision = { kind: 'render' };
const LOADING: RouteDecision = { kind: 'loading' };

function redirect(to: string): RouteDecision {
  return { kind: 'redirect', to };
}

/** `/workers/` and `/workers` are one route; the query string and hash are not part of it. */
export function normalizePath(path: string): string {
  const bare = path.split(/[?#]/)[0] || '/';
  return bare.length > 1 && bare.endsWith('/') ? bare.replace(/\/+$/, '') || '/' : bare;
}

/** Whether `path` matches a pattern like `/reset-password/:token` (one segment per parameter). */
export function matchesPattern(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return false;
  return want.every((segment, index) =>
    segment.startsWith(':') ? got[index].length > 0 : segment === got[index],
  );
}

export function isPublicPath(path: string): boolean {
  const normalized = normalizePath(path);
  return PUBLIC_PATHS.some((pattern) => matchesPattern(pattern, normalized));
}

/** The signed-in screen at `path`, if there is one. */
export function screenAt(path: string): ScreenRoute | undefined {
  return screenRouteFor(normalizePath(path));
}

/**
 * What the console does with a location (spec §2 guard rules, DESIGN.md §4 access table):
 * - while the session is being restored, a loading screen, whatever the route;
 * - /logout, /403 and unknown paths render for anyone (unknown paths show "not found");
 * - a public route renders for a signed-out user and sends a signed-in one to its home;
 * - a signed-in route sends a signed-out user to /login, a role that may not open its area to
 *   /403, and a site-engineer on / to the site-engineer landing page.
 *
 * While signing out or redirecting after a 401/403 the user may still be present; the screen
 * stays until the session settles rather than bouncing between routes.
 */
export function decideRoute({ path, phase, role }: RouteQuery): RouteDecision {
  if (phase === 'restoring') return LOADING;
  const normalized = normalizePath(path);
  if (normalized === LOGOUT_PATH || normalized === FORBIDDEN_PATH) return RENDER;

  if (isPublicPath(normalized)) {
    return phase === 'signedIn' && role ? redirect(landingPath(role)) : RENDER;
  }

  const screen = screenRouteFor(normalized);
  if (!screen) return RENDER;

  const signedIn =
    role !== null && (phase === 'signedIn' || phase === 'signingOut' || phase === 'redirecting');
  if (!signedIn) return redirect(LOGIN_PATH);
  if (normalized === '/' && role === 'site-engineer') return redirect(SITE_ENGINEER_LANDING);
  if (!can(role, 'open', screen.area)) return redirect(FORBIDDEN_PATH);
  return RENDER;
}
