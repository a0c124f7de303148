/** Decides what a person's text asks for (the usage, a refusal or a request) before anything slow. */
import { ChoicesError, isAppError, type ParseError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import {
  leadingWord,
  parseFollowUp,
  parseLookup,
  readsAsQuestion,
  withPreviousPeriod,
} from '../../parsing/index.ts';
import { renderError } from '../../render/errors.ts';
import { renderChoices } from '../../render/lookups/choices.ts';
import {
  conferenceInConversationHint,
  digestInConversationHint,
  digestVerbHint,
  renderHelp,
} from '../../render/lookups/help.ts';
import {
  leftOutNote,
  renderPending,
  utcFallbackNote,
  zoneAliasNote,
} from '../../render/lookups/status.ts';

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
  /**
   * The person's Slack locale (`en-GB`, `en-US`), when known: whether `3/11/2026` is Nov 3 or
   * Mar 11 where the text does not say; without it such a date is asked about.
   */
  readonly locale?: string | undefined;
  /** How the person invoked the bot (`/influencers` or nothing for DMs), for help examples. */
  readonly command?: string;
  /**
   * The previous question of the DM or the conversation's thread: a follow-up (`and for #lcsm?`)
   * keeps its window and options.
   */
  readonly previous?: LookupRequest;
}

export interface LookupPlannerOptions {
  readonly logger: Logger;
  /** The clock relative dates are read at; tests pin it. */
  readonly now: () => Date;
  /** The first day with data; the parser's default when not given. */
  readonly earliestDataDate?: string | undefined;
}

/** Reads a person's text at the flow's clock, fast enough to sit inside Slack's 3-second ack. */
export class LookupPlanner {
  readonly #logger: Logger;
  readonly #now: () => Date;
  readonly #earliestDataDate: string | undefined;

  constructor(options: LookupPlannerOptions) {
    this.#logger = options.logger;
    this.#now = options.now;
    this.#earliestDataDate = options.earliestDataDate;
  }

  /**
   * True when the text gets the usage without being parsed (empty, help, a greeting, a command
   * word): the caller need not look up the person's zone for it.
   */
  asksForUsage(text: string): boolean {
    return text.trim() === '' || (leadingWord(text) !== undefined && !readsAsQuestion(text));
  }

  /** Decides what the text asks for. */
  plan(text: string, context: PlanContext): LookupPlan {
    const trimmed = text.trim();
    const followUp =
      context.previous === undefined
        ? undefined
        : this.#followUp(trimmed, context.previous, context);
    if (followUp !== undefined) return followUp;
    const helpOptions = context.command === undefined ? {} : { command: context.command };
    // A conference typed in a conversation: its leaderboard lives in a channel, so say where.
    if (context.command === undefined && /^conferences?(?:\s|$)/iu.test(trimmed)) {
      return { kind: 'help', message: renderHelp({ hint: conferenceInConversationHint(trimmed) }) };
    }
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
    const conversation = context.command === undefined;
    return this.#planned(this.parse(trimmed, context.zone, conversation, context.locale), context);
  }

  /** The plan for a follow-up to `previous`; undefined when the text does not open like one. */
  #followUp(text: string, previous: LookupRequest, context: PlanContext): LookupPlan | undefined {
    const parsed = parseFollowUp(text, previous, {
      now: this.#now(),
      zone: context.zone,
      ...defined({ earliestDate: this.#earliestDataDate, locale: context.locale }),
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
      const message =
        parsed instanceof ChoicesError
          ? renderChoices(
              parsed,
              parsed.readings.map((reading) => {
                const read = this.parse(reading.command, context.zone, true, context.locale);
                return isParseError(read) ? undefined : read;
              }),
            )
          : renderError(parsed);
      return { kind: 'invalid', error: parsed, message };
    }
    const notes = [
      context.zoneFallback ? utcFallbackNote : undefined,
      parsed.zoneAlias === undefined ? undefined : zoneAliasNote(parsed.zoneAlias, parsed.timezone),
      parsed.leftOut === undefined ? undefined : leftOutNote(parsed.leftOut),
    ].filter((line) => line !== undefined);
    const note = notes.length === 0 ? undefined : notes.join(' ');
    return { kind: 'lookup', request: parsed, note, pending: this.pending(parsed, note) };
  }

  /**
   * The parser's reading of `text` in `zone` at the flow's clock: a request or the reason it is
   * not one. `conversation`: the text came from a DM, a mention or the console's DM mode rather
   * than after the slash command, so a question's opening is left out and examples are bare.
   */
  parse(
    text: string,
    zone: string,
    conversation = false,
    locale?: string,
  ): LookupRequest | ParseError {
    return parseLookup(text, {
      now: this.#now(),
      zone,
      conversation,
      ...defined({ earliestDate: this.#earliestDataDate, locale }),
    });
  }

  /** The pending message for a request parsed elsewhere (the modal). */
  pending(request: LookupRequest, note?: string): SlackMessage {
    return renderPending(request, statusOptions(this.#now(), note));
  }

  /**
   * The request compared with the period of equal length just before its window (the Compare
   * button), read at the flow's clock; the ParseError when that period starts before the data.
   */
  comparedWithPrevious(request: LookupRequest): LookupRequest | ParseError {
    return withPreviousPeriod(request, {
      now: this.#now(),
      zone: request.timezone,
      ...defined({ earliestDate: this.#earliestDataDate }),
    });
  }
}

/** Status messages name the year only when the window is not in the current one. */
export function statusOptions(now: Date, note?: string): { now: Date; note?: string } {
  return { now, ...defined({ note }) };
}

export function isParseError(value: unknown): value is ParseError {
  return isAppError(value) && value.code === 'parse_error';
}
