#!/usr/bin/env node
// The whole suite: type-check, lint, import check, then every Vitest project (unit, machines, server on
// PGlite and, with TEST_DATABASE_URL, on PostgreSQL, and the Chromium browser tests).
// Type-check, lint and the import check count as one test each. The last line is "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';

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

/**
 * The browser files run beside the node files, in a Vitest of their own: one browser file at a
 * time uses about 0.6 of a core, and after the node files they took a third of the suite's time
 * with the other core and a half idle. Their output is printed once the node files' is done.
 * With arguments (a file, a project), one Vitest runs them as given.
 */
function vitest(reportFile, args, output) {
  const command = [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportFile}`,
    ...args,
  ];
  console.log(`\n== tests: npx ${command.join(' ')}`);
  const child = spawn('npx', command, { stdio: output ? ['ignore', output, output] : 'inherit' });
  return new Promise((resolve) => child.on('close', resolve));
}

const extraArgs = process.argv.slice(2);
const reports = [reportPath];
if (extraArgs.length > 0) {
  await vitest(reportPath, extraArgs);
} else {
  const browserReport = 'test-output/vitest-browser.json';
  const browserLog = 'test-output/vitest-browser.log';
  rmSync(browserReport, { force: true });
  reports.push(browserReport);
  const logFile = openSync(browserLog, 'w');
  const browser = vitest(browserReport, ['--project', 'e2e'], logFile);
  await vitest(reportPath, ['--project', '!e2e']);
  await browser;
  closeSync(logFile);
  console.log(`\n== the browser files' output (${browserLog}):`);
  console.log(readFileSync(browserLog, 'utf8'));
}

let skipped = 0;
for (const path of reports) {
  if (!existsSync(path)) {
    console.log(`the test run wrote no report ${path}`);
    failed++;
    continue;
  }
  const report = JSON.parse(readFileSync(path, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A file that fails to load, or whose beforeAll fails (its tests then show as skipped), has no
  // failed test in the counts; count the file as a failure.
  for (const file of report.testResults) {
    if (file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed')) failed++;
  }
  skipped += report.numPendingTests + report.numTodoTests;
}
if (skipped > 0) console.log(`${skipped} tests skipped`);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
