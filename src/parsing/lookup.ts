/**
 * The `/influencers` lookup grammar: `<databases> [time window] [vs <window>] [by <metric>] [in
 * <zone>] [top N] [table | chart | chart categories] [export]`, in any order, -> the request sent
 * to the analytics service.
 *
 * Decisions people meet (the tests hold each):
 * - `past week`, `this past week`: the last 7 days to now; `last week` is the previous ISO week.
 * - `last weekend`: Saturday 00:00 to Monday 00:00 of the most recent weekend that has ended;
 *   `this weekend`: the current week's, to now. `last fortnight`: the last 14 days.
 * - Whole days: a range ends with the end of what its end names, whatever joins the ends (`to`,
 *   `until`, `through`, a dash, `and`): `Oct 1 to Oct 31` holds all of Oct 31, `Jan-Mar` all of
 *   March, `from 2026-11-01 to 2026-11-01` that one day. An end with a time of day, `now`, an
 *   `N units ago` or unix seconds is that exact instant.
 * - Backwards ranges are refused: a yearless end goes into the next year only when its month comes
 *   round again (`Dec 20 to Jan 5`), never to rescue `Nov 15 to Nov 1`.
 * - `week of Nov 9`: that ISO week. `in 2025`, `during 2025`, `since 2025`: that year; a lone
 *   bare number stays a database ID (`#hcsm 4711`), but one that can be a year (`#hcsm 2026`) is
 *   asked about: `in 2026` for the year, `"2026"` for the ID.
 * - `the last week of October`, `the first week of November`: its last or first seven days.
 *   `since the start of the week` (month, quarter, year; `beginning`, `last month`): from that
 *   period's start to now. `last few days`, `past several weeks`, `recently`, `lately` have no
 *   agreed length: refused with windows to choose from; `last couple of days` is two.
 * - `<N units> through <end>` (`last 7 days through yesterday`): the N units before that end.
 *   `<period> to date` (`last month to date`): from its start to now. `until yesterday` with no
 *   start is refused.
 * - Times of day on both ends share a day named after them (`between 9am and 5pm yesterday`);
 *   without one they are today's, as `this afternoon` is (`noon to 2pm`, `from 10pm to 2am`),
 *   the end read forward from the start, and refused while they start later today.
 * - An offset after a date-time wins over the zone (`Sep 9 2026 14:05 GMT`, `2pm +02:00`).
 * - Parts of the day have stated hours (`partsOfDay`): morning 06-12, afternoon 12-18, evening
 *   18-24, night 18-06 (`this morning`, `yesterday afternoon`, `last night`); `tonight` and
 *   `overnight` are refused: give the hours.
 * - `within`, `prior` and `preceding` read as `in` and `previous`; `all time` and `right now` are
 *   refused with windows to choose from; `top posts` is refused: the ranking is of people.
 * - A word the app knows is never part of a database (`vocabulary.ts`): a bare one is read for
 *   what it is (`excel`, `download`, `as csv` -> the export; `bar chart` -> the chart; `pie chart`
 *   -> chart categories; `most retweeted`, `retweets` -> by retweets; `by reach` -> by
 *   impressions), or refused saying what it would mean and what can be asked today (`doctors`, `by
 *   followers`, `by likes`, `weekly`, `recently`; `by engagement`, which blends several counts,
 *   with the person's command by each of them); an unquoted phrase holding one is refused, to be
 *   quoted (`"excel training"`). Fillers and politeness are left out (`#hcsm top influencers last
 *   week please`), and `by` always names a ranking.
 * - To date, spelled out or not: `mtd`, `month to date`, `month-to-date`, `this month so far`
 *   (week, quarter and year alike: `wtd`, `qtd`, `ytd`).
 * - More periods: ISO weeks in any spelling (`2026-W46`, `2026W46`, `W46`, `week46`, `wk 46
 *   2025`, `CW46`), halves (`H1 2026`, `first half of 2026`), `the week before last` (and month,
 *   quarter, year), `the day before yesterday`.
 * - Two times after a day joined by a dash are a window of that day (`today 8:00-12:00`, `Nov 15
 *   21:00 – 22:00`), the second read forward from the first.
 * - Numeric dates are month first (`3/4/26` is March 4) unless the first number cannot be a
 *   month (`23/11/2026`), and one range keeps one convention: an end that proves day first makes
 *   both ends day first (`1/11/2026 to 15/11/2026` is Nov 1 to Nov 15), and a range written day
 *   first on one end and month first on the other is refused; the reply shows the dates read.
 *   Where only the day-first reading keeps the ends in one month (`3/11/2026 to 10/11/2026`) the
 *   person's locale decides, else the reply asks, one command a reading (`date-order-choice.ts`). A
 *   month abbreviation alone is the month (`Oct`), as its full name is.
 * - Windows counted back from now end at the current minute; a window starting before the first
 *   day with data (`context.earliestDate`) is refused.
 * - `vs previous` is the period of equal length just before the window, `vs last year` the same
 *   window a year earlier, `vs previous 7 days` (`vs the previous month`, `vs the week before`)
 *   that many units before the window (`compare.ts`); a window compared with itself (`last week
 *   vs last week`) is refused. `by reach` ranks by impressions.
 * - Counts in digits or words (`top 5`, `top ten`, `top twenty-five`, `top a hundred`, `10
 *   influencers`), before or after the databases (`top 5 for #pharma this month`).
 * - `table`, `chart` (`graph`), `chart categories` show the ranking that way; one of them at most.
 *   `top` over 10 asks for the table (up to 100); a bar chart shows at most 10. `export` (`csv`)
 *   adds the CSV file: the whole ranking (500 rows, the service's most), or `top N` up to 500.
 * - Zones by abbreviation (`EST`; `ET`, `PT`, `CT`, `MT` apart from a phrase), city, state or
 *   country, short name (`NYC`, `LA`, `SF`, `DC`) or spoken name (`Eastern`, `US Eastern`,
 *   `Pacific time`, `London time`), alone or after `in`/`tz` (`options.ts`, `zone-places.ts`);
 *   the request keeps the name typed so the answer can say how it was read. `UTC+2`, `GMT-3`,
 *   `UTC+5:30` are fixed offsets (a zone that keeps the offset all year, `Etc/GMT-2`), said so in
 *   the answer. A name places in several zones share (`Springfield`, `Washington`) is refused
 *   with its zones, never guessed: a name is one place's when it has three times the people of
 *   the others. The console's `--tz` reads zones the same way (`readZoneName`).
 * - Read by slots (`slots.ts`): beside a database that says it is one (`#lcsm`, quotes, `group:`)
 *   the request's scaffolding is dropped wherever it stands (`who got the most mentions in #lcsm
 *   last week?`, `where does @x rank in #hcsm?`, `#bcsm nurses only`), and loose words no name
 *   holds are left out and named in the answer (`leftOut`). Profile addresses are handles,
 *   full-width hashtags the hashtag (`tokens.ts`).
 * - A question's opening is left out (`who drove #hcsm last week?`), after the slash command as
 *   in a conversation: every surface reads a question alike (`question.ts`).
 * - Text over 1,000 characters is refused unread, saying the limit and its length (`limits.ts`),
 *   in every grammar; below it a command costs time linear in its length (no reading nests more
 *   than a few prefixes deep, `moment.ts`).
 * - Errors close on the person's own command with the one fix the error names applied (a slip
 *   corrected, a repeated option or a second window left out, a count brought within its limits,
 *   a range's ends swapped, a zone replaced, a phrase quoted), offered only when that command
 *   reads; else the error's example with their databases; without the slash command in a
 *   conversation (`advice.ts`). `group:Digital Health` says the group's name needs quotes.
 */
