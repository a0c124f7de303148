import type { Logger } from '../logger.ts';
import type { DigestRepository } from '../store/digests.ts';
import type { Clock } from './clock.ts';

export interface LeaseRenewalOptions {
  readonly digests: Pick<DigestRepository, 'renewLeases'>;
  readonly owner: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly leaseMs: number;
  readonly leaseRenewalMs: number;
}

/**
 * Keeps a runner's leases while its tick still moves. Thousands of posts paced at one per second
 * per channel outlast a lease, so a working tick renews its leases; a tick stuck on something
 * that never ends stops renewing, so that another runner takes its digests over once they expire.
 */
export class LeaseRenewal {
  readonly #options: LeaseRenewalOptions;
  /** Steps done (answers, posts, digests finished): renewal needs it to have moved. */
  #progress = 0;

  constructor(options: LeaseRenewalOptions) {
    this.#options = options;
  }

  /** Called by every part of a tick when it finishes a step. */
  readonly progressed = (): void => {
    this.#progress++;
  };

  /**
   * Renews every `leaseRenewalMs` until the returned function is called, whenever progress was made
   * since the previous beat. A renewal that fails is logged and tried at the next beat: the lease
   * still has two thirds of its time, and the delivery record keeps a retaken slot from being
   * posted twice.
   */
  renewWhileRunning(): () => Promise<void> {
    const { digests, owner, clock, logger, leaseMs, leaseRenewalMs } = this.#options;
    let running: Promise<unknown> = Promise.resolve();
    let seen = this.#progress;
    const timer = setInterval(() => {
      if (this.#progress === seen) {
        logger.warn({ owner }, 'digest tick made no progress; leases not renewed');
        return;
      }
      seen = this.#progress;
      running = running.then(() =>
        digests.renewLeases(owner, clock.now(), leaseMs).then(
          (renewed) => logger.debug({ renewed, owner }, 'digest leases renewed'),
          (error: unknown) => logger.warn({ err: error, owner }, 'digest leases not renewed'),
        ),
      );
    }, leaseRenewalMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running;
    };
  }
}
