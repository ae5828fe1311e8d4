import { describe, expect, it } from 'vitest';
import { can, SITE_ENGINEER_LANDING } from '../../src/domain/access';
import { ROLES, type Role } from '../../src/domain/roles';
import {
  decideRoute,
  isPublicPath,
  matchesPattern,
  normalizePath,
  type RouteDecision,
  type RoutePhase,
} from '../../src/domain/routeAccess';
import { SCREEN_ROUTES } from '../../src/domain/routes';

const RENDER: RouteDecision = { kind: 'render' };
const LOADING: RouteDecision = { kind: 'loading' };
const to = (path: string): RouteDecision => ({ kind: 'redirect', to: path });

const signedIn = (path: string, role: Role) => decideRoute({ path, phase: 'signedIn', role });

const PUBLIC_EXAMPLES = ['/login', '/forgot-password', '/reset-password/abc123', '/register/sig-xyz'];

/** One route per area row of DESIGN.md §4, with who may open it. */
const OPENS: Record<string, readonly Role[]> = {
  '/analytics/heatmap': ['super-admin', 'client-admin', 'group-of-sites-admin', 'group-of-sites-viewer'],
  '/maps': ['super-admin', 'client-admin', 'group-of-sites-admin', 'group-of-sites-viewer'],
  '/workers': [
    'super-admin',
    'client-admin',
    'group-of-sites-admin',
    'group-of-sites-viewer',
    'crew-manager',
  ],
  '/dailyAttendanceReport': [
    'super-admin',
    'client-admin',
    'group-of-sites-admin',
    'group-of-sites-viewer',
    'crew-manager',
  ],
  '/workshifts': [
    'super-admin',
    'client-admin',
    'group-of-sites-admin',
    'group-of-sites-viewer',
    'crew-manager',
  ],
  '/configuration/workerRoles': ['super-admin', 'client-admin', 'group-of-sites-admin'],
  '/configuration/bulkUploads': ['super-admin', 'client-admin', 'group-of-sites-admin'],
  '/nodes': ['super-admin', 'client-admin', 'group-of-sites-admin', 'site-engineer'],
  '/maintenance/map': ['super-admin', 'client-admin', 'group-of-sites-admin', 'site-engineer'],
  '/electricalRmInstallation': ['super-admin', 'client-admin', 'group-of-sites-admin', 'site-engineer'],
  '/productivity': [
    'super-admin',
    'client-admin',
    'group-of-sites-admin',
    'group-of-sites-viewer',
    'crew-manager',
    'site-engineer',
  ],
  '/safetyevacuation': [
    'super-admin',
    'client-admin',
    'group-of-sites-admin',
    'group-of-sites-viewer',
    'safety-demo',
  ],
  '/safteyDemo': ['super-admin', 'safety-demo'],
  '/users': ['super-admin', 'client-admin', 'group-of-sites-admin'],
};

describe('decideRoute', () => {
  describe('while the session is restored', () => {
    it.each(['/', '/workers', '/login', '/403', '/logout', '/nowhere'])(
      'shows the loading screen on %s',
      (path) => {
        expect(decideRoute({ path, phase: 'restoring', role: null })).toEqual(LOADING);
      },
    );
  });

  describe('signed out', () => {
    it.each(PUBLIC_EXAMPLES)('renders the public route %s', (path) => {
      expect(decideRoute({ path, phase: 'signedOut', role: null })).toEqual(RENDER);
    });

    it.each(SCREEN_ROUTES.map((route) => route.path))('sends %s to /login', (path) => {
      expect(decideRoute({ path, phase: 'signedOut', role: null })).toEqual(to('/login'));
    });

    it('renders /logout, /403 and unknown paths', () => {
      for (const path of ['/logout', '/403', '/no/such/page']) {
        expect(decideRoute({ path, phase: 'signedOut', role: null })).toEqual(RENDER);
      }
    });

    it('keeps the login page while signing in, and guards screens meanwhile', () => {
      expect(decideRoute({ path: '/login', phase: 'signingIn', role: null })).toEqual(RENDER);
      expect(decideRoute({ path: '/workers', phase: 'signingIn', role: null })).toEqual(to('/login'));
    });

    it('does not treat a bare or over-long public prefix as public', () => {
      // Not public, so a signed-in user gets "not found" rather than a bounce home.
      expect(signedIn('/reset-password', 'super-admin')).toEqual(RENDER);
      expect(isPublicPath('/reset-password')).toBe(false);
      expect(isPublicPath('/reset-password/a/b')).toBe(false);
      expect(isPublicPath('/register/sig/')).toBe(true);
    });
  });

  describe.each(ROLES)('signed in as %s', (role) => {
    const home = role === 'site-engineer' ? SITE_ENGINEER_LANDING : '/';

    it.each(PUBLIC_EXAMPLES)('is sent home from %s', (path) => {
      expect(signedIn(path, role)).toEqual(to(home));
    });

    it('opens / or is sent to its landing page', () => {
      expect(signedIn('/', role)).toEqual(role === 'site-engineer' ? to(SITE_ENGINEER_LANDING) : RENDER);
    });

    it('can open its own home', () => {
      expect(signedIn(home, role)).toEqual(RENDER);
    });

    it.each(Object.keys(OPENS))('opens %s only if DESIGN.md §4 allows it, else /403', (path) => {
      const expected = OPENS[path].includes(role) ? RENDER : to('/403');
      expect(signedIn(path, role)).toEqual(expected);
    });

    it('agrees with the access table on every signed-in route', () => {
      for (const route of SCREEN_ROUTES) {
        if (route.path === '/') continue;
        const expected = can(role, 'open', route.area) ? RENDER : to('/403');
        expect(signedIn(route.path, role)).toEqual(expected);
      }
    });

    it('renders /403, /logout and unknown paths', () => {
      expect(signedIn('/403', role)).toEqual(RENDER);
      expect(signedIn('/logout', role)).toEqual(RENDER);
      expect(signedIn('/no/such/page', role)).toEqual(RENDER);
    });
  });

  it('ignores a trailing slash, the query string and the hash', () => {
    expect(signedIn('/users/', 'crew-manager')).toEqual(to('/403'));
    expect(signedIn('/workers?page=2#top', 'crew-manager')).toEqual(RENDER);
    expect(signedIn('/login?next=/workers', 'super-admin')).toEqual(to('/'));
  });

  it.each<RoutePhase>(['signingOut', 'redirecting'])(
    'keeps the screen while %s with the user still present',
    (phase) => {
      expect(decideRoute({ path: '/workers', phase, role: 'group-of-sites-admin' })).toEqual(RENDER);
      expect(decideRoute({ path: '/login', phase, role: 'group-of-sites-admin' })).toEqual(RENDER);
    },
  );

  it.each<RoutePhase>(['signingOut', 'redirecting'])(
    'sends a screen to /login once %s cleared the user',
    (phase) => {
      expect(decideRoute({ path: '/workers', phase, role: null })).toEqual(to('/login'));
    },
  );
});

describe('path helpers', () => {
  it('normalizes paths', () => {
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('')).toBe('/');
    expect(normalizePath('/workers/')).toBe('/workers');
    expect(normalizePath('/workers//')).toBe('/workers');
    expect(normalizePath('/?x=1')).toBe('/');
  });

  it('matches parameter segments only when present', () => {
    expect(matchesPattern('/reset-password/:token', '/reset-password/t0k')).toBe(true);
    expect(matchesPattern('/reset-password/:token', '/reset-password/')).toBe(false);
    expect(matchesPattern('/login', '/login')).toBe(true);
    expect(matchesPattern('/login', '/logins')).toBe(false);
  });
});