import { ParseError } from '../errors.ts';
import { defined } from '../model/defined.ts';
import {
  earliestDataDate,
  type LookupRequest,
  type ParseContext,
  type ParseDefaults,
  type TrendUnit,
} from '../model/lookup.ts';
import type { Metric } from '../model/metrics.ts';
import type { Presentation } from '../model/presentation.ts';
import type { StakeholderFilter } from '../model/stakeholders.ts';
import { resolveZone } from '../time/zone-names.ts';
import { fitAdvice } from './advice.ts';
import { type Comparison, comparisonWindow, impliedWindow, matchComparison } from './compare.ts';
import { contradictoryFilters, type StakeholderClause } from './contradictions.ts';
import { type DatabaseItem, uniqueDatabases } from './databases.ts';
import { dateOrderChoice } from './date-order-choice.ts';
import { type Clauses, scanCommand } from './grammar.ts';
import {
  checkStakeholders,
  type KnownWord,
  matchKnownWord,
  matchLookupRanking,
  matchStakeholders,
} from './known-words.ts';
import { boundedText } from './limits.ts';
import { parseErrors } from './messages/lookup.ts';
import { dateOrderChoices, handleChoices, unreadWindow } from './messages/slots.ts';
import { personErrors } from './messages/trend.ts';
import {
  lookupTopRange,
  matchLookupTop,
  matchShowOption,
  matchZoneOption,
  type ShowOption,
  zoneAlias,
} from './options.ts';
import { checkPersonOptions, matchPerson } from './person.ts';
import { leadIn } from './question.ts';
import { isReservedWord, rangeWords } from './reserved.ts';
import { firstStatement, namesMarkedDatabase, slotTokens, splitLeftovers } from './slots.ts';
import {
  checkEarliest,
  defaultTimeWindow,
  evaluateTimeExpression,
  formatInstant,
  matchTimeExpression,
  rejectMisspeltTime,
  type TimeExpression,
} from './time/index.ts';
import { periodHint } from './time/previous-period.ts';
import { type Token, tokenize } from './tokens.ts';
import { checkTrendOptions, matchTrend, trendWindow } from './trend.ts';

