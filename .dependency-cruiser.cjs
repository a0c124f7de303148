/**
 * The layering of src/, checked by `npm run layers` (in `npm run check` and CI). Imports run one
 * way: surfaces (slack, mcp, console, cli) -> flows -> parsing and render -> digests and analytics ->
 * requests -> store -> model, time, async, config, errors, logger; http, the plain HTTP both Slack
 * and MCP use, sits just above config. Type-only imports count too, except where a rule says so.
 */

/** Bottom to top: a folder may import its own files and the folders before it, never after. */
const layers = [
  'model',
  'errors.ts',
  'logger.ts',
  'time',
  'async',
  'config',
  // Plain HTTP below both surfaces: Slack's signature, body limits, refusals, the server.
  'http',
  'sandbox',
  // The database: its dialects, migrations and one repository per concern.
  'store',
  'requests',
  'analytics',
  'digests',
  'parsing',
  'render',
  'flows',
  // Builds the analytics client, the lookup flow, the database and the jobs once for every surface.
  'core',
  'slack',
  // Reads Slack's signature through http/, as slack/ does, then serves flows/ to MCP clients.
  'mcp',
  'console',
  'cli',
];

const escape = (name) => name.replace(/\./g, '\\.');
const at = (name) => (name.endsWith('.ts') ? `^src/${escape(name)}$` : `^src/${name}/`);
const anyOf = (names) => `^src/(${names.map((n) => (n.endsWith('.ts') ? `${escape(n)}$` : `${n}/`)).join('|')})`;

/** Rule 7: one rule per layer, naming the folders above it. */
const layerRules = layers.slice(0, -1).map((name, i) => ({
  name: `layer-${name.replace('.ts', '')}`,
  comment: `${name} is below ${layers.slice(i + 1).join(', ')}: importing them would run the layering backwards (and make a cycle between folders possible).`,
  severity: 'error',
  from: { path: at(name) },
  to: { path: anyOf(layers.slice(i + 1)) },
}));

/**
 * render/'s folders by what they render, bottom to top, above what every renderer uses (its own
 * top-level files): a digest post frames a lookup's answer, a conference reuses both, a canvas
 * reports a digest or a conference, and management lists them all.
 */
const renderFolders = ['lookups', 'digests', 'conferences', 'canvases', 'management'];

/** Rule 8: inside render/, imports run from the folders down to the shared files. */
const renderRules = [
  {
    name: 'render-shared-below-its-folders',
    comment: "render/'s top-level files are what every renderer uses: they import none of its folders.",
    severity: 'error',
    from: { path: '^src/render/[^/]+\\.ts$' },
    to: { path: '^src/render/[^/]+/' },
  },
  ...renderFolders.slice(0, -1).map((name, i) => ({
    name: `render-${name}`,
    comment: `render/${name} is below render/${renderFolders.slice(i + 1).join(', render/')}.`,
    severity: 'error',
    from: { path: `^src/render/${name}/` },
    to: { path: `^src/render/(${renderFolders.slice(i + 1).join('|')})/` },
  })),
];

module.exports = {
  forbidden: [
    {
      name: 'bolt-only-in-slack',
      comment: 'Rule 1: only slack/ and the composition root app.ts talk to Bolt or the Web API client.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(slack/|app\\.ts$)' },
      to: { path: '^node_modules/@slack/(bolt|web-api)/' },
    },
    {
      name: 'engine-free-of-surfaces',
      comment: 'Rule 2: the digest engine receives its words and its Slack posting through interfaces.',
      severity: 'error',
      from: { path: '^src/digests/' },
      to: { path: anyOf(['slack', 'render', 'parsing', 'flows', 'console', 'cli']) },
    },
    {
      name: 'engine-never-owns-tables',
      comment:
        'Rule 2: the digest engine works through the repositories of store/ (their interfaces and openDatabase), never a driver or the SQL behind them.',
      severity: 'error',
      from: { path: '^src/digests/' },
      to: { path: ['(^|/)node_modules/pg/', '^node:sqlite$', '^src/store/sql/'] },
    },
    {
      name: 'sql-only-in-store',
      comment:
        'Rule 2: only store/ talks to a database driver or its own SQL; everything else takes a repository, or opens the database with openDatabase.',
      severity: 'error',
      // digests/ has its own rule, above.
      from: { path: '^src/', pathNot: '^src/(store|digests)/' },
      to: { path: ['(^|/)node_modules/pg/', '^node:sqlite$', '^src/store/sql/'] },
    },
    {
      name: 'analytics-alone',
      comment: 'Rule 3: the analytics client knows no other feature folder.',
      severity: 'error',
      from: { path: '^src/analytics/' },
      to: {
        path: anyOf([
          'slack',
          'render',
          'parsing',
          'flows',
          'console',
          'cli',
          'digests',
          'sandbox',
          'store',
        ]),
      },
    },
    {
      name: 'parsing-pure',
      comment: 'Rule 4: the parser turns text into requests and knows no surface, words or service.',
      severity: 'error',
      from: { path: '^src/parsing/' },
      to: { path: anyOf(['slack', 'render', 'analytics', 'flows']) },
    },
    {
      name: 'parsing-not-engine',
      comment:
        'Rule 4: the grammar reads schedules with the schedule math in time/, never with the digest engine it configures.',
      severity: 'error',
      from: { path: '^src/parsing/' },
      to: { path: '^src/digests/' },
    },
    {
      name: 'render-no-runtime-from-above-or-beside',
      comment: 'Rule 5: the renderer takes data; it may name their types but calls none of this code.',
      severity: 'error',
      from: { path: '^src/render/' },
      to: {
        path: anyOf(['slack', 'parsing', 'digests', 'flows']),
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'surfaces-through-flows',
      comment: 'Rule 6: the console and the CLI use the core and flows/, never the Slack layer or the MCP server.',
      severity: 'error',
      from: { path: anyOf(['console', 'cli']) },
      to: { path: anyOf(['slack', 'mcp']) },
    },
    {
      name: 'mcp-not-slack',
      comment: 'MCP shares plain HTTP with Slack through http/, never through the Slack layer.',
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/slack/' },
    },
    {
      name: 'config-and-sandbox-alone',
      comment: 'Rule 6: config/ and sandbox/ import no feature folder.',
      severity: 'error',
      from: { path: '^src/(config|sandbox)/' },
      to: {
        path: anyOf([
          'slack',
          'render',
          'parsing',
          'flows',
          'console',
          'cli',
          'digests',
          'analytics',
          'sandbox',
          'config',
          'store',
        ]),
        pathNot: '^src/$1/',
      },
    },
    ...layerRules,
    ...renderRules,
    {
      name: 'no-circular',
      comment: 'Rule 7: no cycle between files, type imports included.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-test',
      comment: 'Runtime code never imports the tests.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    parser: 'swc',
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
