import type { BrowserOptions } from '@sentry/react';

type Sentry = typeof import('./sentry');

/** Spec §9: the share of page loads whose performance traces are sent. */
export const TRACES_SAMPLE_RATE = 0.3;

/** Errors kept while Sentry downloads; past this many, later ones are dropped. */
export const MAX_WAITING_ERRORS = 50;

/** Sentry's options: on only when a DSN is given at build time (none by default). */
export function errorReportingOptions(dsn: string | undefined): BrowserOptions {
  return { dsn: dsn || undefined, enabled: Boolean(dsn), tracesSampleRate: TRACES_SAMPLE_RATE };
}

/** Where an error was caught: React's handlers give a component stack, the window does not. */
export type ErrorOrigin =
  | { kind: 'boundary'; componentStack?: string }
  | { kind: 'uncaught'; componentStack?: string }
  | { kind: 'window' };

export interface ErrorReporter {
  /** Sends the error to Sentry now, or once Sentry has loaded; nothing when no DSN is set. */
  report(error: unknown, origin: ErrorOrigin): void;
  /** Downloads and starts Sentry, then sends what was reported while it loaded. */
  start(): Promise<void>;
}

export interface ErrorReporterOptions {
  dsn: string | undefined;
  /** Defaults to the dynamic import of ./sentry (a chunk of its own). */
  loadSentry?: () => Promise<Sentry>;
  /** Where uncaught errors and rejections are heard until Sentry listens itself; the window by default. */
  events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
}

function send(sentry: Sentry, error: unknown, origin: ErrorOrigin): void {
  if (origin.kind === 'window') {
    sentry.captureException(error, { mechanism: { handled: false, type: 'auto.browser.global_handlers' } });
    return;
  }
  const mechanism = { handled: origin.kind === 'boundary', type: `auto.function.react.${origin.kind}` };
  sentry.captureReactException(error, { componentStack: origin.componentStack }, { mechanism });
}

/**
 * Error reporting without Sentry on the login route's critical path (issue 15): @sentry/react is
 * imported when `start` is called (after the first render), and errors caught before that, by
 * React or by the window, wait in a queue and are sent once it has started. Without a DSN, Sentry
 * is never downloaded and nothing is kept.
 */
export function createErrorReporter({
  dsn,
  loadSentry = () => import('./sentry'),
  events = globalThis,
}: ErrorReporterOptions): ErrorReporter {
  const enabled = errorReportingOptions(dsn).enabled;
  const waiting: { error: unknown; origin: ErrorOrigin }[] = [];
  let sentry: Sentry | null = null;

  const report = (error: unknown, origin: ErrorOrigin) => {
    if (!enabled) return;
    if (sentry) send(sentry, error, origin);
    else if (waiting.length < MAX_WAITING_ERRORS) waiting.push({ error, origin });
  };
  const onError = (event: Event) =>
    report((event as ErrorEvent).error ?? (event as ErrorEvent).message, { kind: 'window' });
  const onRejection = (event: Event) => report((event as PromiseRejectionEvent).reason, { kind: 'window' });
  if (enabled) {
    events.addEventListener('error', onError);
    events.addEventListener('unhandledrejection', onRejection);
  }

  return {
    report,
    async start() {
      if (!enabled || sentry) return;
      const loaded = await loadSentry();
      loaded.init({ ...errorReportingOptions(dsn), integrations: [loaded.browserTracingIntegration()] });
      // From here on Sentry's own global handlers hear the window.
      events.removeEventListener('error', onError);
      events.removeEventListener('unhandledrejection', onRejection);
      sentry = loaded;
      for (const { error, origin } of waiting.splice(0)) send(loaded, error, origin);
    },
  };
}
