import type { Logger } from '../logger.ts';
import { defined } from '../model/defined.ts';
import type {
  Digest,
  OutageCause,
  PauseReason,
  RankedAccount,
  SkipReason,
} from '../model/digest.ts';
import type { DigestRunDetails } from '../model/digest-run.ts';
import type { SlackMessage } from '../model/message.ts';
import type { DigestRepository } from '../store/digests.ts';
import type {
  BeginDeliveryResult,
  Completion,
  Delivery,
  DeliveryStart,
  RunRepository,
  SlotCompletion,
} from '../store/runs.ts';
import type { Clock } from './clock.ts';
import { Coalescer } from './coalescer.ts';
import {
  backoffDelay,
  classifyFailure,
  type Failure,
  failureDetail,
  mayHavePosted,
  outageCause,
  type RetryPolicy,
  RunFailedError,
  runFailure,
} from './failures.ts';
import type { Outages } from './outages.ts';
import type { Pacer } from './pacing.ts';
import type { PerTeam } from './per-team.ts';

/** Where digests go. Errors may be the app's (ChannelUnreachableError...) or Slack's own. */
export interface DigestPoster {
  post(channelId: string, message: SlackMessage): Promise<{ ts: string }>;
  /** A direct message to the digest's creator (pause notices). */
  notifyCreator(userId: string, message: SlackMessage): Promise<void>;
  /**
   * A direct message to each of `userIds` who is a workspace admin or owner (outage notices);
   * the others are left alone.
   */
  notifyAdmins(userIds: readonly string[], message: SlackMessage): Promise<void>;
  /**
   * The workspace the bot token works for now (Slack's `auth.test`); undefined when Slack refuses
   * the token or cannot be asked.
   */
  workspace(): Promise<string | undefined>;
}

/** The DM to a digest's creator when the engine paused it; `reason` says why and what to fix. */
export type RenderPauseNotice = (digest: Digest, reason: PauseReason) => SlackMessage;

/** How a manual run ended, for the person who asked for it. */
export type RunNowResult =
  | { readonly outcome: 'posted'; readonly ts: string }
  | { readonly outcome: 'failed'; readonly failure: Failure }
  /** Slack may or may not have posted it (a timeout after sending); it is not sent again. */
  | { readonly outcome: 'unconfirmed'; readonly failure: Failure }
  | { readonly outcome: 'already' };

/** How a person's "Post it now" of a slot left unconfirmed ended. */
export type RepostResult =
  | { readonly outcome: 'posted'; readonly ts: string }
  /** Nothing was posted (the question or the post failed for sure): it may be tried again. */
  | { readonly outcome: 'failed'; readonly failure: Failure }
  /** Slack may or may not have posted it this time too; it is not sent again. */
  | { readonly outcome: 'unconfirmed'; readonly failure: Failure }
  /** Someone chose before (the record says who and how it ended), or it was never unconfirmed. */
  | { readonly outcome: 'already'; readonly delivery: Delivery };

/**
 * A slot's message, and the ranking recorded once it is posted; or, when the digest's condition
 * keeps the run quiet, why, and the ranking the next run compares with.
 */
export type ComposedDigest = (
  | { readonly ranking: RankedAccount[]; readonly message: SlackMessage }
  | { readonly ranking: RankedAccount[]; readonly quiet: SkipReason }
) & {
  /** The run as its history keeps it. */
  readonly run?: DigestRunDetails;
};

export interface DeliveriesOptions {
  /** Where each slot's record is written. */
  readonly runs: RunRepository;
  /** Whose lease a slot held for an outage gives back. */
  readonly digests: Pick<DigestRepository, 'releaseLease'>;
  readonly owner: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where each workspace's digests post. */
  readonly posters: PerTeam<DigestPoster>;
  readonly pacer: Pacer;
  /** For failures that certainly did not post. */
  readonly retry: RetryPolicy;
  readonly maxConsecutiveFailures: number;
  readonly renderPauseNotice: RenderPauseNotice;
  readonly outages: Outages;
  /** Most delivery records per store call. */
  readonly storeBatchSize: number;
}

/** How one paced post step ended. */
type PostOutcome =
  | { readonly kind: 'posted'; readonly ts: string }
  /** The slot's record was there already: nothing was sent. */
  | { readonly kind: 'already'; readonly delivery: Delivery }
  /** The post may have reached Slack: not sent again, recorded `unconfirmed`. */
  | { readonly kind: 'unconfirmed'; readonly error: unknown };

