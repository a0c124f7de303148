import { DigestStoreUnavailableError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { timedOut, within } from '../time/within.ts';

/** Whether the digest store answers, as `/healthz` reports it. */
export type StoreHealthReport =
  | { readonly ok: true }
  /** `reason` is a few technical words, never the database URL or its credentials. */
  | { readonly ok: false; readonly reason: string };

export interface StoreHealthOptions {
  /** Asks the store to answer (`Database.ping`). */
  readonly ping: () => Promise<void>;
  readonly logger: Logger;
  /** Milliseconds on a monotonic clock. */
  readonly now?: () => number;
  /** The longest a caller waits for a ping; the store's own timeouts end it later. Default 2 s. */
  readonly waitMs?: number;
  /** How long a ping's answer is reused by later callers. Default 1 s. */
  readonly reuseMs?: number;
}

/**
 * Whether the digest store answers now, for health checks that may come often: at most one ping
 * is in flight whatever the number of callers, and its answer is reused for a second. A caller
 * waits at most `waitMs`, so a store that accepts connections and never answers makes the check
 * say so in seconds rather than hang it. A change either way is logged once.
 */
export class StoreHealth {
  readonly #options: StoreHealthOptions;
  readonly #now: () => number;
  #pinging: Promise<StoreHealthReport> | undefined;
  #last: { readonly report: StoreHealthReport; readonly at: number } | undefined;

  constructor(options: StoreHealthOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  async check(): Promise<StoreHealthReport> {
    const reuseMs = this.#options.reuseMs ?? 1_000;
    if (this.#last !== undefined && this.#now() - this.#last.at < reuseMs) return this.#last.report;
    this.#pinging ??= this.#ping().finally(() => {
      this.#pinging = undefined;
    });
    const waitMs = this.#options.waitMs ?? 2_000;
    const report = await within(this.#pinging, waitMs);
    if (report !== timedOut) return report;
    return this.#record({ ok: false, reason: `no answer within ${waitMs} ms` });
  }

  async #ping(): Promise<StoreHealthReport> {
    try {
      await this.#options.ping();
      return this.#record({ ok: true });
    } catch (error) {
      if (error instanceof DigestStoreUnavailableError) {
        return this.#record({ ok: false, reason: error.reason });
      }
      this.#options.logger.error({ err: error }, 'the digest store failed a health check');
      return this.#record({ ok: false, reason: 'the store failed a health check' });
    }
  }

  #record(report: StoreHealthReport): StoreHealthReport {
    const before = this.#last?.report;
    this.#last = { report, at: this.#now() };
    if (!report.ok && (before === undefined || before.ok)) {
      this.#options.logger.warn({ reason: report.reason }, 'the digest store does not answer');
    } else if (report.ok && before !== undefined && !before.ok) {
      this.#options.logger.info('the digest store answers again');
    }
    return report;
  }
}
