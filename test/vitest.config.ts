import { defineConfig } from 'vitest/config';
import { SkipSummaryReporter } from './reporters/skip-summary.ts';

// Zone bugs hide under UTC: every test runs in a zone with DST and a non-zero offset.
process.env.TZ = 'Europe/Paris';

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
  },
});