type Attempt =
  | { readonly kind: 'sent'; readonly ts: string }
  | { readonly kind: 'already'; readonly delivery: Delivery }
  | { readonly kind: 'error'; readonly error: unknown };

/** The counts a scheduled delivery adds to its tick's report. */
interface DeliveryCounts {
  posted: number;
  failed: number;
  unconfirmed: number;
  paused: number;
  /** Not attempted, or given back, because the workspace's digests are on hold. */
  held: number;
  /** Answered but not posted: the digest's condition (only when changed, only new) kept it quiet. */
  quiet: number;
}

/**
 * How a scheduled slot ended for this runner: `held` when the workspace's digests went on hold
 * (nothing recorded, the slot is still owed), `settled` when another runner had handled it.
 */
export type DeliveryOutcome = 'posted' | 'failed' | 'unconfirmed' | 'held' | 'settled' | 'quiet';

/**
 * The delivery record of each slot, from `posting` to `posted`, `failed` or `unconfirmed`: what is
 * sent again, what is given up, and what is never sent twice. Scheduled slots write their records
 * through batches shared with the digests that reach the same step at the same moment.
 */
export class Deliveries {
  readonly #options: DeliveriesOptions;
  readonly #begins: Coalescer<DeliveryStart, BeginDeliveryResult>;
  readonly #completions: Coalescer<SlotCompletion, void>;

