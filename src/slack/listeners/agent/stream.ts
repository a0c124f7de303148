/**
 * One streamed answer in an agent conversation, through the Web API client's ChatStreamer: the
 * line saying what was understood starts the stream at once, each window the service is asked
 * about appends a task that ends with its row count or its error, and the answer's blocks close
 * it (chat.stopStream). Appends are sent one at a time, in order, and all of them have landed
 * before the stream stops: a task still open at stop would spin for ever.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { KnownBlock, TaskUpdateChunk } from '@slack/types';
import type { ChatStreamer, WebClient } from '@slack/web-api';
import { stoppedByPerson } from '../../../flows/lookup/index.ts';
import type { WatchedWindow, WindowWatch } from '../../../flows/window-watch.ts';
import type { Logger } from '../../../logger.ts';
import type { LookupRequest } from '../../../model/lookup.ts';
import type { SlackMessage } from '../../../model/message.ts';
import {
  markdownPieces,
  renderWindowFailure,
  renderWindowRows,
  renderWindowTask,
  streamLimits,
} from '../../../render/lookups/agent.ts';
import { withBlocksFallback } from '../../web-api/blocks-fallback.ts';
import { slackErrorString, slackFailure, slackRetryAfterMs } from '../../web-api/client.ts';

/**
 * Slack's answers to chat.startStream that mean streaming is not offered in this conversation (a
 * channel type it does not stream to, an app whose Messages tab is off): the answer goes as a
 * plain post instead. docs.slack.dev/reference/methods/chat.startStream.
 */
export const streamingRefusals: ReadonlySet<string> = new Set([
  'channel_type_not_supported',
  'messages_tab_disabled',
]);

/**
 * Slack's answers once it stopped the stream itself, because the person pressed Stop: appends get
 * `stopped_by_user`, and a stop finds the message no longer streaming.
 */
const stoppedBySlack: ReadonlySet<string> = new Set([
  'stopped_by_user',
  'message_not_in_streaming_state',
]);

/** Whether `error` says Slack already ended the stream (see {@link stoppedBySlack}). */
export function streamStoppedBySlack(error: unknown): boolean {
  const reason = slackErrorString(error);
  return reason !== undefined && stoppedBySlack.has(reason);
}

/**
 * How long a stream's append or stop waits out Slack's Retry-After: chat.stopStream is Tier 2
 * (about 20 a minute per workspace), whose window frees a call within a minute. The person sees
 * the streamed message meanwhile; a stop given up on would leave it unfinished and post the
 * answer again beside it.
 */
export const streamRateLimitMaxWaitMs = 60_000;

/** How many times a rate-limited stop is tried before the answer is posted instead. */
export const streamStopAttempts = 3;

/** Slack's reason when `error` is a refusal to stream here, else undefined. */
export function streamingRefusal(error: unknown): string | undefined {
  const reason = slackErrorString(error);
  return reason !== undefined && streamingRefusals.has(reason) ? reason : undefined;
}

export interface StreamTarget {
  readonly channel: string;
  readonly threadTs: string;
  readonly userId: string;
  readonly teamId: string | undefined;
}

/** What a task still open when the stream stops ends with. */
const unansweredTask = 'stopped before the service answered';

/** A window's call cut short because the person pressed Stop, not a failure of the service. */
function stoppedBy(error: unknown): boolean {
  return error === stoppedByPerson || (error as { cause?: unknown })?.cause === stoppedByPerson;
}

/** How the stream's end went: the answer closed it, or Slack had stopped it at the person's Stop. */
export type StreamEnd = 'closed' | 'stopped-by-person';

/** How a stream waits out a Retry-After (real timers unless a test gives its own). */
export type Sleep = (ms: number) => Promise<void>;

export class StreamedReply {
  readonly #streamer: ChatStreamer;
  readonly #logger: Logger;
  readonly #sleep: Sleep | undefined;
  /** Slack answered an append with `stopped_by_user`: the person's Stop ended the stream. */
  #stoppedBySlack = false;
  /** Tasks started and not yet ended, by id. */
  readonly #open = new Map<string, string>();
  #queue: Promise<void> = Promise.resolve();
  #tasks = 0;
  #closed = false;
  #appendFailureLogged = false;

  private constructor(streamer: ChatStreamer, logger: Logger, sleep: Sleep | undefined) {
    this.#streamer = streamer;
    this.#logger = logger;
    this.#sleep = sleep;
  }

  /**
   * Starts the stream with `markdown` (chat.startStream). Throws what Slack answered when it did
   * not start: {@link streamingRefusal} tells a refusal from a failure.
   */
  static async open(
    client: WebClient,
    target: StreamTarget,
    markdown: string,
    logger: Logger,
    sleep?: Sleep,
  ): Promise<StreamedReply> {
    const streamer = client.chatStream({
      channel: target.channel,
      thread_ts: target.threadTs,
      recipient_user_id: target.userId,
      ...(target.teamId === undefined ? {} : { recipient_team_id: target.teamId }),
      task_display_mode: 'timeline',
    });
    const [first = '', ...more] = markdownPieces(markdown);
    await streamer.append({ chunks: [{ type: 'markdown_text', text: first }] });
    const reply = new StreamedReply(streamer, logger, sleep);
    for (const piece of more) reply.#append([{ type: 'markdown_text', text: piece }]);
    return reply;
  }

