import { describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { messages, SHORT_TOAST_MS } from '../../src/domain/messages';
import { type StoredSession, sessionMachine, sessionStateOf } from '../../src/machines/session.machine';
import {
  type Effect,
  loggedInUser,
  refreshedProfile,
  type SessionHarness,
  startSession,
  storedSession,
} from './helpers/sessionHarness';

type Snapshot = SnapshotFrom<typeof sessionMachine>;
type Event = EventFrom<typeof sessionMachine>;

const credentials = { email: 'super-admin@demo.sitewatch.dev', password: 'sitewatch-demo' };

/** The payloads the model tries; event types not listed here are sent without one. */
const sampleEvents: Event[] = [
  { type: 'login.submit', ...credentials },
  { type: 'login.succeeded', token: 'fresh-token', user: loggedInUser },
  { type: 'login.failed', message: 'Invalid email or password' },
  { type: 'login.failed', message: null },
  { type: 'profile.loaded', user: refreshedProfile },
  { type: 'profile.failed', online: true },
  { type: 'profile.failed', online: false },
  { type: 'profile.failed', online: true, handled: true },
  { type: 'selection.changed', clientId: 3, siteId: 30 },
  { type: 'locale.changed', locale: 'ar' },
];

const editsUser = new Set(['profile.loaded', 'selection.changed', 'locale.changed']);
const pristineUsers = [JSON.stringify(storedSession.user), JSON.stringify({ ...loggedInUser, locale: 'en' })];

/**
 * The three events that edit the stored user are tried on an unedited user only: each is
 * covered from every state that takes it, without the model enumerating every combination.
 */
const model = createTestModel(sessionMachine, {
  events: sampleEvents,
  filterEvents: (state, event) =>
    !editsUser.has(event.type) || pristineUsers.includes(JSON.stringify(state.context.user)),
});

const bySnapshot = (state: Snapshot) => JSON.stringify({ value: state.value, context: state.context });

/**
 * Every transition is its own target, self-loops included (the default leaves out those that
 * keep the state value, such as storage.changed → reload): snapshot, event and where it came from.
 */
const byTransition = (state: Snapshot, event: Event | undefined, previous: Snapshot | undefined) =>
  `${bySnapshot(state)}${event ? ` via ${JSON.stringify(event)} from ${JSON.stringify(previous?.value)}` : ''}`;

/** The storage entries of the stored session the model starts from. */
const storedEntries = { auth: storedSession.token, user: storedSession.user };

const toast = (message: string): Effect => ({
  type: 'toast',
  params: expect.objectContaining({ message, timeout: SHORT_TOAST_MS }),
});

/**
 * What the system must show in each state: the machine's own state agrees with the model, and
 * storage and the requested effects are what the spec asks for there.
 */
function stateChecks(sut: SessionHarness) {
  const agrees = (state: Snapshot) => {
    expect(sut.snapshot().value).toEqual(state.value);
    expect(sut.snapshot().context).toEqual(state.context);
  };
  return {
    restoring: (state: Snapshot) => {
      agrees(state);
      expect(sut.snapshot().hasTag('busy')).toBe(true);
      expect(state.matches({ restoring: 'fetchingProfile' })).toBe(true);
      // Restoring is only ever entered at start, with a stored session, and asks for the profile once.
      expect(sut.stored()).toEqual(storedEntries);
      expect(sut.ofType('requestProfile')).toHaveLength(1);
    },
    signedOut: (state: Snapshot) => {
      agrees(state);
      expect(sut.snapshot().hasTag('busy')).toBe(false);
      expect(state.context.user).toBeNull();
      expect(state.context.token).toBeNull();
      expect(sut.stored()).toEqual({ auth: null, user: null });
    },
    signingIn: (state: Snapshot) => {
      agrees(state);
      expect(sut.snapshot().hasTag('busy')).toBe(true);
      expect(state.context.loginError).toBeNull();
      expect(sut.ofType('requestLogin').at(-1)).toEqual({ type: 'requestLogin', params: credentials });
      expect(sut.ofType('requestLogin')).toHaveLength(sut.sent('login.submit'));
      expect(sut.stored()).toEqual({ auth: null, user: null });
    },
    signedIn: (state: Snapshot) => {
      agrees(state);
      expect(sut.snapshot().hasTag('busy')).toBe(false);
      expect(state.context.user).not.toBeNull();
      // What is in memory is what a reload would restore.
      expect(sut.stored()).toEqual({ auth: state.context.token, user: state.context.user });
    },
    signingOut: (state: Snapshot) => {
      agrees(state);
      expect(sut.snapshot().hasTag('busy')).toBe(true);
      // One logout call per logout asked for.
      expect(sut.ofType('requestLogout')).toHaveLength(sut.sent('logout.start'));
      // The token is still stored: the logout call needs it.
      expect(sut.stored().auth).toBe(state.context.token);
    },
    redirecting: (state: Snapshot) => {
      agrees(state);
      expect(sut.stored()).toEqual({ auth: null, user: null });
      expect(sut.ofType('toast').at(-1)).toEqual(toast(messages.badCredentials));
      expect(sut.ofType('navigate').at(-1)).toEqual({ type: 'navigate', params: { to: '/login' } });
    },
  };
}

/** Sends each event to the system and checks the effects that event alone must cause. */
function eventExecutors(sut: SessionHarness) {
  const send = (event: Event) => {
    const before = sessionStateOf(sut.snapshot());
    const effects = sut.send(event);
    return { before, effects, types: effects.map((effect) => effect.type) };
  };
  const step =
    (check: (result: ReturnType<typeof send>, event: Event) => void) =>
    // The graph types each step's event by its type alone; the payload is there at run time.
    (step: { event: { type: string } }) =>
      check(send(step.event as Event), step.event as Event);

  return {
    'login.submit': step(({ types }) => expect(types).toEqual(['requestLogin'])),
    'login.succeeded': step(({ types }) => {
      expect(types).toEqual(['persist']);
      // Spec §9: the locale is forced to en on login, whatever the server had.
      expect(sut.stored().user).toEqual({ ...loggedInUser, locale: 'en' });
      expect(sut.stored().auth).toBe('fresh-token');
    }),
    'login.failed': step(({ types }, event) => {
      expect(types).toEqual([]);
      expect(sut.snapshot().context.loginError).toBe(
        event.type === 'login.failed' ? event.message : undefined,
      );
    }),
    'logout.start': step(({ types }) => expect(types).toEqual(['requestLogout'])),
    'logout.done': step(({ types }) => expect(types).toEqual(['clearStorage', 'clearCache'])),
    'profile.loaded': step(({ before, types }) => {
      expect(types).toEqual(['persist']);
      const user = sut.stored().user!;
      expect(user.name).toBe(refreshedProfile.name);
      expect(user.last_client_id).toBe(refreshedProfile.last_client_id);
      expect(user.last_site_id).toBe(refreshedProfile.last_site_id);
      // Nothing else of the profile is taken (spec §4).
      expect(user.email).not.toBe(refreshedProfile.email);
      expect(user.user_role).not.toBe(refreshedProfile.user_role);
      expect(['restoring', 'signedIn']).toContain(before);
    }),
    'profile.failed': step(({ effects }, event) => {
      const shown = event.type === 'profile.failed' && event.online && !event.handled;
      expect(effects).toEqual(shown ? [toast(messages.somethingWentWrong)] : []);
      expect(sut.stored()).toEqual(storedEntries);
    }),
    'session.unauthorized': step(({ types }) => expect(types).toEqual(['clearStorage', 'toast', 'navigate'])),
    'session.forbidden': step(({ before, effects }) => {
      if (before === 'redirecting') {
        expect(effects).toEqual([]);
        return;
      }
      expect(effects).toEqual([toast(messages.notAuthorized), { type: 'navigate', params: { to: '/403' } }]);
    }),
    'redirect.done': step(({ types }) => expect(types).toEqual(['clearCache'])),
    'storage.changed': step(({ types }) => expect(types).toEqual(['reload'])),
    'selection.changed': step(({ effects }) => {
      expect(effects.map((effect) => effect.type)).toEqual(['persist', 'saveSelection']);
      expect(effects[1].params).toEqual({ clientId: 3, siteId: 30 });
      expect(sut.stored().user).toMatchObject({ last_client_id: 3, last_site_id: 30 });
    }),
    'locale.changed': step(({ effects }) => {
      expect(effects.map((effect) => effect.type)).toEqual(['persist', 'saveLocale']);
      expect(effects[1].params).toEqual({ locale: 'ar' });
      expect(sut.stored().user?.locale).toBe('ar');
    }),
  };
}

const starts: { name: string; input: StoredSession | null }[] = [
  { name: 'with nothing stored', input: null },
  { name: 'with a stored session', input: storedSession },
];

function pathName(path: { steps: { event: Event | { type: string } }[] }): string {
  return path.steps.map((step) => step.event.type).join(' → ');
}

describe.each(starts)('session model, starting $name', ({ input }) => {
  const shortest = model.getShortestPaths({ input, serializeState: byTransition });
  const simple = model.getSimplePaths({ input, serializeState: bySnapshot });

  it('reaches every state and takes every transition', () => {
    const reached = new Set(shortest.flatMap((path) => path.steps.map((step) => sessionStateOf(step.state))));
    // Without a stored session, restoring is left before anything can observe it.
    const expected = ['signedIn', 'signedOut', 'signingIn', 'signingOut', 'redirecting'];
    if (input) expected.push('restoring');
    expect([...reached].sort()).toEqual([...expected].sort());
    const events = new Set(shortest.flatMap((path) => path.steps.map((step) => step.event.type)));
    for (const type of [
      'login.submit',
      'login.succeeded',
      'login.failed',
      'logout.start',
      'logout.done',
      'session.unauthorized',
      'session.forbidden',
      'redirect.done',
      'storage.changed',
      'profile.loaded',
      'selection.changed',
      'locale.changed',
    ]) {
      expect(events).toContain(type);
    }
    if (input) expect(events).toContain('profile.failed');
  });

  describe('shortest paths', () => {
    it.each(shortest.map((path) => [pathName(path), path] as const))('%s', async (_name, path) => {
      const sut = startSession(input);
      await path.test({ states: stateChecks(sut), events: eventExecutors(sut) });
    });
  });

  describe('simple paths', () => {
    it.each(simple.map((path) => [pathName(path), path] as const))('%s', async (_name, path) => {
      const sut = startSession(input);
      await path.test({ states: stateChecks(sut), events: eventExecutors(sut) });
    });
  });
});
