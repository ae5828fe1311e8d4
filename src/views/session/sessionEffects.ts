import type { AnyActorRef } from 'xstate';
import { isApiError, isCancelled, isSilent } from '../../api/apiError';
import * as authApi from '../../api/auth';
import type { ApiClient } from '../../api/client';
import { messages, SHORT_TOAST_MS } from '../../domain/messages';
import {
  LOGIN_PATH,
  type LoginRequest,
  type SessionEvent,
  type sessionMachine,
  type ToastParams,
} from '../../machines/session.machine';
import type { Notice } from '../notify';
import { clearStoredSession, type SessionStorage, writeStoredSession } from './storedSession';

/**
 * The session's I/O: what the pure session machine's named actions do in the browser. Each
 * request runs its call and sends the outcome back to the machine as an event.
 */
export interface SessionEffectDeps {
  api: ApiClient;
  storage: SessionStorage | null;
  notify: (notice: Notice) => unknown;
  navigate: (to: string, options?: { replace?: boolean }) => void;
  reload: () => void;
  /** navigator.onLine */
  isOnline: () => boolean;
  /** Drops cached server data (react-query's cache) when a session ends. */
  clearCache: () => void;
  /** Translates a toast's text; the English text is the fallback. */
  translate: (key: string, fallback: string) => string;
  /** How long a redirect waits for its toast to be read (spec §8: 1 second). */
  redirectDelayMs?: number;
}

export type SessionEffects = Parameters<typeof sessionMachine.provide>[0];

function sendIfRunning(actor: AnyActorRef, event: SessionEvent): void {
  if (actor.getSnapshot().status === 'active') actor.send(event);
}

export function createSessionEffects(deps: SessionEffectDeps): SessionEffects {
  const { api, storage, redirectDelayMs = SHORT_TOAST_MS } = deps;
  // Calls are not aborted when the provider unmounts: React's strict mode unmounts and
  // remounts it once at start, and the restarted actor does not repeat its entry actions, so
  // an aborted profile call would never be made again. Late replies to a stopped actor are dropped.

  function showToast(params: ToastParams): void {
    void deps.notify({
      message: deps.translate(params.messageKey, params.message),
      intent: params.intent,
      timeout: params.timeout,
      key: params.messageKey,
    });
  }

  /** A background save failed: say so, unless the client already did or there is nothing to say. */
  function report(error: unknown): void {
    if (isSilent(error)) return;
    const message = isApiError(error) ? error.message : messages.somethingWentWrongContactSupport;
    void deps.notify({ message, intent: 'danger' });
  }

  function startLogin(actor: AnyActorRef, request: LoginRequest): void {
    const credentials = { email: request.email, password: request.password };
    const call =
      request.siteId === undefined
        ? authApi.login(api, credentials)
        : authApi.siteLogin(api, request.siteId, { ...credentials, groupOfSitesId: request.groupOfSitesId });
    void call.then(
      (reply) =>
        sendIfRunning(actor, { type: 'login.succeeded', token: reply.access_token, user: reply.user }),
      (error: unknown) =>
        sendIfRunning(actor, {
          type: 'login.failed',
          message: isSilent(error)
            ? null
            : isApiError(error)
              ? error.message
              : messages.somethingWentWrongContactSupport,
        }),
    );
  }

  return {
    actions: {
      persist: (_, session) => writeStoredSession(storage, session),
      clearStorage: () => clearStoredSession(storage),
      clearCache: () => deps.clearCache(),
      toast: (_, params) => showToast(params),
      navigate: ({ self }, { to }) => {
        setTimeout(() => {
          // Going to /login replaces the screen that failed, so Back does not return to it.
          deps.navigate(to, { replace: to === LOGIN_PATH });
          sendIfRunning(self, { type: 'redirect.done' });
        }, redirectDelayMs);
      },
      reload: () => deps.reload(),
      requestLogin: ({ self }, request) => startLogin(self, request),
      requestLogout: ({ self }) => {
        // Signed out locally whatever the server says: the user asked to leave.
        void authApi
          .logout(api)
          .catch(() => undefined)
          .then(() => sendIfRunning(self, { type: 'logout.done' }));
      },
      requestProfile: ({ self }) => {
        void authApi.currentUser(api).then(
          (user) => sendIfRunning(self, { type: 'profile.loaded', user }),
          (error: unknown) =>
            sendIfRunning(self, {
              type: 'profile.failed',
              online: deps.isOnline(),
              handled: isCancelled(error) || (isApiError(error) && error.handled),
            }),
        );
      },
      saveSelection: (_, selection) => {
        void authApi.recentlyVisited(api, selection).catch(report);
      },
      saveLocale: (_, { locale }) => {
        void authApi.setPreferences(api, { locale }).catch(report);
      },
    },
  };
}