export const lookupDefaults: Required<ParseDefaults> = { windowDays: 7, top: 10, maxDatabases: 10 };

interface LookupClauses {
  person: string;
  zone: string;
  top: number;
  compare: Comparison;
  metric: Metric | 'followers';
  show: ShowOption;
  trend: TrendUnit;
  stakeholders: StakeholderFilter;
  time: TimeExpression;
  known: KnownWord;
  misspeltTime: never;
}

/**
 * The tokens without a question's opening (`who drove`, `hello, show me`), left out wherever the
 * question is typed: after the slash command, in the modal, in a DM or to the CLI alike.
 */
function withoutQuestion(tokens: readonly Token[]): Token[] {
  const { drop } = leadIn(tokens);
  if (drop.length === 0) return [...tokens];
  const dropped = new Set(drop);
  return tokens.filter((_, i) => !dropped.has(i));
}

/**
 * Order matters: `in Europe/Paris` is a zone before `in September` can be a time, and `vs last
 * year` a comparison before `last year` can be the window.
 */
const lookupClauses: Clauses<LookupClauses> = {
  // `@x in #hcsm`: the person's `in` before a database, before `in` can be a zone.
  person: matchPerson,
  zone: matchZoneOption,
  top: matchLookupTop,
  compare: matchComparison,
  // `by week` is a trend, and `by doctors` who people are, before `by` can be a metric.
  trend: matchTrend,
  stakeholders: matchStakeholders,
  metric: matchLookupRanking,
  show: matchShowOption,
  time: matchTimeExpression,
  known: matchKnownWord,
  misspeltTime: rejectMisspeltTime,
};

/**
 * Reads a lookup typed in Slack (raw `text` of the slash command) at `context.now`. The zone is
 * the one the text names, else `context.zone` (the user's Slack zone) when it is a real zone,
 * else UTC. Returns the ParseError rather than throwing it, so callers cannot forget the case.
 *
 * Unquoted phrase databases may not hold the grammar's own words (`reserved.ts`): `cancer in
 * children` is refused with a message saying to quote it, because a time or zone clause that
 * failed to read would otherwise become a database and the answer would cover the wrong window.
 * Every instant of the window is checked to lie within the years 1 to 9999, and the window to
 * start on or after `context.earliestDate`. Windows counted back from now end at the current
 * minute, so identical questions within a minute are identical requests.
 * @throws RangeError when `context.now` is an invalid Date: that is the caller's mistake, not the
 *   person's, so it is not answered as a ParseError.
 */
export function parseLookup(text: string, context: ParseContext): LookupRequest | ParseError {
  if (Number.isNaN(context.now.getTime())) throw new RangeError('parseLookup needs a valid `now`');
  let bounded: string;
  try {
    bounded = boundedText(text);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    return fitAdvice(error, '', [], { conversation: context.conversation === true });
  }
  const dated = dateOrderChoice(bounded, context.locale);
  if ('text' in dated) return readLookupText(dated.text, context);
  const readings = dated.readings.filter(
    (reading) => !(readLookupText(reading.command, context) instanceof ParseError),
  );
  const only = readings.length === 1 ? readings[0] : undefined;
  if (only !== undefined) return readLookupText(only.command, context);
  if (readings.length === 0) return readLookupText(bounded, context);
  return dateOrderChoices(dated.fragment, readings, context.conversation === true);
}

