/**
 * The digest commands: what follows `/influencers` when it starts with `digest`, `digests` or
 * `watch` (the words of `subcommands.ts`).
 *
 * - `digests` (or `digest list`): this channel's digests.
 * - `digest` alone, `digest help`: how to create one.
 * - `digest pause|resume|remove|run <id>`: act on one digest by its id; `digestVerbs` lists the
 *   other words for each action. `digest history <id>`: its latest runs.
 * - `digest <databases> <schedule> [window] [top N] [in <zone>]`: create one, in that order: a
 *   plain word or number after the schedule starts is refused (`every monday at 9 30`, `… please`),
 *   and a phrase before it may not hold schedule or time words (see `reserved.ts`); hashtags,
 *   quoted phrases and groups are databases wherever they stand. The schedule is in
 *   words (see `schedule/grammar.ts`) or `cron "<five fields>"`; the window counts back from each
 *   run (`last 24 hours`, `past 7 days`, `last 2 weeks`) and defaults to the time since the
 *   previous run; the zone defaults to the creator's. A cron expression takes the cadence the
 *   schedule math's `inferCadence` reads from it, so `cron "0 9 * * 1"` behaves as `every monday at 9am`.
 */

import { ParseError } from '../errors.ts';
import { type DigestAction, digestVerbs } from '../model/commands.ts';
import { defined } from '../model/defined.ts';
import type { CronSchedule, DigestWindow, PostWhen, Presentation } from '../model/digest.ts';
import { normalizeDigestId } from '../model/digest.ts';
import type { Metric } from '../model/metrics.ts';
import type { StakeholderFilter } from '../model/stakeholders.ts';
import { resolveZone } from '../time/zone-names.ts';
import { fitAdvice } from './advice.ts';
import { uniqueDatabases } from './databases.ts';
import { buildSchedule, collectClauses, digestClauses, digestWindow } from './digest-clauses.ts';
import { type DigestEdit, readEdit } from './digest-edit.ts';
import { scanCommand } from './grammar.ts';
import { boundedText } from './limits.ts';
import { lookupDefaults } from './lookup.ts';
import { digestErrors, forDigest } from './messages/digest.ts';
import { parseErrors } from './messages/lookup.ts';
import { personErrors } from './messages/trend.ts';
import { matchPerson } from './person.ts';
import type { ScheduleClause } from './schedule/clause.ts';
import { subcommandNamed } from './subcommands.ts';
import { isSlipOf } from './time/misspelt.ts';
import { lowerAt, type Token, tokenize } from './tokens.ts';

export interface DigestSpec {
  /** Analytics `databases` items in the creator's order, duplicates dropped. */
  readonly databases: readonly string[];
  readonly schedule: CronSchedule;
  readonly window: DigestWindow;
  readonly top: number;
  /** The schedule's zone, repeated for callers that do not look inside the schedule. */
  readonly zone: string;
  /** When a run posts; `always` unless the command says `only when changed` or `only new`. */
  readonly postWhen: PostWhen;
  /** `by impressions`: the metric runs rank by; the service's own order without it. */
  readonly metric?: Metric;
  /** `with table`, `with chart`; `list` by default. */
  readonly presentation: Presentation;
  /**
   * `watch @DrFerreiraI in #hcsm`: the one account the watch follows, without its `@`; it then
   * posts to its creator's DM when that account enters or leaves the top N.
   */
  readonly account?: string;
  /** `canvas`: keep a canvas in the channel, rewritten after each post. */
  readonly canvas?: boolean;
  /** `doctors`, `no pharma`: who the ranking keeps, among the service's top 500. */
  readonly stakeholders?: StakeholderFilter;
  /** `by followers`: the top 500 by the metric, ranked here by followers. */
  readonly orderBy?: 'followers';
  /** `to me`: delivered to its creator's DM with the app, wherever it was typed. */
  readonly toMe?: true;
}

export type DigestCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'list' }
  | { readonly kind: DigestAction | 'history'; readonly id: string }
  | { readonly kind: 'edit'; readonly id: string; readonly edit: DigestEdit }
  | {
      readonly kind: 'create';
      readonly spec: DigestSpec;
      /**
       * What the grammar decided for the creator (no time given: 09:00; a 31st skipped in short
       * months), for the confirmation to say.
       */
      readonly notes: readonly string[];
    };

export interface DigestParseContext {
  /** The reference instant, for validating the schedule; parsing never reads the clock. */
  readonly now: Date;
  /** The creator's Slack zone, used unless the text names one. IANA name or UTC. */
  readonly zone: string;
  /** Default 10, as for lookups. */
  readonly maxDatabases?: number;
  /** Default 10, as for lookups. */
  readonly defaultTop?: number;
}

/**
 * Reads a digest command (the slash command's raw `text`, starting with `digest` or `digests`).
 * Returns the ParseError rather than throwing it, so callers cannot forget the case; the schedule
 * is already validated by the engine at `context.now`, so a bad one fails now, not at 9:00 on
 * Monday.
 */
