/**
 * The lookup flow, shared by every surface (slash command, DM, mention, modal, local console):
 * text -> parser -> analytics -> renderer, with the progress and timeout policy. It imports nothing
 * from Bolt so the console shows exactly what Slack would show.
 */

import { selectLocally, serviceLimit } from '../analytics/local-ranking.ts';
import type { AnalyticsApi, InfluencersQuery, InfluencersResult } from '../analytics/types.ts';
import { Turns } from '../async/turns.ts';
import type { LookupPolicy } from '../config/sections.ts';
import {
  type AppError,
  type ErrorCode,
  isAppError,
  type ParseError,
  TimeoutError,
} from '../errors.ts';
import type { Logger } from '../logger.ts';
import { defined } from '../model/defined.ts';
import type { LookupRequest } from '../model/lookup.ts';
import type { SlackMessage } from '../model/message.ts';
import { defaultMetric, metricsRankedBy } from '../model/metrics.ts';
import type { Presentation } from '../model/presentation.ts';
import {
  leadingWord,
  lookupTopRange,
  parseFollowUp,
  parseLookup,
  readsAsQuestion,
  withPreviousPeriod,
} from '../parsing/index.ts';
import { type CsvFile, renderCsv } from '../render/csv.ts';
import { renderError } from '../render/errors.ts';
import { digestInConversationHint, digestVerbHint, renderHelp } from '../render/help.ts';
import type { PersonRankings } from '../render/person.ts';
import {
  renderPending,
  renderStillRunning,
  renderStoppedByPerson,
  renderStoppedByRestart,
  renderTimedOut,
  utcFallbackNote,
  zoneAliasNote,
} from '../render/status.ts';
import type { PeriodRanking } from '../render/trend.ts';
import { renderTrendCsv } from '../render/trend-csv.ts';
import {
  askPerson,
  askTrend,
  comparedWindow,
  fileOf,
  type Made,
  type Rankings,
  type RenderOptions,
  renderMade,
} from './lookup-answers.ts';
import { type WindowWatch, watched } from './window-watch.ts';

/**
 * The part of the lookup settings the flow applies: progress notice, final deadline and, when
 * given, the first day with data (the parser's default otherwise).
 */
type FlowPolicy = Pick<LookupPolicy, 'progressUpdateMs' | 'timeoutMs'> &
  Partial<Pick<LookupPolicy, 'earliestDataDate'>>;

export interface LookupFlowOptions {
  readonly analytics: AnalyticsApi;
  readonly logger: Logger;
  readonly policy: FlowPolicy;
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
  /**
   * The previous question of the conversation's thread: a follow-up (`and for #lcsm?`) keeps its
   * window and options.
   */
  readonly previous?: LookupRequest;
}

export type { CsvFile } from '../render/csv.ts';

/** Where the flow's later messages go: response_url, chat.update, or the terminal. */
export interface LookupSink {
  /** At most once, when the lookup runs longer than `progressUpdateMs`. */
  progress(message: SlackMessage): Promise<void>;
  /** Exactly once, with the answer or the words for what went wrong. */
  finish(message: SlackMessage): Promise<void>;
  /**
   * After the answer, for a lookup that asked for an export (`export`, `csv`): delivers its CSV
   * file (Slack uploads it to the person's DM or the answer's thread, the console writes it under
   * `./exports/`). Throws what went wrong; the flow says it through `notice`.
   */
  saveExport?(file: CsvFile): Promise<void>;
  /** A message after the answer: why its export did not arrive. */
  notice?(message: SlackMessage): Promise<void>;
}

export type LookupOutcome = 'answered' | 'failed' | 'timed_out' | 'stopped';

export interface RunOptions {
  /** Adds the Share in channel button (ephemeral answers only). */
  readonly shareable?: boolean;
  /** Shows the ranking this way whatever the request says (the Table and Chart buttons). */
  readonly presentation?: Presentation;
  readonly note?: string | undefined;
  /**
   * Aborting it ends the lookup now: with {@link stoppedByPerson} as its reason (the person
   * pressed Stop) saying so, with any other (shutdown) with the stopped-by-a-restart message.
   */
  readonly signal?: AbortSignal;
  /** Hears each window as it is asked for and answered. */
  readonly watch?: WindowWatch;
}