/**
 * `parseLookup` without the length bound: `text` already normalised and trimmed, of any length.
 * Tests hold the grammar's own cost linear in the text it reads with it.
 */
export function readLookupText(text: string, context: ParseContext): LookupRequest | ParseError {
  return readFitted(text, context, true);
}

/** `fit`: the error's closing command is fitted to the person, checked by a parse of its own. */
function readFitted(text: string, context: ParseContext, fit: boolean): LookupRequest | ParseError {
  let tokens: Token[] = [];
  try {
    tokens = tokenize(text);
    return readLookup(text, tokens, context);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    if (!fit) return error;
    // The advice asks whether a command reads and then why it does not: one parse answers both.
    const refusals = new Map<string, ParseError | undefined>();
    const refusal = (command: string): ParseError | undefined => {
      if (refusals.has(command)) return refusals.get(command);
      const read = readFitted(command, context, false);
      const refused = read instanceof ParseError ? read : undefined;
      refusals.set(command, refused);
      return refused;
    };
    const reads = (command: string): boolean => refusal(command) === undefined;
    return fitAdvice(error, text, tokens, {
      conversation: context.conversation === true,
      reads,
      refusal,
    });
  }
}

function readLookup(text: string, all: readonly Token[], context: ParseContext): LookupRequest {
  const defaults = { ...lookupDefaults, ...context.defaults };
  if (all.every((token) => token.kind === 'comma')) throw parseErrors.empty();
  const statement = firstStatement(text, withoutQuestion(all));
  const tokens = slotTokens(statement.tokens);

  const marked = namesMarkedDatabase(tokens);
  const scan = scanCommand(text, tokens, lookupClauses, { deferReserved: marked });
  const slots = splitLeftovers(scan.databases, marked);
  let zone: string | undefined;
  let alias: string | undefined;
  let top: { value: number; fragment: string } | undefined;
  let presentation: { value: Presentation; fragment: string } | undefined;
  let exported: string | undefined;
  let time: { value: TimeExpression; fragment: string } | undefined;
  let compare: { value: Comparison; fragment: string } | undefined;
  let metric: Metric | undefined;
  let trend: { value: TrendUnit; fragment: string } | undefined;
  let followers: string | undefined;
  const include: string[] = [];
  const exclude: string[] = [];
  let kept: string | undefined;
  const filters: StakeholderClause[] = [];
  let person: { value: string; fragment: string } | undefined;
  const setMetric = (value: Metric, fragment: string): void => {
    if (metric !== undefined) throw parseErrors.repeatedOption(fragment, 'ranking metric');
    metric = value;
  };
  const show = (value: ShowOption, fragment: string): void => {
    if (value === 'export') {
      if (exported !== undefined) throw parseErrors.repeatedOption(fragment, 'export');
      exported = fragment;
    } else if (value === 'list') {
      // The list is how every answer shows its ranking unless asked otherwise.
    } else if (presentation === undefined) {
      presentation = { value, fragment };
    } else if (presentation.value === value) {
      throw parseErrors.repeatedOption(fragment, 'way of showing the answer');
    } else {
      throw parseErrors.twoPresentations(presentation.fragment, fragment);
    }
  };
  for (const clause of scan.clauses) {
    switch (clause.kind) {
      case 'trend':
        if (trend !== undefined) throw parseErrors.repeatedOption(clause.fragment, 'trend');
        trend = clause;
        break;
      case 'person':
        if (person !== undefined) {
          throw personErrors.twoPeople(`@${person.value}`, `@${clause.value}`);
        }
        person = clause;
        break;
      case 'zone':
        if (zone !== undefined) throw parseErrors.repeatedOption(clause.fragment, 'time zone');
        zone = clause.value;
        alias = zoneAlias(clause.fragment, clause.value);
        break;
      case 'top':
        if (top !== undefined)
          throw parseErrors.repeatedOption(clause.fragment, 'number of results');
        top = clause;
        break;
      case 'show':
        show(clause.value, clause.fragment);
        break;
      case 'known':
        if (clause.value.kind === 'metric') setMetric(clause.value.metric, clause.fragment);
        else if (clause.value.kind === 'format') show(clause.value.format, clause.fragment);
        break;
      case 'time':
        if (time !== undefined) throw parseErrors.twoWindows(time.fragment, clause.fragment);
        time = clause;
        break;
      case 'compare':
        if (compare !== undefined) throw parseErrors.repeatedOption(clause.fragment, 'comparison');
        compare = clause;
        break;
      case 'metric':
        if (clause.value !== 'followers') setMetric(clause.value, clause.fragment);
        else if (followers !== undefined) {
          throw parseErrors.repeatedOption(clause.fragment, 'ranking by followers');
        } else followers = clause.fragment;
        break;
      case 'stakeholders':
        kept ??= clause.fragment;
        filters.push({ fragment: clause.fragment, ...clause.value });
        include.push(...clause.value.include);
        exclude.push(...clause.value.exclude);
        break;
      case 'misspeltTime':
        break;
    }
  }

  // `compared with last month`, `MoM`, `change from Q2 to Q3` name the window compared too.
  const implied = compare === undefined ? undefined : impliedWindow(compare.value);
  if (implied !== undefined && compare !== undefined) {
    if (time !== undefined && compare.value.kind === 'pair') {
      throw parseErrors.twoWindows(time.fragment, compare.fragment);
    }
    time ??= { value: implied, fragment: compare.fragment };
  }

  if (kept !== undefined) {
    const contradiction = contradictoryFilters(text, filters, context.conversation === true);
    if (contradiction !== undefined) throw contradiction;
    checkStakeholders({ include, exclude }, kept);
  }
  // Beside a window that was read, words that make none are left out; without one, or when they
  // would make a range of it (`between 5 and 11 October`), refused.
  const leftOut = [...slots.leftOut];
  if (statement.leftOut !== undefined) leftOut.push(statement.leftOut);
  for (const phrase of scan.unread) {
    if (negativeCount.test(phrase.fragment)) throw unreadWindow(phrase.fragment);
    if (time === undefined || !leavesOut(phrase.fragment)) throw phrase.error;
    leftOut.push(phrase.fragment);
  }
  if (person === undefined) askHandle(text, slots.databases, context);
  const databases = uniqueDatabases(slots.databases, defaults.maxDatabases);
  if (databases.length === 0) throw parseErrors.noDatabase(text);

  const timezone = zone ?? resolveZone(context.zone) ?? 'UTC';
  const timeContext = { now: context.now, zone: timezone };
  const earliest = context.earliestDate ?? earliestDataDate;
  let window = checkEarliest(
    time === undefined
      ? defaultTimeWindow(timeContext, defaults.windowDays)
      : evaluateTimeExpression(time.value, timeContext, time.fragment),
    earliest,
    time?.fragment ?? `last ${defaults.windowDays} days`,
  );
  if (trend !== undefined) {
    checkTrendOptions(trend, { compare, presentation, top, person });
    const fragment = time?.fragment ?? trend.fragment;
    window = trendWindow(
      trend.value,
      window,
      time !== undefined,
      { ...timeContext, earliest },
      fragment,
    );
  }
  if (person !== undefined) {
    checkPersonOptions({ top, presentation, exported, chosenHere: kept ?? followers });
  }
  // One person's answer compares with the previous period unless another was asked for.
  const comparison =
    compare ??
    (person === undefined
      ? undefined
      : { value: { kind: 'previous' } as const, fragment: 'vs previous period' });
  const compared =
    comparison === undefined
      ? undefined
      : checkEarliest(
          comparisonWindow(
            comparison.value,
            window,
            timeContext,
            comparison.fragment,
            periodHint(time?.value),
          ),
          earliest,
          comparison.fragment,
        );
  if (
    compare !== undefined &&
    compared !== undefined &&
    +compared.start === +window.start &&
    +compared.end === +window.end
  ) {
    throw parseErrors.sameWindow(compare.fragment, time?.fragment ?? 'the window');
  }
  // A trend shows its table and chart whatever was asked, and its file holds the people it shows.
  const shown =
    trend === undefined
      ? shownCount(top, presentation?.value, exported !== undefined, defaults.top)
      : { top: top?.value ?? defaults.top, presentation: undefined };
  return {
    databases,
    start: formatInstant(window.start),
    end: formatInstant(window.end),
    timezone,
    top: shown.top,
    ...(compared === undefined
      ? {}
      : { compare: { start: formatInstant(compared.start), end: formatInstant(compared.end) } }),
    ...defined({ metric, presentation: trend === undefined ? shown.presentation : undefined }),
    ...(include.length + exclude.length === 0
      ? {}
      : { stakeholders: { include: [...new Set(include)], exclude: [...new Set(exclude)] } }),
    ...(followers === undefined ? {} : { orderBy: 'followers' as const }),
    ...(exported === undefined ? {} : { export: true }),
    ...defined({ zoneAlias: alias }),
    ...(trend === undefined ? {} : { trend: { unit: trend.value } }),
    ...defined({ person: person?.value }),
    ...(leftOut.length === 0 ? {} : { leftOut }),
  };
}

