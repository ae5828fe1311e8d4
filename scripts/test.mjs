#!/usr/bin/env node
// The whole suite: type-check, lint, import check, then every Vitest project (unit, machines, server on
// PGlite and, with TEST_DATABASE_URL, on PostgreSQL, and the Chromium browser tests).
// Type-check, lint and the import check count as one test each. The last line is "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const reportPath = 'test-output/vitest.json';
mkdirSync('test-output', { recursive: true });
rmSync(reportPath, { force: true });

let passed = 0;
let failed = 0;

function step(name, command, args) {
  console.log(`\n== ${name}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  return result.status === 0;
}

for (const [name, command, args] of [
  ['type-check', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['lint', 'npx', ['biome', 'check', '.']],
  // The import rules of STYLE.md, written in .dependency-cruiser.cjs.
  ['imports', 'npm', ['run', '--silent', 'check:imports']],
]) {
  if (step(name, command, args)) passed++;
  else {
    failed++;
    console.log(`${name} failed`);
  }
}

step('tests', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${reportPath}`,
  ...process.argv.slice(2),
]);

if (existsSync(reportPath)) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A file that fails to load, or whose beforeAll fails (its tests then show as skipped), has no
  // failed test in the counts; count the file as a failure.
  for (const file of report.testResults) {
    if (file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed')) failed++;
  }
  if (report.numPendingTests + report.numTodoTests > 0) {
    console.log(`${report.numPendingTests + report.numTodoTests} tests skipped`);
  }
} else {
  console.log('the test run wrote no report');
  failed++;
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
