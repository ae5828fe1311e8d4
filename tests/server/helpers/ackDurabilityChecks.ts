import { expect } from 'vitest';
import type { DurabilityResult } from './durabilityScenario';

/**
 * What every kill -9 case of ackDurability*.test.ts checks, and how many kills it makes. Per
 * broker and database: four kills at random instants, each restarting the real server (~20 s
 * on a loaded 2-core machine, which the suite's time cannot afford more of); bench/killLoop.bench.ts
 * kills 100 times, and ACK_KILL_CYCLES asks for more here.
 */
export const SERVER_KILLS = Number(process.env.ACK_KILL_CYCLES ?? 4);
export const CASE_TIMEOUT_MS = 420_000;

export function report(name: string, result: DurabilityResult): void {
  const { serverOutput: _output, ...figures } = result;
  console.log(`${name}: ${JSON.stringify(figures)}`);
}

export function expectAcknowledgedStoredOnce(result: DurabilityResult): void {
  const context = `lost e.g. ${result.lostExamples.join(', ')}\n${result.serverOutput.slice(-3000)}`;
  // Something was acknowledged on every side of the kills.
  expect(result.acknowledged).toBeGreaterThan(result.cycles * 10);
  expect(result.lost, context).toBe(0);
  expect(result.storedTwice).toBe(0);
  // Whatever was stored beyond the acknowledged ones was sent but never acknowledged.
  expect(result.stored).toBeGreaterThanOrEqual(result.acknowledged);
  expect(result.stored).toBeLessThanOrEqual(result.published);
}
