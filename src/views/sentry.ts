/**
 * The parts of Sentry the console uses, in one module that src/views/errorReporting.ts imports
 * dynamically: the chunk then holds only these (a dynamic import of @sentry/react itself would keep
 * the whole package).
 */
export { browserTracingIntegration, captureException, captureReactException, init } from '@sentry/react';
