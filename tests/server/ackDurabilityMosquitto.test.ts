import { describe, it } from 'vitest';
import {
  CASE_TIMEOUT_MS,
  expectAcknowledgedStoredOnce,
  report,
  SERVER_KILLS,
} from './helpers/ackDurabilityChecks';
import { runDurabilityScenario } from './helpers/durabilityScenario';

/**
 * ackDurability.test.ts's promise with Mosquitto as the broker: a device that received PUBACK never
 * loses that position across kill -9 of the server, and nothing is stored twice. A file of its
 * own so it runs beside the embedded-broker cases instead of after them.
 */
if (process.env.SITEWATCH_TEST_DRIVER !== 'pg') {
  describe('acknowledged means stored, across kill -9, with Mosquitto', () => {
    it(
      `Mosquitto: ${SERVER_KILLS} server kills lose no acknowledged position`,
      async () => {
        const result = await runDurabilityScenario({
          broker: 'mosquitto',
          database: 'embedded',
          serverKills: SERVER_KILLS,
        });
        report('Mosquitto', result);
        expectAcknowledgedStoredOnce(result);
      },
      CASE_TIMEOUT_MS,
    );
  });
}
