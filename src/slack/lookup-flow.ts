/**
 * The lookup flow, shared by every surface (slash command, DM, mention, modal, local console):
 * text -> parser -> analytics -> renderer, with the progress and timeout policy. It imports nothing
 * from Bolt so the console shows exactly what Slack would show.
 */
import type { AnalyticsApi, InfluencersQuery, InfluencersResult } from '../analytics/types.ts';
import { isAppError, type ParseError, TimeoutError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { parseLookup } from '../parsing/index.ts';
import type { LookupRequest } from '../parsing/types.ts';
import { renderAnswer } from '../render/answer.ts';
import { renderError } from '../render/errors.ts';
import { renderHelp } from '../render/help.ts';
import {
  renderPending,
  renderStillRunning,
  renderTimedOut,
  utcFallbackNote,
} from '../render/status.ts';
import type { SlackMessage } from '../render/types.ts';

export interface LookupPolicy {
  readonly progressUpdateMs: number;
  readonly timeoutMs: number;
}

export interface LookupFlowOptions {
  readonly analytics: AnalyticsApi;
  readonly logger: Logger;
  readonly policy: LookupPolicy;
  /** The clock for parsing relative dates; tests pin it. */
  readonly now?: () => Date;
}

/** What a person's text asks for, decided before anything slow happens. */
export type LookupPlan =
  | { readonly kind: 'help'; readonly message: SlackMessage }
  | { readonly kind: 'invalid'; readonly error: ParseError; readonly message: SlackMessage }
  | {
      readonly kind: 'lookup';
      readonly request: LookupRequest;
      /** Says what is being looked up; the ack, or the first post. */
      readonly pending: SlackMessage;
      readonly note: string | undefined;
    };

export interface PlanContext {
  /** The person's zone: the Slack profile zone, or UTC when it could not be read. */
  readonly zone: string;
  /** True when `zone` is a fallback; the messages then say the times are UTC. */
  readonly zoneFallback?: boolean;
  /** How the person invoked the bot (`/influencers` or nothing for DMs), for help examples. */
  readonly command?: string;
}

/** Where the flow's later messages go: response_url, chat.update, or the terminal. */
export interface LookupSink {
  /** At most once, when the lookup runs longer than `progressUpdateMs`. */
  progress(message: SlackMessage): Promise<void>;
  /** Exactly once, with the answer or the words for what went wrong. */
  finish(message: SlackMessage): Promise<void>;
}

export type LookupOutcome = 'answered' | 'failed' | 'timed_out';

export interface RunOptions {
  /** Adds the Share in channel button (ephemeral answers only). */
  readonly shareable?: boolean;
  readonly note?: string | undefined;
  /** Aborting it (shutdown) ends the lookup now with the timed-out message. */
  readonly signal?: AbortSignal;
}

/** Words for `help`; anything else is handed to the parser. */
const helpWords = new Set(['help', '?', '-h', '--help']);

/**
 * Single words that read as a command rather than a database. The grammar takes any bare word as a
 * phrase database (`diabetes`), so a verb this bot does not know would otherwise become a lookup
 * of a database that does not exist; these get the usage instead. Verbs other modules handle are
 * routed before the flow sees the text.
 */
const commandLikeWords = new Set([
  'list',
  'show',
  'status',
  'settings',
  'config',
  'version',
  'about',
  'usage',
  'commands',
  'subscribe',
  'unsubscribe',
  'schedule',
  'digest',
  'digests',
]);

export class LookupFlow {
  readonly #analytics: AnalyticsApi;
  readonly #logger: Logger;
  readonly #policy: LookupPolicy;
  readonly #now: () => Date;

  constructor(options: LookupFlowOptions) {
    this.#analytics = options.analytics;
    this.#logger = options.logger;
    this.#policy = options.policy;
    this.#now = options.now ?? (() => new Date());
  }

  /** Decides what the text asks for, fast enough to sit inside Slack's 3-second ack. */
  plan(text: string, context: PlanContext): LookupPlan {
    const trimmed = text.trim();
    const helpOptions = context.command === undefined ? {} : { command: context.command };
    const lower = trimmed.toLowerCase();
    if (
      trimmed === '' ||
      helpWords.has(lower) ||
      commandLikeWords.has(lower.split(/\s/)[0] ?? '')
    ) {
      return { kind: 'help', message: renderHelp(helpOptions) };
    }
    const parsed = this.parse(trimmed, context.zone);
    if (isParseError(parsed)) {
      if (parsed.reason === 'bad_command' || parsed.reason === 'empty') {
        return { kind: 'help', message: renderHelp(helpOptions) };
      }
      return { kind: 'invalid', error: parsed, message: renderError(parsed) };
    }
    const note = context.zoneFallback ? utcFallbackNote : undefined;
    return {
      kind: 'lookup',
      request: parsed,
      note,
      pending: renderPending(parsed, note === undefined ? {} : { note }),
    };
  }

  /** The parser's reading of `text` in `zone` at the flow's clock: a request or the reason it is not one. */
  parse(text: string, zone: string): LookupRequest | ParseError {
    return parseLookup(text, { now: this.#now(), zone });
  }

  /** The pending message for a request parsed elsewhere (the modal). */
  pending(request: LookupRequest, note?: string): SlackMessage {
    return renderPending(request, note === undefined ? {} : { note });
  }

  /** The analytics answer for a request; the client shares identical in-flight calls and caches. */
  result(request: LookupRequest, signal?: AbortSignal): Promise<InfluencersResult> {
    return this.#analytics.getInfluencers(toQuery(request), {
      deadlineMs: this.#policy.timeoutMs,
      ...(signal === undefined ? {} : { signal }),
    });
  }

  /**
   * Runs a planned lookup to its final message. Never throws: every failure becomes the renderer's
   * words for it, and unexpected ones are logged with their cause.
   */
  async run(
    request: LookupRequest,
    sink: LookupSink,
    options: RunOptions = {},
  ): Promise<LookupOutcome> {
    const startedAt = Date.now();
    const controller = new AbortController();
    const timedOut = new Error('lookup timed out');
    const onOuterAbort = () => controller.abort(timedOut);
    options.signal?.addEventListener('abort', onOuterAbort, { once: true });
    if (options.signal?.aborted) controller.abort(timedOut);

    let progressSent: Promise<void> | undefined;
    const progressTimer = setTimeout(() => {
      progressSent = sink
        .progress(renderStillRunning(request, Date.now() - startedAt))
        .catch((error: unknown) =>
          this.#logger.warn({ err: error }, 'could not send the still-running update'),
        );
    }, this.#policy.progressUpdateMs);
    const deadline = setTimeout(() => controller.abort(timedOut), this.#policy.timeoutMs);
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(timedOut), { once: true });
      if (controller.signal.aborted) reject(timedOut);
    });
    aborted.catch(() => {});

    let message: SlackMessage;
    let outcome: LookupOutcome;
    try {
      const result = await Promise.race([this.result(request, controller.signal), aborted]);
      const renderOptions = {
        shareable: options.shareable ?? false,
        ...(options.note === undefined ? {} : { note: options.note }),
      };
      message = renderAnswer(request, result, renderOptions);
      outcome = 'answered';
    } catch (error) {
      if (error === timedOut || controller.signal.aborted || isDeadline(error)) {
        this.#logger.warn({ databases: request.databases }, 'lookup timed out');
        message = renderTimedOut(request);
        outcome = 'timed_out';
      } else {
        if (isAppError(error)) {
          this.#logger.warn({ code: error.code, err: error }, 'lookup failed');
        } else {
          this.#logger.error({ err: error }, 'lookup failed unexpectedly');
        }
        message = renderError(error);
        outcome = 'failed';
      }
    } finally {
      clearTimeout(progressTimer);
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onOuterAbort);
    }
    // The still-running update must land before the answer, or it would replace it.
    if (progressSent !== undefined) await progressSent;
    try {
      await sink.finish(message);
    } catch (error) {
      this.#logger.error({ err: error }, 'could not deliver the lookup answer');
    }
    return outcome;
  }
}

/** The call's own deadline (the same budget as ours) ends it the way our timer would. */
function isDeadline(error: unknown): boolean {
  return error instanceof TimeoutError && error.phase === 'deadline';
}

export function isParseError(value: unknown): value is ParseError {
  return isAppError(value) && value.code === 'parse_error';
}

/** The analytics query for a parsed request: one place maps `top` to the service's `limit`. */
export function toQuery(request: LookupRequest): InfluencersQuery {
  return {
    databases: request.databases,
    start: request.start,
    end: request.end,
    timezone: request.timezone,
    limit: request.top,
  };
}
