import { Writable } from 'node:stream';
import { afterEach } from 'vitest';
import { AnalyticsClient, type AnalyticsClientOptions } from '../../src/analytics/client.ts';
import type { InfluencersQuery } from '../../src/analytics/types.ts';
import { createLogger, type Logger } from '../../src/logger.ts';
import {
  demoClient,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
} from '../../src/sandbox/server.ts';

/** A wall clock tests move by hand; it starts well away from 0 (lru-cache never expires at 0). */
export class FakeClock {
  ms: number;

  constructor(iso = '2026-03-18T09:30:00Z') {
    this.ms = Date.parse(iso);
  }

  readonly now = (): number => this.ms;
  readonly date = (): Date => new Date(this.ms);

  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Seven days up to the fake clock's instant, as the bot would ask for "last week". */
export function lastWeek(
  clock: FakeClock,
  databases: readonly string[] = ['#hcsm'],
): InfluencersQuery {
  return {
    databases,
    start: new Date(clock.ms - 7 * 86_400_000).toISOString().replace('.000Z', 'Z'),
    end: new Date(clock.ms).toISOString().replace('.000Z', 'Z'),
  };
}

export interface Harness {
  readonly sandbox: Sandbox;
  readonly client: AnalyticsClient;
  readonly clock: FakeClock;
  /** Every wait the client asked for, in ms, in order; they return at once. */
  readonly sleeps: number[];
  dataRequests(): number;
  tokenRequests(): number;
  close(): Promise<void>;
}

/**
 * A sandbox on an ephemeral loopback port and a client pointed at it, sharing one fake clock. Waits
 * between retries are recorded and skipped; per-attempt and deadline timers stay real.
 */
export async function startHarness(
  clientOptions: Partial<AnalyticsClientOptions> = {},
  sandboxOptions: SandboxOptions = {},
): Promise<Harness> {
  const clock = new FakeClock();
  const sandbox = await startSandbox({ now: clock.date, ...sandboxOptions });
  const sleeps: number[] = [];
  const client = new AnalyticsClient({
    baseUrl: sandbox.url,
    clientId: demoClient.id,
    clientSecret: demoClient.secret,
    now: clock.now,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...clientOptions,
  });
  const count = (endpoint: string) => sandbox.log.filter((r) => r.endpoint === endpoint).length;
  return {
    sandbox,
    client,
    clock,
    sleeps,
    dataRequests: () => count('data'),
    tokenRequests: () => count('token'),
    async close() {
      await client.close();
      await sandbox.close();
    },
  };
}

/** A pino logger at level trace writing into memory, to read back everything that was logged. */
export function memoryLogger(): { logger: Logger; output: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  const logger = createLogger({ level: 'trace', destination });
  return { logger, output: () => chunks.join('') };
}

/** Settles `promise` and returns its rejection; fails the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/** A `start()` for a test file: each test's harness is closed after that test. */
export function harnessPerTest(): (...args: Parameters<typeof startHarness>) => Promise<Harness> {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });
  return async (...args) => {
    harness = await startHarness(...args);
    return harness;
  };
}
