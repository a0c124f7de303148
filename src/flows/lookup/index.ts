/** The lookup flow every surface shares: plan, run and answer composed as `LookupFlow`. */

import type { AnalyticsApi, InfluencersResult } from '../../analytics/types.ts';
import { Turns } from '../../async/turns.ts';
import type { LookupPolicy } from '../../config/sections.ts';
import type { ParseError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import type { Presentation } from '../../model/presentation.ts';
import { lookupTopRange } from '../../parsing/index.ts';
import { renderError } from '../../render/errors.ts';
import { type CsvFile, renderCsv } from '../../render/lookups/csv.ts';
import type { PersonRankings } from '../../render/lookups/person.ts';
import type { PeriodRanking } from '../../render/lookups/trend.ts';
import { renderTrendCsv } from '../../render/lookups/trend-csv.ts';
import type { WindowWatch } from '../window-watch.ts';
import {
  failureReply,
  fileOf,
  type LookupOutcome,
  type RenderOptions,
  renderMade,
  shownInMessage,
} from './answer.ts';
import { type LookupPlan, LookupPlanner, type PlanContext } from './plan.ts';
import { LookupRunner, type Made, type Rankings } from './run.ts';

export type { CsvFile } from '../../render/lookups/csv.ts';
export {
  isPersonsMistake,
  type LookupOutcome,
  type RenderOptions,
  renderMade,
  shownInMessage,
} from './answer.ts';
export { isParseError, type LookupPlan, type PlanContext } from './plan.ts';
export { type Made, type Rankings, stoppedByPerson, toQuery } from './run.ts';

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

/**
 * The lookup flow, shared by every surface (slash command, DM, mention, modal, local console,
 * MCP): text -> plan -> run -> answer, with the progress and timeout policy. It imports nothing
 * from Bolt so the console shows exactly what Slack would show.
 */
export class LookupFlow {
  readonly #logger: Logger;
  readonly #now: () => Date;
  readonly #planner: LookupPlanner;
  readonly #runner: LookupRunner;
  /** Lookups that one shared answer wakes together continue a few at a time. */
  readonly #turns = new Turns();

  constructor(options: LookupFlowOptions) {
    const { analytics, logger, policy } = options;
    const now = options.now ?? (() => new Date());
    this.#logger = logger;
    this.#now = now;
    this.#planner = new LookupPlanner({ logger, now, earliestDataDate: policy.earliestDataDate });
    this.#runner = new LookupRunner({
      analytics,
      logger,
      planner: this.#planner,
      now,
      progressUpdateMs: policy.progressUpdateMs,
      timeoutMs: policy.timeoutMs,
    });
  }

  /**
   * True when the text gets the usage without being parsed (empty, help, a greeting, a command
   * word): the caller need not look up the person's zone for it.
   */
  asksForUsage(text: string): boolean {
    return this.#planner.asksForUsage(text);
  }

  /** Decides what the text asks for, fast enough to sit inside Slack's 3-second ack. */
  plan(text: string, context: PlanContext): LookupPlan {
    return this.#planner.plan(text, context);
  }

  /**
   * The parser's reading of `text` in `zone` at the flow's clock: a request or the reason it is
   * not one. `conversation`: the text came from a DM, a mention or the console's DM mode rather
   * than after the slash command, so a question's opening is left out and examples are bare.
   * `locale`: the person's Slack locale, for numeric dates the text leaves open.
   */
  parse(
    text: string,
    zone: string,
    conversation = false,
    locale?: string,
  ): LookupRequest | ParseError {
    return this.#planner.parse(text, zone, conversation, locale);
  }

  /** The flow's clock: words about a window name its year only when it is not this one. */
  now(): Date {
    return this.#now();
  }

  /** The pending message for a request parsed elsewhere (the modal). */
  pending(request: LookupRequest, note?: string): SlackMessage {
    return this.#planner.pending(request, note);
  }

  /**
   * The request compared with the period of equal length just before its window (the Compare
   * button), read at the flow's clock; the ParseError when that period starts before the data.
   */
  comparedWithPrevious(request: LookupRequest): LookupRequest | ParseError {
    return this.#planner.comparedWithPrevious(request);
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
    return this.#runner.result(request, signal, watch);
  }

  /** The request's ranking and, when it compares, the ranking of the window it compares with. */
  results(request: LookupRequest, signal?: AbortSignal, watch?: WindowWatch): Promise<Rankings> {
    return this.#runner.results(request, signal, watch);
  }

  /** Each period's ranking of a trend, as deep as the service goes. */
  trendRankings(
    request: LookupRequest,
    signal?: AbortSignal,
    watch?: WindowWatch,
  ): Promise<PeriodRanking[]> {
    return this.#runner.trendRankings(request, signal, watch);
  }

  /**
   * What a person's answer is read from, at the flow's clock.
   * @throws ParseError when the previous period starts before the first day with data.
   */
  personRankings(
    request: LookupRequest,
    signal?: AbortSignal,
    watch?: WindowWatch,
  ): Promise<PersonRankings> {
    return this.#runner.personRankings(request, signal, watch);
  }

  /** Everything the answer to `request` is made from, by the kind of lookup it is. */
  made(request: LookupRequest, signal?: AbortSignal, watch?: WindowWatch): Promise<Made> {
    return this.#runner.made(request, signal, watch);
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
   * Builder step, an MCP tool); otherwise the words a lookup gives for what went wrong, so every
   * surface says a failure alike. Never throws.
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
        made: await this.#runner.withinDeadline((bounded) => this.made(request, bounded), signal),
      };
    } catch (error) {
      return {
        ok: false,
        message: failureReply(error, request, this.#now(), this.#logger).message,
      };
    }
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
    const progress = this.#runner.progress(request, (message) => sink.progress(message));
    let progressSent: Promise<void> | undefined;
    let message: SlackMessage;
    let outcome: LookupOutcome;
    let file: CsvFile | undefined;
    try {
      const made = await this.#runner.withinDeadline(
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
      ({ outcome, message } = failureReply(error, request, this.#now(), this.#logger));
    } finally {
      progressSent = progress.stop();
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