export class LookupFlow {
  readonly #analytics: AnalyticsApi;
  readonly #logger: Logger;
  readonly #policy: FlowPolicy;
  readonly #now: () => Date;
  /** Lookups that one shared answer wakes together continue a few at a time. */
  readonly #turns = new Turns();

  constructor(options: LookupFlowOptions) {
    this.#analytics = options.analytics;
    this.#logger = options.logger;
    this.#policy = options.policy;
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * True when the text gets the usage without being parsed (empty, help, a greeting, a command
   * word): the caller need not look up the person's zone for it.
   */
  asksForUsage(text: string): boolean {
    return text.trim() === '' || (leadingWord(text) !== undefined && !readsAsQuestion(text));
  }

  /** Decides what the text asks for, fast enough to sit inside Slack's 3-second ack. */
  plan(text: string, context: PlanContext): LookupPlan {
    const trimmed = text.trim();
    const followUp =
      context.previous === undefined
        ? undefined
        : this.#followUp(trimmed, context.previous, context);
    if (followUp !== undefined) return followUp;
    const helpOptions = context.command === undefined ? {} : { command: context.command };
    // "hello, who drove #bcsm?", "show me "breast cancer"": a question, whatever its first word.
    const leading = trimmed === '' || readsAsQuestion(trimmed) ? undefined : leadingWord(trimmed);
    if (trimmed === '' || leading !== undefined) {
      // A digest or watch typed in a conversation: say where digests are created.
      const elsewhere =
        leading?.kind === 'command' &&
        leading.subcommand === 'digest' &&
        context.command === undefined;
      const hint =
        leading?.kind === 'digest_verb'
          ? { hint: digestVerbHint(leading.verb, leading.rest, context.command) }
          : elsewhere
            ? { hint: digestInConversationHint(trimmed) }
            : {};
      return { kind: 'help', message: renderHelp({ ...helpOptions, ...hint }) };
    }
    return this.#planned(this.parse(trimmed, context.zone, context.command === undefined), context);
  }

  /** The plan for a follow-up to `previous`; undefined when the text does not open like one. */
  #followUp(text: string, previous: LookupRequest, context: PlanContext): LookupPlan | undefined {
    const parsed = parseFollowUp(text, previous, {
      now: this.#now(),
      zone: context.zone,
      ...defined({ earliestDate: this.#policy.earliestDataDate }),
    });
    return parsed === undefined ? undefined : this.#planned(parsed, context);
  }

  #planned(parsed: LookupRequest | ParseError, context: PlanContext): LookupPlan {
    const helpOptions = context.command === undefined ? {} : { command: context.command };
    if (isParseError(parsed)) {
      if (parsed.reason === 'bad_command' || parsed.reason === 'empty') {
        return { kind: 'help', message: renderHelp(helpOptions) };
      }
      this.#logger.info(
        { code: parsed.code, reason: parsed.reason },
        'could not read the text of a lookup',
      );
      return { kind: 'invalid', error: parsed, message: renderError(parsed) };
    }
    const notes = [
      context.zoneFallback ? utcFallbackNote : undefined,
      parsed.zoneAlias === undefined ? undefined : zoneAliasNote(parsed.zoneAlias, parsed.timezone),
    ].filter((line) => line !== undefined);
    const note = notes.length === 0 ? undefined : notes.join(' ');
    return { kind: 'lookup', request: parsed, note, pending: this.pending(parsed, note) };
  }

