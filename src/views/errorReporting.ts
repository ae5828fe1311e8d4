import type { BrowserOptions } from '@sentry/react';

/** Spec §9: the share of page loads whose performance traces are sent. */
export const TRACES_SAMPLE_RATE = 0.3;

/** Sentry's options: on only when a DSN is given at build time (none by default). */
export function errorReportingOptions(dsn: string | undefined): BrowserOptions {
  return { dsn: dsn || undefined, enabled: Boolean(dsn), tracesSampleRate: TRACES_SAMPLE_RATE };
}
