import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './tests/longestFirst.ts';

/**
 * Test files that spend most of their time waiting on a database, broker or socket run side by
 * side: one more worker than cores (Vitest's default is one fewer, a single worker on two cores).
 * The browser tests run afterwards, one file at a time (two at a time measured no faster here).
 */
const NODE_WORKERS = availableParallelism() + 1;
/**
 * `isolate: false`: each worker imports the server's module graph once, not once per file (that
 * import was a third of the suite's CPU). Every file still opens its own database and servers.
 */
const nodeGroup = { maxWorkers: NODE_WORKERS, isolate: false, sequence: { groupOrder: 0 } };

const serverProject = (name: string, driver: 'pglite' | 'pg') => ({
  test: {
    name,
    include: ['tests/server/**/*.test.ts'],
    // The Mosquitto kill cases run on the embedded database only (ackDurability.test.ts has the
    // PostgreSQL server's); a file without tests would fail the project. The simulator's helmets
    // answer alarms the same on either database, and that file waits out real 8 s delays.
    exclude:
      driver === 'pg'
        ? ['tests/server/ackDurabilityMosquitto.test.ts', 'tests/server/simulatorAlarms.test.ts']
        : [],
    environment: 'node',
    globalSetup: ['tests/server/helpers/globalSetup.ts'],
    env: { SITEWATCH_TEST_DRIVER: driver },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    ...nodeGroup,
  },
});

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
          environment: 'node',
          ...nodeGroup,
        },
      },
      {
        test: {
          name: 'machines',
          include: ['tests/machines/**/*.test.ts'],
          environment: 'node',
          ...nodeGroup,
        },
      },
      serverProject('server', 'pglite'),
      // The same server suite again on a real PostgreSQL server when one is given.
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-pg', 'pg')] : []),
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/helpers/globalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          maxWorkers: 1,
          // As the node projects: the server's module graph and the migrated database dump once for
          // all browser files (about 10 s a file on the two-core CI machine), not once per file.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
