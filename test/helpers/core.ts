/**
 * The core as tests build it: the one builder every surface calls (`buildCore`), with the sandbox
 * or a fake analytics service, an in-memory database and outlets that record what they post. A test
 * that needs the lookup flow, the digest rules or the jobs takes them from here instead of wiring
 * them by hand.
 */
import { AnalyticsClient } from '../../src/analytics/client.ts';
import type { AnalyticsApi } from '../../src/analytics/types.ts';
import {
  configDefaults,
  type DigestPolicy,
  defaultLookupPolicy,
  type LookupPolicy,
} from '../../src/config/sections.ts';
import { buildCore, type Core, type CoreParts } from '../../src/core/core.ts';
import { type Outlet, sameOutletForEveryTeam } from '../../src/digests/outlets.ts';
import { type Logger, silentLogger } from '../../src/logger.ts';
import { defined } from '../../src/model/defined.ts';
import { demoClient } from '../../src/sandbox/server.ts';
import type { Database } from '../../src/store/database.ts';
import { FakePoster } from '../digests/helpers.ts';

export interface TestCoreOptions {
  /** The analytics service; else a client of `sandboxUrl`'s demo account. */
  readonly analytics?: AnalyticsApi & { close?(): Promise<void> };
  /** A running sandbox, when `analytics` is not given. */
  readonly sandboxUrl?: string;
  /** A database already open; else an in-memory SQLite one, opened by `core.open()`. */
  readonly database?: Database;
  /** Where the jobs post in every workspace; else a {@link FakePoster} that records. */
  readonly outlet?: Partial<Outlet>;
  readonly lookup?: Partial<LookupPolicy>;
  readonly digests?: Partial<DigestPolicy>;
  readonly logger?: Logger;
  readonly now?: () => Date;
  readonly clock?: CoreParts['clock'];
  readonly runnerOptions?: CoreParts['runnerOptions'];
  readonly conferenceOptions?: CoreParts['conferenceOptions'];
}

/** No timer in tests: they run the jobs' ticks themselves. */
const testDigestPolicy: DigestPolicy = {
  timerEnabled: false,
  tickMs: configDefaults.digestTickMs,
  graceMs: configDefaults.digestGraceMs,
  maxConsecutiveFailures: configDefaults.digestMaxFailures,
};

/** Builds the core for a test; call `open()` before using its digests, `close()` after. */
export function testCore(options: TestCoreOptions = {}): Core {
  if (options.analytics === undefined && options.sandboxUrl === undefined) {
    throw new Error('testCore needs an analytics service or a sandbox URL');
  }
  const analytics =
    options.analytics ??
    new AnalyticsClient({
      baseUrl: options.sandboxUrl ?? '',
      clientId: demoClient.id,
      clientSecret: demoClient.secret,
    });
  return buildCore(
    {
      analytics: {
        baseUrl: options.sandboxUrl ?? 'http://127.0.0.1:1',
        clientId: demoClient.id,
        clientSecret: demoClient.secret,
      },
      lookup: { ...defaultLookupPolicy, ...options.lookup },
      storage: { sqlitePath: ':memory:' },
      digests: { ...testDigestPolicy, ...options.digests },
    },
    {
      logger: options.logger ?? silentLogger,
      outlets: sameOutletForEveryTeam({ poster: new FakePoster(), ...options.outlet }),
      analytics,
      ...defined({
        database: options.database,
        now: options.now,
        clock: options.clock,
        runnerOptions: options.runnerOptions,
        conferenceOptions: options.conferenceOptions,
      }),
    },
  );
}
