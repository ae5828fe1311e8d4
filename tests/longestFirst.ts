import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take the longest on two cores (measured in a clean clone: the kill test alone
 * was about 7 minutes before it was split in two), started first within their group. Vitest orders files by the durations it
 * cached in earlier runs and, in a fresh checkout without that cache, by file size, which started
 * the kill test after five minutes of other files and made it the suite's tail.
 */
const LONGEST = [
  'tests/server/ackDurability.test.ts',
  'tests/server/ackDurabilityMosquitto.test.ts',
  'tests/server/startup.test.ts',
  'tests/server/schemaFuzz.test.ts',
  'tests/server/liveRestart.test.ts',
  'tests/server/evacuationRestart.test.ts',
  'tests/server/authorizationMatrix.test.ts',
  'tests/server/evacuationDrill.test.ts',
  // The browser files, after the node files.
  'tests/e2e/roles.test.ts',
  'tests/e2e/shell.test.ts',
  'tests/e2e/workforce.test.ts',
  'tests/e2e/safety.test.ts',
  'tests/e2e/playback.test.ts',
  'tests/e2e/analytics.test.ts',
];

const rank = (spec: TestSpecification) => {
  const at = LONGEST.findIndex((path) => spec.moduleId.endsWith(path));
  return at === -1 ? LONGEST.length : at;
};

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    // Array.prototype.sort is stable: files of equal rank keep Vitest's order.
    return sorted.sort((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}
