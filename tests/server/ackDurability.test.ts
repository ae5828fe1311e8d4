import { describe, it } from 'vitest';
import {
  CASE_TIMEOUT_MS,
  expectAcknowledgedStoredOnce,
  report,
  SERVER_KILLS,
} from './helpers/ackDurabilityChecks';
import { runDurabilityScenario } from './helpers/durabilityScenario';

/**
 * DESIGN §1/§5: a device that received PUBACK never loses that position, across a kill -9 of the
 * server (embedded broker here; Mosquitto in ackDurabilityMosquitto.test.ts, so the two run side
 * by side) and of PostgreSQL, and nothing is stored twice. Each case runs the real server process
 * (server/main.ts) and kills it at random instants while device clients publish.
 */
const onPostgresServer = process.env.SITEWATCH_TEST_DRIVER === 'pg';

// The server-pg project runs the embedded-broker loop on the machine's PostgreSQL server; the
// PGlite project runs the embedded database and the PostgreSQL kills.
if (!onPostgresServer) {
  describe('acknowledged means stored, across kill -9', () => {
    it(
      `embedded broker: ${SERVER_KILLS} server kills lose no acknowledged position`,
      async () => {
        const result = await runDurabilityScenario({
          broker: 'embedded',
          database: 'embedded',
          serverKills: SERVER_KILLS,
        });
        report('embedded broker', result);
        expectAcknowledgedStoredOnce(result);
      },
      CASE_TIMEOUT_MS,
    );

    it(
      'PostgreSQL server killed under the running server: it survives and loses no acknowledged position',
      async () => {
        const result = await runDurabilityScenario({
          broker: 'embedded',
          database: 'scratch-postgres',
          databaseKills: 4,
          serverKills: 2,
          up: [1000, 3000],
        });
        report('PostgreSQL kills', result);
        expectAcknowledgedStoredOnce(result);
      },
      CASE_TIMEOUT_MS,
    );
  });
}

if (onPostgresServer && process.env.TEST_DATABASE_URL) {
  describe('acknowledged means stored, across kill -9, on a PostgreSQL server', () => {
    it(
      `embedded broker: ${SERVER_KILLS} server kills lose no acknowledged position`,
      async () => {
        const pg = (await import('pg')).default;
        const adminUrl = process.env.TEST_DATABASE_URL!;
        const name = `sitewatch_ack_${process.pid}`;
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${name}`);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        try {
          const result = await runDurabilityScenario({
            broker: 'embedded',
            database: { url: url.toString() },
            serverKills: SERVER_KILLS,
          });
          report('embedded broker on PostgreSQL', result);
          expectAcknowledgedStoredOnce(result);
        } finally {
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.end();
        }
      },
      CASE_TIMEOUT_MS,
    );
  });
}