/** `last -5 days`: a count of units with a sign, which no window has. */
const negativeCount = /^(?:last|past|previous) -\d+ \p{L}+$/iu;

/**
 * Words that say something else beside the window read (`ignore previous instructions and show
 * all data`): two words or more that are no word of the grammar, and none that opens or joins a
 * range. `every monday`, `on Black`, `between 5 and` are refused instead: they may be the window.
 */
function leavesOut(fragment: string): boolean {
  const words = fragment.toLowerCase().split(/\s+/);
  if (words.some((word) => word !== 'and' && rangeWords.has(word))) return false;
  return words.filter((word) => !isReservedWord(word)).length >= 2;
}

/** A name written like a handle (`DrFerreiraI`): capitals after small letters, no spaces. */
const handleShaped = /^(?=[A-Za-z0-9_]{4,15}$)[A-Za-z0-9_]*[a-z][A-Z][A-Za-z0-9_]*$/;

/**
 * `DrFerreiraI in #hcsm`: a loose word beside a marked database, written like a handle without
 * its `@`, is asked about (one person, or a database of that name) when both readings read.
 * @throws ChoicesError with both readings.
 */
function askHandle(text: string, items: readonly DatabaseItem[], context: ParseContext): void {
  const item = items.find((i) => i.plain && i.joined !== true && handleShaped.test(i.name));
  if (item === undefined) return;
  const written = (replacement: string): string =>
    `${text.slice(0, item.from)}${replacement}${text.slice(item.from + item.fragment.length)}`;
  const readings = [
    { meaning: `@${item.name}'s place in the ranking`, command: written(`@${item.name}`) },
    { meaning: `a database called “${item.name}”`, command: written(`"${item.name}"`) },
  ].filter((reading) => !(readFitted(reading.command, context, false) instanceof ParseError));
  if (readings.length === 2) {
    throw handleChoices(item.fragment, readings, context.conversation === true);
  }
}

