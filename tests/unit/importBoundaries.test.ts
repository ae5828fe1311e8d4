import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The import check (`npm run check:imports`, .dependency-cruiser.cjs) run on a tiny project
 * written into a temporary folder: each forbidden import is reported under its rule's name, and
 * the imports the rules allow are not.
 */
const projectRoot = resolve(import.meta.dirname, '../..');
const depcruise = join(projectRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** path → source; every file exports something so it is a module. */
const tree: Record<string, string> = {
  // Forbidden, one per rule.
  'src/domain/rule.ts': `import { client } from '../api/client';\nexport const rule = client;`,
  'src/api/client.ts': `import { feed } from '../streams/feed';\nexport const client = feed;`,
  'src/streams/feed.ts': `import { flow } from '../machines/flow';\nexport const feed = flow;`,
  'src/streams/feedEvent.ts': 'export type FeedEvent = { type: string };',
  'src/machines/flow.ts': `import type { FeedEvent } from '../streams/feedEvent';\nexport const flow: FeedEvent[] = [];`,
  'src/views/maps/MapsScreen.tsx': `import { WorkersScreen } from '../workers/WorkersScreen';\nexport const MapsScreen = WorkersScreen;`,
  'src/views/workers/WorkersScreen.tsx': `import { whenOnline } from '../routing/whenOnline';\nexport const WorkersScreen = whenOnline;`,
  'src/views/routing/whenOnline.ts': 'export const whenOnline = () => true;',
  'src/views/shell/SideMenu.tsx': `import { MapsScreen } from '../maps/MapsScreen';\nimport { port } from '../../../server/config';\nexport const SideMenu = [MapsScreen, port];`,
  'server/app.ts': `import { client } from '../src/api/client';\nexport const app = client;`,
  'server/config.ts': `import { fakeClock } from '../tests/helpers/fakeClock';\nexport const port = fakeClock;`,
  'src/domain/cycleA.ts': `import { b } from './cycleB';\nexport const a = () => b;`,
  'src/domain/cycleB.ts': `import { a } from './cycleA';\nexport const b = () => a;`,
  // Allowed: the composition root imports features lazily, a feature imports a shared folder,
  // the server imports src/domain, tests import anything.
  'src/views/routing/lazyScreen.ts': `export const lazyScreen = () => import('../maps/MapsScreen');`,
  'src/views/nodes/NodesScreen.tsx': `import { SideMenu } from '../shell/SideMenu';\nimport { notify } from '../notify';\nexport const NodesScreen = [SideMenu, notify];`,
  'src/views/notify.ts': `export const notify = () => undefined;`,
  'server/routes.ts': `import { rule } from '../src/domain/rule';\nexport const routes = rule;`,
  'tests/helpers/fakeClock.ts': `import { routes } from '../../server/routes';\nexport const fakeClock = routes;`,
  'tests/app.test.ts': `import { app } from '../server/app';\nimport { NodesScreen } from '../src/views/nodes/NodesScreen';\nexport const checked = [app, NodesScreen];`,
};

const expectedViolations = [
  'domain-imports-only-domain: src/domain/rule.ts → src/api/client.ts',
  'api-imports-only-domain: src/api/client.ts → src/streams/feed.ts',
  'streams-import-only-domain-and-api: src/streams/feed.ts → src/machines/flow.ts',
  'machines-import-only-domain: src/machines/flow.ts → src/streams/feedEvent.ts',
  'view-feature-imports-no-other-feature: src/views/maps/MapsScreen.tsx → src/views/workers/WorkersScreen.tsx',
  'views-import-no-composition-root: src/views/workers/WorkersScreen.tsx → src/views/routing/whenOnline.ts',
  'view-shared-imports-no-feature: src/views/shell/SideMenu.tsx → src/views/maps/MapsScreen.tsx',
  'src-imports-no-server: src/views/shell/SideMenu.tsx → server/config.ts',
  'server-imports-only-domain-from-src: server/app.ts → src/api/client.ts',
  'product-imports-no-tests-bench-scripts: server/config.ts → tests/helpers/fakeClock.ts',
  'no-circular: src/domain/cycleA.ts → src/domain/cycleB.ts',
];

/** `  error <rule>: <from> → <to>` (a cycle goes on over more lines; its first step is kept). */
const violationLine = /^ {2}error ([\w-]+): (\S+) →\s+(\S+)/gm;

let workDir: string;
let reported: string[];

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'import-boundaries-'));
  for (const [path, source] of Object.entries(tree)) {
    mkdirSync(dirname(join(workDir, path)), { recursive: true });
    writeFileSync(join(workDir, path), `${source}\n`);
  }
  writeFileSync(
    join(workDir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx' } }),
  );
  const run = spawnSync(
    process.execPath,
    [depcruise, 'src', 'server', 'tests', '--config', join(projectRoot, '.dependency-cruiser.cjs')],
    { cwd: workDir, encoding: 'utf8' },
  );
  // The exit status is the number of violations, so `npm test` counts the step as failed.
  expect(run.status, run.stderr).toBe(expectedViolations.length);
  reported = [...run.stdout.matchAll(violationLine)].map(([, rule, from, to]) => `${rule}: ${from} → ${to}`);
}, 30_000);

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('the import check', () => {
  it.each(expectedViolations)('reports %s', (violation) => {
    expect(reported).toContain(violation);
  });

  it('reports nothing the rules allow', () => {
    expect([...reported].sort()).toEqual([...expectedViolations].sort());
  });
});