  /** The lookup's windows as tasks of the stream, their titles in words read at `now`. */
  watch(now: Date): WindowWatch {
    return { asked: (request) => this.#task(request, now) };
  }

  #task(request: LookupRequest, now: Date): WatchedWindow {
    this.#tasks += 1;
    const id = `window-${this.#tasks}`;
    const title = renderWindowTask(request, now);
    if (this.#closed) return { answered: () => {}, failed: () => {} };
    this.#open.set(id, title);
    this.#append([{ type: 'task_update', id, title, status: 'in_progress' }]);
    const end = (status: 'complete' | 'error', output: string) => {
      if (this.#closed || !this.#open.delete(id)) return;
      this.#append([{ type: 'task_update', id, title, status, output }]);
    };
    return {
      answered: (rows) => end('complete', renderWindowRows(rows)),
      failed: (error) =>
        end('error', stoppedBy(error) ? unansweredTask : renderWindowFailure(error)),
    };
  }

  /**
   * `call` again after Slack's Retry-After when it was rate limited (chat.appendStream is Tier 4,
   * chat.stopStream Tier 2), up to `attempts` tries in all.
   */
  async #paced<T>(call: () => Promise<T>, attempts: number): Promise<T> {
    for (let tried = 1; ; tried += 1) {
      try {
        return await call();
      } catch (error) {
        const waitMs = slackRetryAfterMs(error);
        if (waitMs === undefined || tried >= attempts) throw error;
        await (this.#sleep ?? sleep)(Math.min(waitMs, streamRateLimitMaxWaitMs));
      }
    }
  }

  /**
   * Queues one append after those before it, waiting out a rate limit once; a failed one is
   * logged (once) and skipped. Once Slack stopped the stream at the person's Stop, nothing more is
   * appended.
   */
  #append(chunks: TaskUpdateChunk[] | { type: 'markdown_text'; text: string }[]): void {
    this.#queue = this.#queue
      .then(async () => {
        if (this.#stoppedBySlack) return;
        await this.#paced(() => this.#streamer.append({ chunks }), 2);
      })
      .catch((error: unknown) => {
        if (slackErrorString(error) === 'stopped_by_user') this.#stoppedBySlack = true;
        if (this.#appendFailureLogged) return;
        this.#appendFailureLogged = true;
        this.#logger.warn(slackFailure(error, 'chat.appendStream'), 'could not append to a stream');
      });
  }

  /**
   * Ends the stream with `message`: its blocks (at most {@link streamLimits.blocksAtStop}, without
   * the new table and chart blocks when Slack refuses them), or its text as markdown when it has
   * none. Tasks still open end as stopped. `session` (chat.stopStream's `session_status`) moves the
   * thread's agent session with the stop. A rate-limited stop waits out Retry-After (see
   * {@link streamStopAttempts}), so that the answer closes the stream rather than arriving twice.
   * `stopped-by-person` when Slack had already stopped the stream at the person's Stop: nothing
   * more is sent. Throws when Slack did not take it: the caller posts the message instead, so
   * nothing is lost.
   */
  async finish(
    message: SlackMessage,
    session: { session_status?: string } = {},
  ): Promise<StreamEnd> {
    // Windows that end from now on end with the stop; appends already queued land first.
    this.#closed = true;
    for (let queued = this.#queue; ; queued = this.#queue) {
      await queued;
      if (queued === this.#queue) break;
    }
    // The person's Stop ended the stream on Slack's side: the message is final as it is.
    if (this.#stoppedBySlack) return 'stopped-by-person';
    const open: TaskUpdateChunk[] = [...this.#open].map(([id, title]) => ({
      type: 'task_update',
      id,
      title,
      status: 'error',
      output: unansweredTask,
    }));
    this.#open.clear();
    const stop = (args: Parameters<ChatStreamer['stop']>[0]) =>
      this.#paced(() => this.#streamer.stop(args), streamStopAttempts);
    const blocks = message.blocks ?? [];
    if (blocks.length === 0 || blocks.length > streamLimits.blocksAtStop) {
      const pieces = markdownPieces(message.text);
      const last = pieces.pop() ?? '';
      for (const piece of pieces) {
        await this.#paced(
          () => this.#streamer.append({ chunks: [{ type: 'markdown_text', text: piece }] }),
          2,
        );
      }
      await stop({ chunks: [...open, { type: 'markdown_text', text: last }], ...session });
      return 'closed';
    }
    await withBlocksFallback(
      message,
      (sent) =>
        stop({
          ...(open.length === 0 ? {} : { chunks: open }),
          blocks: (sent.blocks ?? []) as KnownBlock[],
          ...session,
        }),
      this.#logger,
    );
    return 'closed';
  }
}