export function parseDigestCommand(
  text: string,
  context: DigestParseContext,
): DigestCommand | ParseError {
  if (Number.isNaN(context.now.getTime())) {
    throw new RangeError('parseDigestCommand needs a valid `now`');
  }
  let bounded = '';
  try {
    bounded = boundedText(text);
    return readDigestCommand(bounded, context);
  } catch (error) {
    if (error instanceof ParseError) return fitted(error, bounded, context);
    throw error;
  }
}

/** A digest command's error, its closing command the person's own with the fix applied. */
function fitted(error: ParseError, text: string, context: DigestParseContext): ParseError {
  const reads = (command: string): boolean => {
    try {
      readDigestCommand(command, context);
      return true;
    } catch (error) {
      if (error instanceof ParseError) return false;
      throw error;
    }
  };
  return fitAdvice(forDigest(error), text, [], { conversation: false, reads });
}

/**
 * `parseDigestCommand` without the length bound: `text` already normalised and trimmed, of any
 * length. Tests hold the grammar's own cost linear in the text it reads with it.
 */
export function readDigestText(
  text: string,
  context: DigestParseContext,
): DigestCommand | ParseError {
  try {
    return readDigestCommand(text, context);
  } catch (error) {
    if (error instanceof ParseError) return fitted(error, text, context);
    throw error;
  }
}

/**
 * True when `text` would create a digest: only then does its meaning depend on the creator's zone,
 * so a surface can skip asking Slack for it (and parse once) for every other command.
 */
export function createsDigest(text: string): boolean {
  let tokens: Token[];
  try {
    tokens = tokenize(boundedText(text));
  } catch (error) {
    // Too long, or a quote never closed: the parse that follows refuses it, in no zone.
    if (error instanceof ParseError) return false;
    throw error;
  }
  const verb = lowerAt(tokens, 0);
  const next = tokens[1];
  if (verb === 'watch') return next !== undefined && !isHelp(tokens.slice(1));
  if (!opensDigest(verb) || next === undefined) return false;
  if (next.kind !== 'word') return true;
  if (tokens.length === 2 && (next.lower === 'help' || next.lower === '?')) return false;
  const action = digestVerbs.get(next.lower);
  return action === undefined || action === 'create';
}

function readDigestCommand(text: string, context: DigestParseContext): DigestCommand {
  const tokens = tokenize(text);
  const verb = lowerAt(tokens, 0);
  if (verb === 'watch') {
    const body = tokens.slice(1);
    if (body.length === 0 || isHelp(body)) return { kind: 'help' };
    return readCreate(text, body, body[0]?.from ?? text.length, context, 'watch');
  }
  if (!opensDigest(verb)) throw digestErrors.notDigestCommand(tokens[0]?.text ?? text);
  const rest = tokens.slice(1);
  const first = lowerAt(rest, 0);
  if (rest.length === 0) return verb === 'digests' ? { kind: 'list' } : { kind: 'help' };
  if (rest.length === 1 && (first === 'help' || first === '?')) return { kind: 'help' };
  const action = first === undefined ? undefined : digestVerbs.get(first);
  if (action === 'list') return readList(text, tokens);
  if (action === 'edit') return readEdit(text, tokens);
  if (action !== undefined && action !== 'create') return readAction(text, tokens, action);
  const body = action === 'create' ? rest.slice(1) : rest;
  const start = body[0]?.from ?? text.length;
  // Offsets stay those of the whole text, so fragments quote exactly what was typed.
  try {
    return readCreate(text, body, start, context, 'digest');
  } catch (error) {
    // "digest cancer every monday" reads; "digest pasue 3" does not, and is a slip of a verb.
    if (action === undefined && first !== undefined && rest.length <= 2) {
      refuseVerbSlip(first, rest[0] as Token);
    }
    throw error;
  }
}

/**
 * `digest pasue 3`, which reads as no digest: a slip of a verb (before an ID at most) is the verb,
 * never a database.
 * @throws ParseError offering the verb, for the person's own command with it.
 */
function refuseVerbSlip(word: string, token: Token): void {
  if (word.length < 3) return;
  const verb = [...digestVerbs.keys()].find((known) => isSlipOf(word, known));
  if (verb !== undefined) throw parseErrors.didYouMean(token.text, verb, 'unrecognised');
}

/** A word that opens a digest command (`subcommands.ts`); `watch` reads apart before this. */
function opensDigest(word: string | undefined): boolean {
  return word !== undefined && subcommandNamed(word) === 'digest';
}

/** `help` or `?` alone. */
function isHelp(tokens: readonly Token[]): boolean {
  const word = lowerAt(tokens, 0);
  return tokens.length === 1 && (word === 'help' || word === '?');
}

/** A watch without a schedule checks every hour (daily when only a time is given). */
const watchSchedule: ScheduleClause = {
  days: { kind: 'hourly', every: 1 },
  time: undefined,
  timeFragment: undefined,
  morning: false,
};