  /**
   * The parser's reading of `text` in `zone` at the flow's clock: a request or the reason it is
   * not one. `conversation`: the text came from a DM, a mention or the console's DM mode rather
   * than after the slash command, so a question's opening is left out and examples are bare.
   */
  parse(text: string, zone: string, conversation = false): LookupRequest | ParseError {
    return parseLookup(text, {
      now: this.#now(),
      zone,
      conversation,
      ...defined({ earliestDate: this.#policy.earliestDataDate }),
    });
  }

  /** The flow's clock: words about a window name its year only when it is not this one. */
  now(): Date {
    return this.#now();
  }

  /** The pending message for a request parsed elsewhere (the modal). */
  pending(request: LookupRequest, note?: string): SlackMessage {
    return renderPending(request, this.#statusOptions(note));
  }

  /** Status messages name the year only when the window is not in the current one. */
  #statusOptions(note?: string): { now: Date; note?: string } {
    return { now: this.#now(), ...defined({ note }) };
  }

  /**
   * The analytics answer for a request; the client shares identical in-flight calls and caches.
   * Aborting `signal` leaves the call, which stops only when no other lookup waits for it.
   */
  result(
    request: LookupRequest,
    signal?: AbortSignal,
    watch?: WindowWatch,
  ): Promise<InfluencersResult> {
    const ask = () =>
      this.#analytics
        .getInfluencers(toQuery(request), {
          deadlineMs: this.#policy.timeoutMs,
          ...defined({ signal }),
        })
        .then((result) => selectLocally(result, request, request.top));
    return watched(request, ask, watch);
  }

  /**
   * The request's ranking and, when it compares, the ranking of the window it compares with:
   * both asked at once, each through the client, so identical calls are shared and cached.
   */
  async results(
    request: LookupRequest,
    signal?: AbortSignal,
    watch?: WindowWatch,
  ): Promise<Rankings> {
    const compared = comparedWindow(request);
    if (compared === undefined) return { current: await this.result(request, signal, watch) };
    const [current, previous] = await Promise.all([
      this.result(request, signal, watch),
      this.result(compared, signal, watch),
    ]);
    return { current, previous };
  }

  /** Each period's ranking of a trend, as deep as the service goes (see `askTrend`). */
  trendRankings(
    request: LookupRequest,
    signal?: AbortSignal,
    watch?: WindowWatch,
  ): Promise<PeriodRanking[]> {
    return askTrend(request, (asked) => this.result(asked, signal, watch));
  }

  /**
   * What a person's answer is read from, at the flow's clock (see `askPerson`): the window it is
   * compared with is the previous period unless the request names another.
   * @throws ParseError when the previous period starts before the first day with data.
   */
  personRankings(
    request: LookupRequest,
    signal?: AbortSignal,
    watch?: WindowWatch,
  ): Promise<PersonRankings> {
    const compared = request.compare === undefined ? this.comparedWithPrevious(request) : request;
    if (isParseError(compared)) return Promise.reject(compared);
    return askPerson(compared, this.#now(), (asked) => this.result(asked, signal, watch));
  }

  /** Everything the answer to `request` is made from, by the kind of lookup it is. */
  async made(request: LookupRequest, signal?: AbortSignal, watch?: WindowWatch): Promise<Made> {
    if (request.trend !== undefined) {
      return { kind: 'trend', periods: await this.trendRankings(request, signal, watch) };
    }
    if (request.person !== undefined) {
      return { kind: 'person', rankings: await this.personRankings(request, signal, watch) };
    }
    return { kind: 'ranking', rankings: await this.results(request, signal, watch) };
  }

  /**
   * The answer to `request` with these options, asked now: what a button that shows it again
   * elsewhere (Share in channel) posts.
   */
  async answer(
    request: LookupRequest,
    options: RenderOptions & { readonly signal?: AbortSignal } = {},
  ): Promise<SlackMessage> {
    const { signal, ...shown } = options;
    return renderMade(request, await this.made(request, signal), shown);
  }

  /**
   * What the answer to `request` is made from (a ranking, a trend's periods or a person's
   * windows) within the flow's deadline, for surfaces that show it their own way (a Workflow
   * Builder step, an MCP tool); otherwise the words a lookup gives for what went wrong, so every surface says
   * a failure alike. Never throws.
   */
  async madeOrWords(
    request: LookupRequest,
    signal?: AbortSignal,
  ): Promise<
    | { readonly ok: true; readonly made: Made }
    | { readonly ok: false; readonly message: SlackMessage }
  > {
    try {
      return {
        ok: true,
        made: await this.#withinDeadline((bounded) => this.made(request, bounded), signal),
      };
    } catch (error) {
      return { ok: false, message: this.#failure(error, request).message };
    }
  }

  /**
   * Runs `work` until the flow's deadline or until `outer` aborts (the person's Stop, shutdown),
   * whichever comes first, without waiting for a call that ignores its signal. Throws `timedOut`,
   * `stoppedByPerson` or `restarting` when it was cut short, else what `work` threw.
   */
  async #withinDeadline<T>(
    work: (signal: AbortSignal) => Promise<T>,
    outer?: AbortSignal,
  ): Promise<T> {
    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort(timedOut), this.#policy.timeoutMs);
    const onOuterAbort = () =>
      controller.abort(outer?.reason === stoppedByPerson ? stoppedByPerson : restarting);
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    if (outer?.aborted) onOuterAbort();
    const aborted = new Promise<never>((_, reject) => {
      const stop = () => reject(controller.signal.reason);
      controller.signal.addEventListener('abort', stop, { once: true });
      if (controller.signal.aborted) stop();
    });
    aborted.catch(() => {});
    try {
      return await Promise.race([work(controller.signal), aborted]);
    } catch (error) {
      throw controller.signal.aborted ? controller.signal.reason : error;
    } finally {
      clearTimeout(deadline);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }

  /**
   * The request compared with the period of equal length just before its window (the Compare
   * button), read at the flow's clock; the ParseError when that period starts before the data.
   */
  comparedWithPrevious(request: LookupRequest): LookupRequest | ParseError {
    return withPreviousPeriod(request, {
      now: this.#now(),
      zone: request.timezone,
      ...defined({ earliestDate: this.#policy.earliestDataDate }),
    });
  }

  /**
   * The CSV file of the whole ranking (up to the service's 500) of the window `request` asks
   * about: what the Export CSV button sends.
   */
  async exportFile(request: LookupRequest, signal?: AbortSignal): Promise<CsvFile> {
    const { compare: _compare, ...asked } = request;
    // A trend's file holds every period's top N as shown: its rows are people times periods.
    if (asked.trend !== undefined) {
      return renderTrendCsv(asked, await this.trendRankings(asked, signal));
    }
    const whole = { ...asked, top: lookupTopRange.exportMax, export: true };
    return renderCsv(whole, await this.result(whole, signal));
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

    let progressSent: Promise<void> | undefined;
    const progressTimer = setTimeout(() => {
      progressSent = sink
        .progress(renderStillRunning(request, Date.now() - startedAt, this.#statusOptions()))
        .catch((error: unknown) =>
          this.#logger.warn({ err: error }, 'could not send the still-running update'),
        );
    }, this.#policy.progressUpdateMs);

    let message: SlackMessage;
    let outcome: LookupOutcome;
    let file: CsvFile | undefined;
    try {
      const made = await this.#withinDeadline(
        (signal) => this.made(request, signal, options.watch),
        options.signal,
      );
      await this.#turns.next();
      message = renderMade(shownInMessage(request), made, {
        shareable: options.shareable ?? false,
        actions: true,
        ...defined({ note: options.note, presentation: options.presentation }),
      });
      if (request.export === true && sink.saveExport !== undefined) {
        file = fileOf(request, made);
      }
      outcome = 'answered';
    } catch (error) {
      ({ outcome, message } = this.#failure(error, request));
    } finally {
      clearTimeout(progressTimer);
    }
    // The still-running update must land before the answer, or it would replace it.
    if (progressSent !== undefined) await progressSent;
    try {
      await sink.finish(message);
    } catch (error) {
      this.#logger.error({ err: error }, 'could not deliver the lookup answer');
    }
    if (file !== undefined) await this.#saveExport(file, sink);
    return outcome;
  }

  /**
   * Why a lookup ended without its ranking, logged (a person's mistake at info without a stack,
   * trouble above it), and the words for it.
   */
  #failure(
    error: unknown,
    request: LookupRequest,
  ): { outcome: Exclude<LookupOutcome, 'answered'>; message: SlackMessage } {
    if (error === stoppedByPerson) {
      this.#logger.info({ databases: request.databases }, 'lookup stopped by the person');
      return {
        outcome: 'stopped',
        message: renderStoppedByPerson(request, this.#statusOptions()),
      };
    }
    if (error === restarting) {
      this.#logger.warn({ databases: request.databases }, 'lookup stopped by the shutdown');
      return {
        outcome: 'stopped',
        message: renderStoppedByRestart(request, this.#statusOptions()),
      };
    }
    if (error === timedOut || isDeadline(error)) {
      this.#logger.warn({ databases: request.databases }, 'lookup timed out');
      return { outcome: 'timed_out', message: renderTimedOut(request, this.#statusOptions()) };
    }
    if (isPersonsMistake(error)) {
      this.#logger.info(
        { code: error.code, databases: request.databases },
        `lookup refused: ${error.code}`,
      );
    } else if (isAppError(error)) {
      this.#logger.warn({ code: error.code, err: error }, 'lookup failed');
    } else {
      this.#logger.error({ err: error }, 'lookup failed unexpectedly');
    }
    return { outcome: 'failed', message: renderError(error) };
  }

  /** Delivers an export after its answer; a failure is logged and told through `notice`. */
  async #saveExport(file: CsvFile, sink: LookupSink): Promise<void> {
    try {
      await sink.saveExport?.(file);
    } catch (error) {
      this.#logger.warn({ err: error }, 'could not deliver a CSV export');
      try {
        await sink.notice?.(renderError(error));
      } catch (notice) {
        this.#logger.warn({ err: notice }, 'could not say why the CSV export did not arrive');
      }
    }
  }
}

export type { Made, Rankings, RenderOptions } from './lookup-answers.ts';

/**
 * The request as its message shows it. An export's file holds up to 500 rows, but its message at
 * most a table's 100, and only the list's 10 when no table or chart was asked for.
 */
export function shownInMessage(request: LookupRequest): LookupRequest {
  // A trend's file holds the people its message shows, period by period.
  if (request.export !== true || request.trend !== undefined) return request;
  const max = request.presentation === undefined ? lookupTopRange.listMax : lookupTopRange.tableMax;
  return request.top <= max ? request : { ...request, top: max };
}

/**
 * Why the flow aborted its own call. Made once: an Error built per lookup costs a stack capture on
 * the path of every command.
 */
const timedOut = new Error('lookup timed out');
const restarting = new Error('lookup stopped by a restart');
/** The reason to abort a lookup's signal with when the person asked to stop it. */
export const stoppedByPerson = new Error('lookup stopped by the person');

/** The call's own deadline (the same budget as ours) ends it the way our timer would. */
function isDeadline(error: unknown): boolean {
  return error instanceof TimeoutError && error.phase === 'deadline';
}

/**
 * Errors that come from what the person asked for, in a lookup or a digest command: the answer
 * tells them how to fix it, so the logs keep a trace at info, not an alert.
 */
const personsMistakes = new Set<ErrorCode>([
  'parse_error',
  'unknown_database',
  'access_denied',
  'digest_not_found',
  'digest_permission_denied',
  'channel_unreachable',
]);

export function isPersonsMistake(error: unknown): error is AppError {
  return isAppError(error) && personsMistakes.has(error.code);
}

export function isParseError(value: unknown): value is ParseError {
  return isAppError(value) && value.code === 'parse_error';
}

/**
 * The analytics query for a parsed request: one place maps `top` to the service's `limit` and a
 * chosen metric to the service's `metric` list (that one first, which sorts the ranking, then the
 * others the answer shows); without a choice, the default metric is asked for by name.
 */
export function toQuery(request: LookupRequest): InfluencersQuery {
  return {
    databases: request.databases,
    start: request.start,
    end: request.end,
    timezone: request.timezone,
    limit: serviceLimit(request, request.top),
    metric: metricsRankedBy(request.metric ?? defaultMetric),
  };
}
