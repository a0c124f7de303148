/**
 * The layering of src/, checked by `npm run layers` (in `npm run check` and CI). Imports run one
 * way: surfaces (slack, mcp, console, cli) -> flows -> parsing and render -> digests and analytics ->
 * model, time, async, config, errors, logger. Type-only imports count too, except where a rule says so.
 */

/** Bottom to top: a folder may import its own files and the folders before it, never after. */
const layers = [
  'model',
  'errors.ts',
  'logger.ts',
  'time',
  'async',
  'config',
  'sandbox',
  'requests',
  'analytics',
  'digests',
  'parsing',
  'render',
  'flows',
  'slack',
  // Reads Slack's signature as slack/http does, then serves flows/ to MCP clients.
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
      name: 'analytics-alone',
      comment: 'Rule 3: the analytics client knows no other feature folder.',
      severity: 'error',
      from: { path: '^src/analytics/' },
      to: {
        path: anyOf(['slack', 'render', 'parsing', 'flows', 'console', 'cli', 'digests', 'sandbox']),
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
      comment: 'Rule 6: the console and the CLI use flows/, never the Slack layer or the MCP server.',
      severity: 'error',
      from: { path: anyOf(['console', 'cli']) },
      to: { path: anyOf(['slack', 'mcp']) },
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
        ]),
        pathNot: '^src/$1/',
      },
    },
    ...layerRules,
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