/**
 * The account a watch names first (`watch @DrFerreiraI in #hcsm`), with its `in`; undefined when
 * it names none.
 * @throws ParseError for a digest naming one: following one account is what a watch does.
 */
function accountFirst(body: readonly Token[], kind: 'digest' | 'watch') {
  let person: ReturnType<typeof matchPerson>;
  try {
    person = matchPerson(body, 0);
  } catch (error) {
    // The handle's words, closing on a watch rather than on a lookup.
    if (!(error instanceof ParseError) || error.fragment === undefined) throw error;
    throw personErrors.badHandle(error.fragment, 'watch @DrFerreiraI in #hcsm');
  }
  if (person !== undefined && kind === 'digest') throw personErrors.watchOnly(person.value);
  return person;
}

function readList(text: string, tokens: readonly Token[]): DigestCommand {
  const extra = tokens[2];
  if (extra === undefined) return { kind: 'list' };
  const command = text.slice(0, tokens[1]?.to ?? text.length);
  const fragment = text.slice(extra.from);
  throw digestErrors.listTakesNothing(command, fragment);
}

function readAction(
  text: string,
  tokens: readonly Token[],
  action: DigestAction | 'history',
): DigestCommand {
  const command = text.slice(0, tokens[1]?.to ?? text.length);
  const verb = tokens[1]?.lower ?? action;
  const idToken = tokens[2];
  if (idToken === undefined) throw digestErrors.missingId(command, verb);
  if (tokens.length > 3) throw digestErrors.extraAfterId(command, text.slice(idToken.from), verb);
  const id = normalizeDigestId(idToken.text.replace(/[`'*]/g, ''));
  if (id === undefined) throw digestErrors.notAnId(idToken.text, verb);
  return { kind: action, id };
}

/**
 * A new digest, or a watch: a digest that posts only when someone new enters the top N, every
 * hour unless its command names a schedule.
 */
function readCreate(
  text: string,
  body: readonly Token[],
  start: number,
  context: DigestParseContext,
  kind: 'digest' | 'watch',
): DigestCommand {
  // `watch @DrFerreiraI in #hcsm`: one account, named first (`person.ts`).
  const person = accountFirst(body, kind);
  const scan = scanCommand(
    text,
    person === undefined ? body : body.slice(person.next),
    digestClauses,
    {
      quotedExample: (phrase) =>
        kind === 'watch' ? `watch "${phrase}" top 10` : `digest "${phrase}" every monday at 9am`,
    },
  );
  const found = collectClauses(scan.clauses);
  const {
    time,
    window,
    zone,
    top,
    postWhen,
    metric,
    presentation,
    canvas,
    orderBy,
    stakeholders,
    toMe,
  } = found;
  let { schedule } = found;
  const databases = uniqueDatabases(
    scan.databases,
    context.maxDatabases ?? lookupDefaults.maxDatabases,
  );
  if (databases.length === 0) throw digestErrors.noDatabase(text.slice(start), kind);
  if (toMe && canvas === true && kind !== 'watch') throw digestErrors.personalCanvas();
  if (kind === 'watch') {
    if (canvas !== undefined) throw digestErrors.watchCanvas();
    if (postWhen !== undefined && postWhen.value !== 'new') {
      throw digestErrors.watchCondition(postWhen.fragment);
    }
    // `watch #hcsm at 9am` checks daily at that time; without a time, every hour.
    schedule ??= {
      value: time === undefined ? watchSchedule : { ...watchSchedule, days: { kind: 'daily' } },
      fragment: time?.fragment ?? '',
    };
  }
  if (schedule === undefined) {
    throw digestErrors.noSchedule(scan.databases.map((item) => item.fragment).join(', '));
  }
  // After the schedule only clauses may follow: a stray word or number there ("at 9 30",
  // "please") is a misread schedule, not a database.
  const scheduleFrom =
    scan.clauses.find((clause) => clause.kind === 'schedule')?.from ?? text.length;
  const stray = scan.databases.find((item) => item.plain && item.from > scheduleFrom);
  if (stray !== undefined) throw digestErrors.afterSchedule(stray.fragment);

  const scheduleZone = zone ?? resolveZone(context.zone) ?? 'UTC';
  const built = buildSchedule(schedule, time, scheduleZone, context.now);
  return {
    kind: 'create',
    spec: {
      databases,
      schedule: built.schedule,
      window:
        window === undefined
          ? { kind: 'since-previous-run' }
          : digestWindow(window.value, window.fragment),
      top: top ?? context.defaultTop ?? lookupDefaults.top,
      zone: scheduleZone,
      postWhen: kind === 'watch' ? 'new' : (postWhen?.value ?? 'always'),
      ...defined({
        metric: metric === 'default' ? undefined : metric,
        account: person?.value,
        stakeholders: stakeholders === 'everyone' ? undefined : stakeholders,
        orderBy,
        toMe: toMe ? (true as const) : undefined,
      }),
      presentation: presentation ?? 'list',
      ...(canvas === true ? { canvas } : {}),
    },
    notes: built.notes,
  };
}
