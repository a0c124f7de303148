/**
 * The last question of each DM, for its follow-ups (`how about #lcsm?`, `same for last month`,
 * `and doctors only?`): what the agent threads keep per thread, kept per conversation for the DMs
 * outside them, in the store every instance shares so that whichever instance answers the
 * follow-up reads it alike. A question counts for {@link followUpTtlMs}: after that a follow-up's
 * opening is read as a question of its own.
 *
 * The store is asked within {@link followUpWaitMs}; when it fails, is slow or is not open, what this
 * instance saw itself stands in, so a database hiccup costs a follow-up's context on another
 * instance, never an answer.
 */
import { LRUCache } from 'lru-cache';
import type { Logger } from '../../logger.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { LastQuestionRepository } from '../../store/last-questions.ts';
import { timedOut, within } from '../../time/within.ts';

/** How long a question stays the one a follow-up keeps the window and options of. */
export const followUpTtlMs = 30 * 60_000;
/** How long a question waits for the store before going on with what this instance knows. */
export const followUpWaitMs = 1_000;
/** Conversations remembered at once in memory; the least recently used goes first. */
const conversationsKept = 10_000;

export interface FollowUpsOptions {
  /** The store's last questions; undefined until the store opens. */
  readonly questions: () => LastQuestionRepository | undefined;
  readonly logger: Logger;
  readonly now: () => Date;
}

interface Remembered {
  readonly request: LookupRequest;
  readonly expiresAt: number;
}

export class FollowUps {
  readonly #options: FollowUpsOptions;
  readonly #here = new LRUCache<string, Remembered>({ max: conversationsKept });

  constructor(options: FollowUpsOptions) {
    this.#options = options;
  }

  /**
   * The question a follow-up in `conversation` keeps: the store's first, since another instance
   * may have answered a later one; undefined when none was asked within {@link followUpTtlMs}.
   */
  async previous(conversation: string): Promise<LookupRequest | undefined> {
    const now = this.#options.now();
    const stored = await this.#ask('could not read the last question of a DM', (questions) =>
      questions.lastOf(conversation, now),
    );
    if (stored !== timedOut) return stored;
    const here = this.#here.get(conversation);
    return here !== undefined && here.expiresAt > now.getTime() ? here.request : undefined;
  }

  /** `request` was just asked in `conversation`: its follow-ups keep it. */
  async remember(conversation: string, request: LookupRequest): Promise<void> {
    const now = this.#options.now();
    this.#here.set(conversation, { request, expiresAt: now.getTime() + followUpTtlMs });
    await this.#ask('could not record the last question of a DM', (questions) =>
      questions.remember(conversation, request, now, followUpTtlMs),
    );
  }

  /** A store call; {@link timedOut} when the store is not open, failed or was too slow. */
  async #ask<T>(
    failure: string,
    call: (questions: LastQuestionRepository) => Promise<T>,
  ): Promise<T | typeof timedOut> {
    try {
      const questions = this.#options.questions();
      if (questions === undefined) return timedOut;
      const answer = await within(call(questions), followUpWaitMs);
      if (answer === timedOut) {
        this.#options.logger.warn({ waitMs: followUpWaitMs }, `${failure}: the store was too slow`);
      }
      return answer;
    } catch (error) {
      this.#options.logger.warn({ err: error }, failure);
      return timedOut;
    }
  }
}
