import { describe, expect, it } from 'vitest';
import {
  allTestsCommand,
  knownSkipReasons,
  type SkippedTest,
  skipSummary,
} from './skip-summary.ts';

const postgres: SkippedTest = {
  file: 'test/store/database.test.ts',
  fullName: 'PostgreSQL adapter > opens',
};
const schema: SkippedTest = {
  file: 'test/manifest/manifest.test.ts',
  fullName: 'manifest.yml > validates against the Slack app manifest schema',
};
const own: SkippedTest = {
  file: 'test/console/console.test.ts',
  fullName: 'console > starts without a .env and says nothing about it',
};

describe('skipSummary', () => {
  const withoutDatabase = knownSkipReasons({});

  it('says that every test ran when none was skipped', () => {
    expect(skipSummary(1234, [], withoutDatabase)).toBe('All 1234 tests ran: none skipped.');
  });

  it('says how many PostgreSQL tests were skipped, why, and how to run them all', () => {
    expect(skipSummary(900, [postgres, postgres, postgres], withoutDatabase)).toBe(
      `3 tests skipped because PostgreSQL tests need TEST_DATABASE_URL (${allTestsCommand} runs them all).`,
    );
  });

  it('counts each reason apart, and names the first test no reason explains', () => {
    expect(skipSummary(900, [postgres, schema, own, postgres], withoutDatabase)).toBe(
      '4 tests skipped: 2 because PostgreSQL tests need TEST_DATABASE_URL ' +
        `(${allTestsCommand} runs them all); ` +
        '1 because no reference manifest schema at ../shared/slack to compare the vendored copy with; ' +
        '1 because of their own condition or a filter ' +
        '(first: test/console/console.test.ts > console > starts without a .env and says nothing about it).',
    );
  });

  it('does not blame TEST_DATABASE_URL for a PostgreSQL test skipped while it is set', () => {
    const withDatabase = knownSkipReasons({ TEST_DATABASE_URL: 'postgres://127.0.0.1/test' });
    expect(skipSummary(10, [postgres], withDatabase)).toBe(
      '1 test skipped because of their own condition or a filter ' +
        '(first: test/store/database.test.ts > PostgreSQL adapter > opens).',
    );
  });
});