/**
 * How many people a lookup asks for and how they are shown: a count over the list's 10 asks for a
 * table, which holds 100; an export holds up to 500, and without a count it is the whole ranking
 * (500, the most the service gives). A bar chart has at most 10 bars.
 */
function shownCount(
  top: { readonly value: number; readonly fragment: string } | undefined,
  presentation: Presentation | undefined,
  exported: boolean,
  defaultTop: number,
): { top: number; presentation: Presentation | undefined } {
  if (top === undefined) {
    return { top: exported ? lookupTopRange.exportMax : defaultTop, presentation };
  }
  if (top.value > lookupTopRange.tableMax && !exported)
    throw parseErrors.tooManyToShow(top.fragment);
  if (top.value > lookupTopRange.listMax && presentation === 'chart') {
    throw parseErrors.tooManyBars(top.fragment);
  }
  const table = top.value > lookupTopRange.listMax && presentation === undefined;
  return { top: top.value, presentation: table ? 'table' : presentation };
}

/** What a lookup's text can name besides its databases, as {@link namedClauses} reports it. */
export type NamedClause =
  | 'person'
  | 'zone'
  | 'top'
  | 'compare'
  | 'metric'
  | 'show'
  | 'trend'
  | 'stakeholders'
  | 'time';

/**
 * Which clauses a conversation's text names, read as {@link parseLookup} reads it (`#lcsm by
 * reach` names `metric`): a follow-up keeps what it does not name. Call it on text that parsed.
 */
export function namedClauses(text: string): ReadonlySet<NamedClause> {
  const bounded = boundedText(text);
  const tokens = slotTokens(withoutQuestion(tokenize(bounded)));
  const named = new Set<NamedClause>();
  for (const clause of scanCommand(bounded, tokens, lookupClauses).clauses) {
    if (clause.kind === 'misspeltTime') continue;
    if (clause.kind === 'known') {
      if (clause.value.kind === 'metric') named.add('metric');
      else if (clause.value.kind === 'format') named.add('show');
      continue;
    }
    named.add(clause.kind);
  }
  return named;
}
