import type { Digest } from '../model/digest.ts';
import type { Clock } from './clock.ts';
import { type Limiter, limiter } from './limiter.ts';

export interface PacerOptions {
  readonly clock: Clock;
  /** Minimum gap between two posts to one channel. */
  readonly channelIntervalMs: number;
  /** Posts sent at once, across channels. */
  readonly postConcurrency: number;
  /** Called after every post step, for lease renewal. */
  readonly onStep: () => void;
}

/** The fewest channels remembered before the ones past their interval are looked for. */
const minForgetAbove = 1000;

/**
 * Slack's posting limits as the runner keeps them: about one post per second per channel, a few
 * posts at once, and a 429's Retry-After waited out by every post to that workspace.
 */
export class Pacer {
  readonly #clock: Clock;
  readonly #channelIntervalMs: number;
  readonly #postSlot: Limiter;
  readonly #onStep: () => void;
  /** Per channel: the tail of its post queue and when it was last posted to (clock ms). */
  readonly #channelTails = new Map<string, Promise<unknown>>();
  readonly #lastPostAt = new Map<string, number>();
  /** Per workspace: Slack said 429, wait until then (clock ms). */
  readonly #blockedUntil = new Map<string, number>();
  /** Channels remembered past which the ones that can no longer delay a post are dropped. */
  #forgetAbove = minForgetAbove;

  constructor(options: PacerOptions) {
    this.#clock = options.clock;
    this.#channelIntervalMs = options.channelIntervalMs;
    this.#postSlot = limiter(Math.max(1, options.postConcurrency));
    this.#onStep = options.onStep;
  }

  /** Channels whose last post it remembers, those that may still delay a post among them. */
  get channelsRemembered(): number {
    return this.#lastPostAt.size;
  }

  /**
   * Drops entries that can no longer delay anything, so a long-lived runner stays small. Also
   * done as posts go, whenever the channels remembered double: a tick posting to thousands of
   * channels keeps those of its last second or so, not every one it posted to.
   */
  forgetPast(): void {
    const now = this.#clock.now().getTime();
    for (const [channelId, at] of this.#lastPostAt) {
      if (at + this.#channelIntervalMs <= now) this.#lastPostAt.delete(channelId);
    }
    for (const [teamId, until] of this.#blockedUntil) {
      if (until <= now) this.#blockedUntil.delete(teamId);
    }
    this.#forgetAbove = Math.max(minForgetAbove, 2 * this.#lastPostAt.size);
  }

  /** Slack rate limited the workspace: its posts wait `retryAfterMs` from now. */
  holdWorkspace(teamId: string, retryAfterMs: number): void {
    const until = this.#clock.now().getTime() + retryAfterMs;
    this.#blockedUntil.set(teamId, Math.max(until, this.#blockedUntil.get(teamId) ?? 0));
  }

  /**
   * Runs `step` in the channel's turn, once its pacing and the workspace's 429 wait are over and
   * one of the posts-at-once slots is free. `step` calls `sending()` when it sends, so that a step
   * that found the slot already handled does not hold the channel's next post back.
   */
  paced<T>(digest: Digest, step: (sending: () => void) => Promise<T>): Promise<T> {
    const { channelId, teamId } = digest;
    const previous = this.#channelTails.get(channelId) ?? Promise.resolve();
    const run = previous.then(async () => {
      const readyAt = Math.max(
        (this.#lastPostAt.get(channelId) ?? Number.NEGATIVE_INFINITY) + this.#channelIntervalMs,
        this.#blockedUntil.get(teamId) ?? Number.NEGATIVE_INFINITY,
      );
      const wait = readyAt - this.#clock.now().getTime();
      if (wait > 0) await this.#clock.sleep(wait);
      let sent = false;
      try {
        return await this.#postSlot(() =>
          step(() => {
            sent = true;
          }),
        );
      } finally {
        if (sent) this.#remember(channelId);
        this.#onStep();
      }
    });
    const tail = run.catch(() => undefined);
    this.#channelTails.set(channelId, tail);
    void tail.then(() => {
      if (this.#channelTails.get(channelId) === tail) this.#channelTails.delete(channelId);
    });
    return run;
  }

  #remember(channelId: string): void {
    this.#lastPostAt.set(channelId, this.#clock.now().getTime());
    if (this.#lastPostAt.size > this.#forgetAbove) this.forgetPast();
  }
}
