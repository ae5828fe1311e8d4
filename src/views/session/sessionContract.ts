import type { ApiUser } from '../../domain/user';
import type { SessionStateName } from '../../machines/session.machine';

/**
 * What views know of the session. The session provider implements it on top of the session
 * machine; views never reach into the machine itself.
 */
export type SessionPhase = SessionStateName;

export interface SessionView {
  phase: SessionPhase;
  /** Present once signed in; kept in storage under `user`. */
  user: ApiUser | null;
  /** The last login error message (for example "Invalid email or password"), if any. */
  loginError: string | null;
  /** Added: a session call is under way (restoring, signing in or out); the machine's 'busy' tag. */
  busy: boolean;
}

export interface SessionActions {
  /** With `siteId` (added) it signs straight into that site: POST /sites/{siteId}/login. */
  login(credentials: { email: string; password: string; siteId?: number; groupOfSitesId?: number }): void;
  logout(): void;
  /** After the user picks a client or site: stores it locally and on the server (recently-visited). */
  rememberSelection(selection: { clientId: number | null; siteId: number | null }): void;
  setLocale(locale: 'en' | 'ar'): void;
}
