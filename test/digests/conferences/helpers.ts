/** Fakes and builders shared by the conference engine tests. */
import type {
  ConferencePoster,
  FoundPost,
  PostMarker,
} from '../../../src/digests/conferences/outlet.ts';
import {
  ConferenceRunner,
  type ConferenceRunnerDeps,
} from '../../../src/digests/conferences/runner.ts';
import { everyTeam } from '../../../src/digests/per-team.ts';
import { SlackRateLimitedError } from '../../../src/errors.ts';
import type { NewConference } from '../../../src/model/conference.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { conferenceWords } from '../../../src/render/conferences/conference.ts';
import { toDigestError } from '../../../src/slack/web-api/poster.ts';
import type { ConferenceRepository } from '../../../src/store/conferences.ts';
import type { FakeAnalytics, FakeClock } from '../helpers.ts';

export interface ConferenceCall {
  readonly kind: 'post' | 'update' | 'pin' | 'unpin' | 'dm';
  readonly channelId: string;
  readonly ts?: string;
  readonly threadTs?: string;
  readonly message?: SlackMessage;
  readonly marker?: PostMarker;
  readonly at: number;
}

/**
 * Slack as the conference engine sees it: records every post, edit, pin and DM. `updateAnswer`
 * and `pinAnswer` say what Slack answers next; `failWith` makes a call throw (Slack's errors reach
 * the engine as the Slack layer hands them on, through `toDigestError`).
 */
export class FakeConferencePoster implements ConferencePoster {
  readonly calls: ConferenceCall[] = [];
  updateAnswer: (ts: string) => 'updated' | 'gone' = () => 'updated';
  pinAnswer: () => 'pinned' | 'refused' = () => 'pinned';
  failWith: (kind: ConferenceCall['kind']) => unknown = () => undefined;
  /** Posts in these channels never return: the instance is killed mid-post. */
  readonly dying = new Set<string>();
  /** Posts in these channels reach Slack, then never return: killed before the answer. */
  readonly dyingAfterSend = new Set<string>();
  /** Posts that never returned. */
  hung = 0;
  /** False: the channels' history cannot be read (no history scope), `find` says `unknown`. */
  history = true;
  /** conversations.history and conversations.replies calls. */
  finds = 0;
  /** What a history call throws, if anything (Slack's rate limit). */
  findFails: () => unknown = () => undefined;
  readonly #clock: FakeClock;
  #next = 1;

  constructor(clock: FakeClock) {
    this.#clock = clock;
  }

  of(kind: ConferenceCall['kind']): ConferenceCall[] {
    return this.calls.filter((call) => call.kind === kind);
  }

  async post(
    channelId: string,
    message: SlackMessage,
    threadTs?: string,
    marker?: PostMarker,
  ): Promise<{ ts: string }> {
    if (this.dying.has(channelId)) {
      this.hung++;
      return new Promise(() => undefined);
    }
    const error = this.failWith('post');
    if (error) throw toDigestError(channelId, error, message);
    const ts = `1780000000.${String(this.#next++).padStart(6, '0')}`;
    this.calls.push({
      kind: 'post',
      channelId,
      ts,
      message,
      at: this.#clock.now().getTime(),
      ...(threadTs === undefined ? {} : { threadTs }),
      ...(marker === undefined ? {} : { marker }),
    });
    if (this.dyingAfterSend.has(channelId)) {
      this.hung++;
      return new Promise(() => undefined);
    }
    return { ts };
  }

  /** The channel (or the thread) as conversations.history (or .replies) shows it. */
  async find(
    channelId: string,
    marker: PostMarker,
    since: Date,
    threadTs?: string,
  ): Promise<FoundPost> {
    this.finds++;
    const error = this.findFails();
    if (error) throw error;
    if (!this.history) return 'unknown';
    const found = this.of('post').find(
      (post) =>
        post.channelId === channelId &&
        post.threadTs === threadTs &&
        post.at >= since.getTime() &&
        post.marker?.conferenceId === marker.conferenceId &&
        post.marker.key === marker.key,
    );
    return found?.ts === undefined ? 'absent' : { ts: found.ts };
  }

  async update(channelId: string, ts: string, message: SlackMessage): Promise<'updated' | 'gone'> {
    const error = this.failWith('update');
    if (error) throw toDigestError(channelId, error, message);
    const answer = this.updateAnswer(ts);
    if (answer === 'updated') {
      this.calls.push({ kind: 'update', channelId, ts, message, at: this.#clock.now().getTime() });
    }
    return answer;
  }

  /** pins.add's rate limit (Slack's is about 20 a minute): over it, it answers `ratelimited`. */
  pinLimit: { readonly perMinute: number; readonly retryAfterMs: number } | undefined;
  /** Every pins.add call, the rate limited ones included. */
  pinAttempts = 0;

  async pin(channelId: string, ts: string): Promise<'pinned' | 'refused'> {
    this.pinAttempts++;
    if (this.pinLimit !== undefined) {
      const since = this.#clock.now().getTime() - 60_000;
      const recent = this.of('pin').filter((pin) => pin.at > since).length;
      if (recent >= this.pinLimit.perMinute) {
        throw new SlackRateLimitedError('pins.add', this.pinLimit.retryAfterMs);
      }
    }
    const answer = this.pinAnswer();
    if (answer === 'pinned') {
      this.calls.push({ kind: 'pin', channelId, ts, at: this.#clock.now().getTime() });
    }
    return answer;
  }

  async unpin(channelId: string, ts: string): Promise<void> {
    this.calls.push({ kind: 'unpin', channelId, ts, at: this.#clock.now().getTime() });
  }

  async notifyCreator(userId: string, message: SlackMessage): Promise<void> {
    this.calls.push({ kind: 'dm', channelId: userId, message, at: this.#clock.now().getTime() });
  }
}

/** ASCO 2026 in Chicago: five days, Friday May 29 to Tuesday June 2 (CDT, UTC-5). */
export function ascoInput(overrides: Partial<NewConference> = {}): NewConference {
  return {
    teamId: 'T1',
    channelId: 'C0ASCO',
    creatorId: 'U1',
    databases: ['#ASCO26'],
    firstDay: '2026-05-29',
    lastDay: '2026-06-02',
    zone: 'America/Chicago',
    watch: ['carol', 'zed'],
    top: 3,
    refreshMinutes: 15,
    nextRunAt: new Date('2026-05-29T05:00:00Z'),
    ...overrides,
  };
}

export function conferenceRunner(
  store: ConferenceRepository,
  analytics: FakeAnalytics,
  poster: FakeConferencePoster,
  clock: FakeClock,
  overrides: Partial<ConferenceRunnerDeps> = {},
): ConferenceRunner {
  return new ConferenceRunner({
    conferences: store,
    analytics,
    posters: everyTeam(poster),
    clock,
    words: conferenceWords,
    options: { backoffMs: 1 },
    ...overrides,
  });
}
