// The import rules of STYLE.md ("dependencies point one way") as a check that fails the suite:
// `npm run check:imports`, and the 'imports' step of `npm test`.
//
// View folders are either FEATURES (one screen area each) or SHARED (building blocks any feature
// may use). A feature imports itself and shared folders only; a shared folder imports no feature.
// src/views/routing and src/views/App.tsx are the composition root: they put features together,
// and routing/screens.ts loads each screen lazily with `import()`, which is an import like any
// other here, so the root is simply left out of the view rules.
// tests/, bench/ and scripts/ may import anything, but nothing in src/ or server/ imports them.

const VIEW_FEATURES =
  'analytics|attendance|auth|configuration|dashboard|maps|nodes|productivity|safety|workers|workforce|users';
const VIEW_SHARED = 'shared|canvas|forms|lists|screens|session|shell';
/** Files of the project itself (not packages); the rules below only talk about these. */
const PROJECT = '^(src|server|tests|bench|scripts)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-only-domain',
      comment:
        'src/domain is the shared kernel: every business rule once, used by the server, the machines ' +
        'and the views. It imports nothing of the project outside itself.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: PROJECT, pathNot: '^src/domain/' },
    },
    {
      name: 'api-imports-only-domain',
      comment: 'src/api (fetchers, query options, the API client) builds on src/domain and nothing else.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: PROJECT, pathNot: '^src/(api|domain)/' },
    },
    {
      name: 'streams-import-only-domain-and-api',
      comment: 'src/streams parse and shape live data: they build on src/domain and src/api only.',
      severity: 'error',
      from: { path: '^src/streams/' },
      to: { path: PROJECT, pathNot: '^src/(streams|domain|api)/' },
    },
    {
      name: 'machines-import-only-domain',
      comment:
        'src/machines are pure state charts that get their I/O through .provide: they import src/domain ' +
        'only (event and payload types from streams are reached through the schemas in src/domain).',
      severity: 'error',
      from: { path: '^src/machines/' },
      to: { path: PROJECT, pathNot: '^src/(machines|domain)/' },
    },
    {
      name: 'view-feature-imports-no-other-feature',
      comment:
        `A view feature (${VIEW_FEATURES}) does not import another feature; code two features need ` +
        `moves to a shared folder (${VIEW_SHARED}).`,
      severity: 'error',
      from: { path: `^src/views/(${VIEW_FEATURES})/` },
      to: { path: `^src/views/(${VIEW_FEATURES})/`, pathNot: '^src/views/$1/' },
    },
    {
      name: 'views-import-no-composition-root',
      comment:
        'Feature and shared view folders do not import the composition root (src/views/routing, ' +
        'src/views/App.tsx): the root imports them, never the other way round.',
      severity: 'error',
      from: { path: `^src/views/(${VIEW_FEATURES}|${VIEW_SHARED})/` },
      to: { path: '^src/views/(routing/|App[.]tsx$)' },
    },
    {
      name: 'view-shared-imports-no-feature',
      comment: `A shared view folder (${VIEW_SHARED}) is used by features and imports none of them.`,
      severity: 'error',
      from: {
        path: `^src/views/(${VIEW_SHARED})/|^src/views/[^/]+[.]tsx?$`,
        pathNot: '^src/views/App[.]tsx$',
      },
      to: { path: `^src/views/(${VIEW_FEATURES})/` },
    },
    {
      name: 'server-imports-only-domain-from-src',
      comment: 'The server shares rules and schemas with the console through src/domain only.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'src-imports-no-server',
      comment: 'The console never imports server code: what both need lives in src/domain.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'product-imports-no-tests-bench-scripts',
      comment: 'tests/, bench/ and scripts/ use the product; the product never imports them.',
      severity: 'error',
      from: { path: '^(src|server)/' },
      to: { path: '^(tests|bench|scripts)/' },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycles (type-only imports included): a cycle means two modules are one concept ' +
        'split in two, or a layer points the wrong way.',
      severity: 'error',
      from: { path: PROJECT },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|data|test-output)/' },
    // Type-only imports count: a machine may not reach a streams type either.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
