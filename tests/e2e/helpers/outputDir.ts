/**
 * Where the browser tests build the console and the canvas harness. Two runs on one checkout at
 * once (say, two working copies of a change) each set E2E_OUTPUT_DIR so neither replaces the
 * other's build mid-run.
 */
export const E2E_OUTPUT_DIR = process.env.E2E_OUTPUT_DIR ?? 'test-output';

/** The console as built for the browser tests. */
export const CONSOLE_DIR = `${E2E_OUTPUT_DIR}/console`;
