import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { SkipSummaryReporter } from './reporters/skip-summary.ts';

// Zone bugs hide under UTC: every test runs in a zone with DST and a non-zero offset.
process.env.TZ = 'Europe/Paris';
// The workers and every process a test starts (the app, the CLI, the MCP conformance suite) keep
// V8's compiled code between runs: loading the app took half the CPU with it (0.40 s against 0.83).
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'hcsm-slack-influencers-compile-cache');

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    env: { TZ: 'Europe/Paris' },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // After the default summary: the last line says how many tests were skipped and why.
    reporters: ['default', new SkipSummaryReporter()],
    // One process per worker runs file after file: loading Bolt, pino and the rest once per worker
    // instead of once per file halves the suite's CPU time. Module state is then shared between
    // files; a test that needs it fresh resets it (see forgetNewBlocksRefusal).
    isolate: false,
    // One more worker than these machines' two cores: much of the suite waits on sockets, child
    // processes and PostgreSQL, and a third worker fills those waits (65-68 s against 86 s with
    // two, measured side by side on a quiet machine).
    maxWorkers: 3,
  },
});