  constructor(options: DeliveriesOptions) {
    this.#options = options;
    const { runs, storeBatchSize: maxBatch } = options;
    // Two batches in flight: one being written while the next fills, and PostgreSQL's pool can
    // run both on separate connections.
    const maxInFlight = 2;
    this.#begins = new Coalescer({
      run: (starts) => runs.beginDeliveries(starts),
      single: (start) => runs.beginDelivery(start.digestId, start.slot, start.owner, start.now),
      maxBatch,
      maxInFlight,
    });
    this.#completions = new Coalescer({
      run: async (items) => {
        await runs.completeMany(items);
        return items.map(() => undefined);
      },
      single: (item) => runs.complete(item.digestId, item.slot, item.completion),
      maxBatch,
      maxInFlight,
    });
  }

  /**
   * Posts a scheduled slot and moves the digest on to `next`. Errors escape only when a record
   * could not be written; the slot's records then keep it from being posted twice. A probe of its
   * workspace's outage is attempted although the workspace is on hold; any other slot is given
   * back, unattempted, once it is.
   */
  async deliver(
    digest: Digest,
    slot: Date,
    next: Date,
    compose: () => Promise<ComposedDigest>,
    report: DeliveryCounts,
    probe = false,
    window?: DigestRunDetails['window'],
  ): Promise<DeliveryOutcome> {
    const { owner, clock, outages } = this.#options;
    const onHold = () => !probe && outages.isOpen(digest.teamId);
    if (onHold()) return this.#hold(digest, slot, report);
    // No pre-check of the delivery record: the analytics question is usually shared anyway, and
    // beginDelivery, right before the post, is the atomic check that matters.
    let outcome: PostOutcome;
    let ranking: RankedAccount[];
    let run: DigestRunDetails | undefined;
    try {
      const composed = await compose();
      ranking = composed.ranking;
      run = composed.run;
      if (onHold()) return this.#hold(digest, slot, report);
      if ('quiet' in composed) return this.#quiet(digest, slot, next, composed, report);
      outcome = await this.#post(digest, slot, composed.message, () =>
        this.#begins.submit({ digestId: digest.id, slot, owner, now: clock.now() }),
      );
    } catch (error) {
      return this.#fail(digest, slot, next, error, report, window);
    }
    if (outcome.kind === 'already') {
      await this.#settleAlreadyHandled(digest, slot, outcome.delivery, next, report);
      return 'settled';
    }
    if (outcome.kind === 'unconfirmed') {
      report.unconfirmed++;
      const failure = this.#unconfirmed(
        outcome.error,
        { digestId: digest.id, slot: slot.toISOString() },
        'digest post may or may not have reached Slack; not sending it again',
      );
      await this.#complete(digest.id, slot, {
        owner,
        outcome: 'unconfirmed',
        at: clock.now(),
        errorCode: failure.code,
        nextRunAt: next,
      });
      return 'unconfirmed';
    }
    // Posted: a failure to record it is not a failed run. It escapes, and the lease is given
    // back; the slot stays `posting`, so the next runner records it unconfirmed rather than
    // posting it again.
    await this.#complete(digest.id, slot, {
      owner,
      outcome: 'posted',
      at: clock.now(),
      messageTs: outcome.ts,
      ranking,
      nextRunAt: next,
      consecutiveFailures: 0,
      ...defined({ run }),
    });
    report.posted++;
    return 'posted';
  }

  /**
   * A run its condition keeps quiet: recorded as skipped with why, its ranking kept for the next
   * run to compare with, the digest moved on as after a post (its question worked).
   */
  async #quiet(
    digest: Digest,
    slot: Date,
    next: Date,
    composed: {
      readonly ranking: RankedAccount[];
      readonly quiet: SkipReason;
      readonly run?: DigestRunDetails;
    },
    report: DeliveryCounts,
  ): Promise<DeliveryOutcome> {
    const { owner, clock } = this.#options;
    await this.#complete(digest.id, slot, {
      owner,
      outcome: 'skipped',
      skipReason: composed.quiet,
      at: clock.now(),
      ranking: composed.ranking,
      nextRunAt: next,
      consecutiveFailures: 0,
      ...defined({ run: composed.run }),
    });
    report.quiet++;
    return 'quiet';
  }

  /**
   * Gives a slot back unattempted, or after a failure that concerned the whole workspace: no
   * record stays (a `posting` one of this runner's is removed, since nothing was posted), the
   * lease is released, and the slot stays owed until the outage clears or grows too old.
   */
  async #hold(
    digest: Digest,
    slot: Date,
    report: DeliveryCounts,
    met?: { readonly failure: Failure; readonly cause: OutageCause },
  ): Promise<DeliveryOutcome> {
    const { runs, digests, owner, outages } = this.#options;
    if (met !== undefined) {
      await outages.met(digest.teamId, met.cause, met.failure.retryAfterMs);
      await runs.abandonDelivery(digest.id, slot, owner);
    }
    await digests.releaseLease(digest.id, owner);
    report.held++;
    return 'held';
  }

  /**
   * Posts a slot outside the schedule ("Run now"): its records neither move the schedule nor
   * count toward pausing, and are written at once rather than batched.
   */
  async deliverNow(
    digest: Digest,
    slot: Date,
    compose: () => Promise<ComposedDigest>,
  ): Promise<RunNowResult> {
    const { runs, owner, clock, logger } = this.#options;
    try {
      const composed = await compose();
      // Not an AppError: an invariant (a manual run always has a message); a bug if broken.
      if (!('message' in composed)) throw new Error('a manual run always has a message');
      const { ranking, message } = composed;
      const outcome = await this.#post(digest, slot, message, () =>
        runs.beginDelivery(digest.id, slot, owner, clock.now()),
      );
      if (outcome.kind === 'already') return { outcome: 'already' };
      if (outcome.kind === 'unconfirmed') {
        const failure = this.#unconfirmed(
          outcome.error,
          { digestId: digest.id },
          'manual digest post may or may not have reached Slack; not sending it again',
        );
        await this.#completeNow(digest, slot, { outcome: 'unconfirmed', errorCode: failure.code });
        return { outcome: 'unconfirmed', failure };
      }
      await this.#completeNow(digest, slot, {
        outcome: 'posted',
        messageTs: outcome.ts,
        ranking,
        ...defined({ run: composed.run }),
      });
      return { outcome: 'posted', ts: outcome.ts };
    } catch (error) {
      const { failure, cause } = runFailure(error);
      logger.warn(
        { err: cause, digestId: digest.id, code: failure.code },
        'manual digest run failed',
      );
      await this.#completeNow(digest, slot, {
        outcome: 'failed',
        errorCode: failure.code,
        ...defined({ errorDetail: failureDetail(failure) }),
      });
      return { outcome: 'failed', failure };
    }
  }

  /**
   * Posts a slot left unconfirmed because a person chose to ("Post it now"), at most once however
   * often and by whomever it is pressed: the slot's record is taken for them in the channel's
   * turn, right before the message is sent, and the outcome recorded as any slot's (the schedule
   * does not move). One attempt: a failure that certainly did not post lets them press again.
   */
  async deliverUnconfirmed(
    digest: Digest,
    slot: Date,
    person: string,
    compose: () => Promise<ComposedDigest>,
  ): Promise<RepostResult> {
    const { runs, owner, clock, logger, pacer } = this.#options;
    const by = `${owner}:${person}`;
    const context = { digestId: digest.id, slot: slot.toISOString(), by: person };
    let composed: ComposedDigest;
    try {
      composed = await compose();
    } catch (error) {
      const { failure, cause } = runFailure(error);
      logger.warn({ err: cause, ...context, code: failure.code }, 'digest repost failed');
      return { outcome: 'failed', failure };
    }
    // Not an AppError: an invariant (a repost always has a message); a bug if broken.
    if (!('message' in composed)) throw new Error('a repost always has a message');
    const { message, ranking } = composed;
    const attempt = await pacer.paced(digest, (sending) =>
      this.#attempt(
        digest,
        message,
        () => runs.retakeUnconfirmed(digest.id, slot, by, person, clock.now()),
        sending,
      ),
    );
    if (attempt.kind === 'already') return { outcome: 'already', delivery: attempt.delivery };
    if (attempt.kind === 'sent') {
      await runs.complete(digest.id, slot, {
        owner: by,
        outcome: 'posted',
        at: clock.now(),
        messageTs: attempt.ts,
        ranking,
        ...defined({ run: composed.run }),
      });
      logger.info(context, 'an unconfirmed digest slot was posted, as a person chose');
      return { outcome: 'posted', ts: attempt.ts };
    }
    const failure = classifyFailure(attempt.error);
    const outcome = mayHavePosted(attempt.error) ? 'unconfirmed' : 'failed';
    await runs.complete(digest.id, slot, {
      owner: by,
      outcome,
      at: clock.now(),
      errorCode: failure.code,
      ...defined({ errorDetail: failureDetail(failure) }),
    });
    logger.warn({ err: attempt.error, ...context, outcome }, 'digest repost did not post');
    return { outcome, failure };
  }

  /** A manual run's record, written at once: no other digest reaches the step beside it. */
  #completeNow(
    digest: Digest,
    slot: Date,
    settled: Pick<
      Completion,
      'outcome' | 'errorCode' | 'errorDetail' | 'messageTs' | 'ranking' | 'run'
    >,
  ): Promise<void> {
    const { runs, owner, clock } = this.#options;
    return runs.complete(digest.id, slot, { owner, at: clock.now(), ...settled });
  }

  /** Logs a post that may have reached Slack; returns the failure its record keeps. */
  #unconfirmed(error: unknown, context: Record<string, string>, message: string): Failure {
    const failure = classifyFailure(error);
    this.#options.logger.warn({ err: error, ...context, code: failure.code }, message);
    return failure;
  }

  /**
   * The slot already had a record when this runner came to post it. Only a `posting` record
   * (another runner started and never confirmed) becomes an `unconfirmed` last run; a slot
   * another runner settled keeps its record and last run, and this runner only moves the digest
   * on (a no-op when that runner already did) and gives its lease back.
   */
  async #settleAlreadyHandled(
    digest: Digest,
    slot: Date,
    delivery: Delivery,
    next: Date,
    report: DeliveryCounts,
  ): Promise<void> {
    const { runs, owner, clock, logger } = this.#options;
    const at = clock.now();
    let settled: Pick<Completion, 'outcome' | 'messageTs' | 'errorCode' | 'errorDetail'>;
    switch (delivery.status) {
      case 'skipped':
        await runs.recordSkipped(digest.id, slot, {
          owner,
          at,
          reason: delivery.skipReason ?? { kind: 'missed' },
          count: delivery.skippedCount ?? 1,
          nextRunAt: next,
        });
        return;
      case 'posting':
        report.unconfirmed++;
        logger.warn(
          { digestId: digest.id, slot: slot.toISOString(), by: delivery.owner },
          'another runner started posting this slot and never confirmed; not posting it again',
        );
        settled = { outcome: 'unconfirmed' };
        break;
      case 'posted':
        settled = {
          outcome: 'posted',
          ...(delivery.messageTs ? { messageTs: delivery.messageTs } : {}),
        };
        break;
      case 'failed':
        // beginDelivery retakes a failed record, so this only happens if a store does not.
        settled = {
          outcome: 'failed',
          errorCode: delivery.errorCode ?? 'unknown',
          ...defined({ errorDetail: delivery.errorDetail }),
        };
        break;
    }
    await this.#complete(digest.id, slot, { owner, at, ...settled, nextRunAt: next });
  }

  /**
   * Records a failed slot, and pauses the digest (telling its creator) after too many in a row. A
   * failure that concerns the whole workspace is not the digest's: it holds the slot instead.
   */
  async #fail(
    digest: Digest,
    slot: Date,
    next: Date,
    error: unknown,
    report: DeliveryCounts,
    window?: DigestRunDetails['window'],
  ): Promise<DeliveryOutcome> {
    const { owner, clock, logger } = this.#options;
    const { failure, cause } = runFailure(error);
    const outage = outageCause(cause);
    if (outage !== undefined) {
      logger.debug({ err: cause, digestId: digest.id, outage }, 'digest run met an outage');
      return this.#hold(digest, slot, report, { failure, cause: outage });
    }
    const failures = digest.consecutiveFailures + 1;
    const pause = failures >= this.#options.maxConsecutiveFailures;
    logger.warn(
      { err: cause, digestId: digest.id, code: failure.code, failures },
      'digest run failed',
    );
    const detail = failureDetail(failure);
    const pauseReason: PauseReason | undefined = pause
      ? { kind: 'failures', failures, code: failure.code, ...defined({ detail }) }
      : undefined;
    await this.#complete(digest.id, slot, {
      owner,
      outcome: 'failed',
      at: clock.now(),
      errorCode: failure.code,
      ...defined({ errorDetail: detail, pauseReason }),
      nextRunAt: next,
      consecutiveFailures: failures,
      ...(window === undefined ? {} : { run: { window, entries: [], entered: [], left: [] } }),
    });
    report.failed++;
    if (pauseReason === undefined) return 'failed';
    report.paused++;
    await this.#notifyPause(digest, pauseReason);
    return 'failed';
  }

  async #notifyPause(digest: Digest, reason: PauseReason): Promise<void> {
    const { posters, renderPauseNotice, logger } = this.#options;
    try {
      await posters
        .forTeam(digest.teamId)
        .notifyCreator(digest.creatorId, renderPauseNotice(digest, reason));
    } catch (notifyError) {
      logger.warn(
        { err: notifyError, digestId: digest.id },
        'could not tell the creator about the pause',
      );
    }
  }

  /** Through the batch writer; the record commits before this resolves. */
  #complete(digestId: string, slot: Date, completion: Completion): Promise<void> {
    return this.#completions.submit({ digestId, slot, completion });
  }

  /**
   * chat.postMessage in the channel's turn (see Pacer), with `begin` writing the slot's `posting`
   * record inside that step, immediately before the message is sent. Resends only what certainly
   * did not reach Slack, after giving the record back so that a crash during the wait loses
   * nothing; throws a RunFailedError when it gives up.
   */
  async #post(
    digest: Digest,
    slot: Date,
    message: SlackMessage,
    begin: () => Promise<BeginDeliveryResult>,
  ): Promise<PostOutcome> {
    const { runs, owner, clock, pacer, retry } = this.#options;
    for (let tried = 1; ; tried++) {
      const attempt = await pacer.paced(digest, (sending) =>
        this.#attempt(digest, message, begin, sending),
      );
      if (attempt.kind === 'sent') return { kind: 'posted', ts: attempt.ts };
      if (attempt.kind === 'already') return attempt;
      const { error } = attempt;
      if (mayHavePosted(error)) return { kind: 'unconfirmed', error };
      const failure = classifyFailure(error);
      // The `failed` completion replaces this runner's own `posting` record.
      if (failure.kind === 'permanent' || tried >= retry.attempts) {
        throw new RunFailedError(failure, error);
      }
      try {
        await runs.abandonDelivery(digest.id, slot, owner);
      } catch (abandonError) {
        throw new RunFailedError(failure, abandonError);
      }
      if (failure.retryAfterMs !== undefined) {
        // The channel's queue waits it out, for every digest of the workspace.
        pacer.holdWorkspace(digest.teamId, failure.retryAfterMs);
      } else {
        await clock.sleep(backoffDelay(retry, tried));
      }
    }
  }

  /** One paced post step: the `posting` record, then the message. */
  async #attempt(
    digest: Digest,
    message: SlackMessage,
    begin: () => Promise<BeginDeliveryResult>,
    sending: () => void,
  ): Promise<Attempt> {
    const begun = await begin();
    if (begun.kind === 'already') return { kind: 'already', delivery: begun.delivery };
    sending();
    try {
      const poster = this.#options.posters.forTeam(digest.teamId);
      return { kind: 'sent', ts: (await poster.post(digest.channelId, message)).ts };
    } catch (error) {
      return { kind: 'error', error };
    }
  }
}
