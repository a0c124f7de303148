/**
 * `/influencers conference …`: start a live leaderboard for an event, list, stop or edit one, or
 * run the next update now (`tick`). Pure: (text, { now, zone }) -> command | ParseError.
 *
 * Decisions:
 * - The event's days are whole days in its zone (`in <zone>`, else the creator's). `from May 29
 *   to Jun 2` takes the year of `now` in that zone, or the next one when those days are already
 *   over; a range that crosses New Year ends in the following year.
 * - Options may come in any order after the databases: `watch @a @b` (at most 20), `top N` (at
 *   most 25, default 10), `every N minutes` (at least 5, default 15), a stakeholder filter as
 *   lookups read it (`doctors`, `excluding orgs`), and `canvas` (keep a channel canvas).
 * - An edit changes the watchlist, the refresh, or the canvas (`canvas on` / `canvas off`).
 * - Several databases are joined by `and` or commas (`#ASCO26 and #ASCO2026`).
 * - The days are read as a lookup's dates are: `from May 29 to Jun 2`, `May 29-Jun 2`, `May
 *   29-31`, one day (`today`, `tomorrow`, `on Jun 2`, `Jun 2`). A time of day after a day (`from
 *   May 29 9am to Jun 2 5pm`) is read and left out, since a conference follows whole days.
 * - A last day before the first is read across New Year only when that makes an event of a month
 *   at most (`from Dec 30 to Jan 2`); otherwise the days are named as swapped, with the order
 *   that works.
 */
import { DateTime } from 'luxon';
import { ParseError } from '../errors.ts';
import {
  type ConferenceSpec,
  defaultConferenceTop,
  defaultRefreshMinutes,
  maxConferenceTop,
  maxWatched,
  minRefreshMinutes,
} from '../model/conference.ts';
import { normalizeDigestId } from '../model/digest.ts';
import type { StakeholderFilter } from '../model/stakeholders.ts';
import { resolveZone } from '../time/zone-names.ts';
import { zoneFor } from '../time/zones.ts';
import { readDatabaseToken } from './databases.ts';
import { matchStakeholders } from './known-words.ts';
import { subcommandNamed } from './subcommands.ts';
import { gluedTimes, matchTimeOfDay } from './time/clock.ts';
import { lowerAt, type Token, tokenize } from './tokens.ts';

export type ConferenceCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'list' }
  | { readonly kind: 'tick' }
  | { readonly kind: 'stop'; readonly id: string }
  | {
      readonly kind: 'edit';
      readonly id: string;
      readonly watch?: readonly string[];
      readonly refreshMinutes?: number;
      readonly canvas?: boolean;
    }
  | { readonly kind: 'create'; readonly spec: ConferenceSpec; readonly canvas?: true };

export interface ConferenceParseContext {
  readonly now: Date;
  /** The creator's zone: the event's unless the text names one. */
  readonly zone: string;
}

/** The longest event: a month of days. */
export const maxConferenceDays = 31;
/** The longest refresh: a day. */
const maxRefreshMinutes = 24 * 60;

export const conferenceExample =
  '/influencers conference #ASCO26 from May 29 to Jun 2 in America/Chicago watch @DrA @DrB top 10 every 15 minutes';

const refuse = (message: string, fragment?: string): never => {
  throw new ParseError('bad_command', message, fragment);
};

/**
 * True unless the text is a conference command that reads no days (`conferences`, `conference
 * list|stop|remove|edit|tick|help …`): only a new conference's days depend on the creator's zone,
 * so a surface can skip asking Slack for it on every other command.
 */
export function createsConference(text: string): boolean {
  return !/^conferences?\s*$|^conference\s+(list|stop|remove|edit|tick|help)\b/iu.test(text);
}

export function parseConferenceCommand(
  text: string,
  context: ConferenceParseContext,
): ConferenceCommand | ParseError {
  try {
    return readConferenceCommand(text.trim().slice(0, 1000), context);
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
}

function readConferenceCommand(text: string, context: ConferenceParseContext): ConferenceCommand {
  const tokens = tokenize(text);
  const lead = lowerAt(tokens, 0);
  if (lead === 'conferences' && tokens.length === 1) return { kind: 'list' };
  if (lead === undefined || subcommandNamed(lead) !== 'conference')
    refuse(`Start with \`conference\`, e.g. \`${conferenceExample}\`.`);
  const verb = lowerAt(tokens, 1);
  if (tokens.length === 1 || verb === 'help') return { kind: 'help' };
  if (verb === 'list' && tokens.length === 2) return { kind: 'list' };
  if (verb === 'tick' && tokens.length === 2) return { kind: 'tick' };
  if (verb === 'stop' || verb === 'remove') {
    const id = idAt(tokens, 2, verb);
    if (tokens.length > 3)
      refuse(
        `\`conference ${verb}\` takes only the conference's id, e.g. \`/influencers conference stop ${exampleId}\`.`,
        tokens[3]?.text,
      );
    return { kind: 'stop', id };
  }
  if (verb === 'edit') return readEdit(tokens);
  // `canvas` is a word of its own anywhere among the options after the days, never a filter.
  const days = withDaysApart(tokens);
  const daysAt = daysStart(days);
  const isCanvas = (list: readonly Token[], at: number) =>
    daysAt > 0 && at > daysAt && lowerAt(list, at) === 'canvas';
  const canvasAt = days.findIndex((_, at) => isCanvas(days, at));
  if (canvasAt < 0) return { kind: 'create', spec: readCreate(days, context) };
  const rest = days.filter((_, at) => at !== canvasAt);
  if (rest.some((_, at) => isCanvas(rest, at))) refuse('Say `canvas` once.', 'canvas');
  return { kind: 'create', spec: readCreate(rest, context), canvas: true };
}

/** `29-Jun` and `29-31` as two days and a dash (`May 29-Jun 2`, `May 29-31`). */
function withDaysApart(tokens: readonly Token[]): Token[] {
  return tokens.flatMap((token) => {
    const match =
      token.kind === 'word'
        ? /^(\d{1,2}(?:st|nd|rd|th)?)-(\d{1,2}(?:st|nd|rd|th)?|\p{L}{3,9}\.?)$/u.exec(token.text)
        : null;
    if (match === null) return [token];
    const [, day = '', next = ''] = match;
    return [
      { ...token, text: day },
      { ...token, kind: 'dash', text: '-' },
      { ...token, text: next },
    ] as Token[];
  });
}

/** Where the days start after `conference` and the databases: `from`, `on` or a day; -1 if nowhere. */
function daysStart(tokens: readonly Token[]): number {
  return tokens.findIndex((_, at) => {
    const word = lowerAt(tokens, at);
    return at > 0 && (word === 'from' || word === 'on' || readDate(tokens, at) !== undefined);
  });
}

const exampleId = 'K7Q2M9';

function idAt(tokens: readonly Token[], at: number, verb: string): string {
  const typed = tokens[at]?.text;
  const id = typed === undefined ? undefined : normalizeDigestId(typed);
  if (id === undefined) {
    return refuse(
      typed === undefined
        ? `Say which conference: \`/influencers conference ${verb} ${exampleId}\` (\`/influencers conference list\` shows the ids).`
        : `“${typed}” is not a conference id; \`/influencers conference list\` shows the ids.`,
      typed,
    );
  }
  return id;
}

function readEdit(tokens: readonly Token[]): ConferenceCommand {
  const id = idAt(tokens, 2, 'edit');
  let watch: string[] | undefined;
  let refreshMinutes: number | undefined;
  let canvas: boolean | undefined;
  let at = 3;
  while (at < tokens.length) {
    const word = lowerAt(tokens, at);
    if (word === 'watch') {
      ({ watch, next: at } = readWatch(tokens, at + 1));
    } else if (word === 'every') {
      ({ minutes: refreshMinutes, next: at } = readEvery(tokens, at + 1));
    } else if (word === 'canvas') {
      const value = lowerAt(tokens, at + 1);
      if (value !== 'on' && value !== 'off')
        refuse(
          `Say \`canvas on\` or \`canvas off\`, e.g. \`/influencers conference edit ${id} canvas on\`.`,
          tokens[at + 1]?.text,
        );
      canvas = value === 'on';
      at += 2;
    } else {
      refuse(
        `An edit changes \`watch @handle …\`, \`every N minutes\` or \`canvas on|off\`, e.g. \`/influencers conference edit ${id} every 10 minutes\`.`,
        tokens[at]?.text,
      );
    }
  }
  if (watch === undefined && refreshMinutes === undefined && canvas === undefined) {
    refuse(
      `Say what to change: \`/influencers conference edit ${id} watch @DrA @DrB\`, \`… every 10 minutes\` or \`… canvas on\`.`,
    );
  }
  return {
    kind: 'edit',
    id,
    ...(watch === undefined ? {} : { watch }),
    ...(refreshMinutes === undefined ? {} : { refreshMinutes }),
    ...(canvas === undefined ? {} : { canvas }),
  };
}

const handle = /^@?[A-Za-z0-9_]{1,15}$/u;

function readWatch(tokens: readonly Token[], from: number): { watch: string[]; next: number } {
  // `watch none` clears the watchlist (an edit's way to stop watching anyone).
  if (lowerAt(tokens, from) === 'none') return { watch: [], next: from + 1 };
  const watch: string[] = [];
  let at = from;
  while (tokens[at]?.kind === 'word' && (tokens[at]?.text.startsWith('@') ?? false)) {
    const text = tokens[at]?.text ?? '';
    if (!handle.test(text))
      refuse(`“${text}” is not an X handle (letters, digits and _, at most 15).`, text);
    const name = text.replace(/^@/u, '');
    if (!watch.some((each) => each.toLowerCase() === name.toLowerCase())) watch.push(name);
    at++;
    if (tokens[at]?.kind === 'comma' || lowerAt(tokens, at) === 'and') at++;
  }
  if (watch.length === 0)
    refuse(
      'After `watch`, name the accounts: `watch @DrA @DrB` (or `watch none` to watch no one).',
      tokens[at]?.text,
    );
  if (watch.length > maxWatched)
    refuse(`A watchlist follows at most ${maxWatched} accounts; this one names ${watch.length}.`);
  return { watch, next: at };
}

function readEvery(tokens: readonly Token[], from: number): { minutes: number; next: number } {
  const amount = Number(tokens[from]?.text);
  const unit = lowerAt(tokens, from + 1) ?? '';
  const perHour = ['hour', 'hours', 'h'].includes(unit);
  if (
    !Number.isInteger(amount) ||
    !(['minute', 'minutes', 'min', 'mins', 'm'].includes(unit) || perHour)
  ) {
    refuse('Say the refresh as `every N minutes`, e.g. `every 15 minutes`.', tokens[from]?.text);
  }
  const minutes = perHour ? amount * 60 : amount;
  if (minutes < minRefreshMinutes)
    refuse(
      `The leaderboard refreshes at most every ${minRefreshMinutes} minutes; say \`every ${minRefreshMinutes} minutes\` or more.`,
      tokens[from]?.text,
    );
  if (minutes > maxRefreshMinutes)
    refuse(
      'The leaderboard refreshes at least once a day; say `every 60 minutes` or so.',
      tokens[from]?.text,
    );
  return { minutes, next: from + 2 };
}

const rangeJoiners: ReadonlySet<string> = new Set(['to', 'until', 'through', 'thru', '-']);

/** Days named from today, in the event's zone. */
const relativeDays: ReadonlyMap<string, number> = new Map([
  ['today', 0],
  ['tomorrow', 1],
]);

/**
 * Past a time of day at `at` as lookups read one (`9am`, `at 9 am`, `17:00`, `noon`, `9am-5pm`),
 * or `at` when none stands there.
 */
function pastTimeOfDay(tokens: readonly Token[], at: number): number {
  const from = lowerAt(tokens, at) === 'at' ? at + 1 : at;
  if (gluedTimes(tokens[from]) !== undefined) return from + 1;
  return matchTimeOfDay(tokens, from)?.next ?? at;
}

/**
 * A day and any time of day after it: `May 29`, `29 May`, `May 29 2026`, `2026-05-29`, `today`,
 * `tomorrow`; after a range's joiner also a day of the first day's month (`May 29-31`).
 */
function readDate(
  tokens: readonly Token[],
  from: number,
  sameMonthAs?: DatePart,
): (DatePart & { next: number }) | undefined {
  const read = readDay(tokens, from, sameMonthAs);
  return read === undefined ? undefined : { ...read, next: pastTimeOfDay(tokens, read.next) };
}

function readDay(
  tokens: readonly Token[],
  from: number,
  sameMonthAs?: DatePart,
): (DatePart & { next: number }) | undefined {
  const texts = [0, 1, 2].map((i) => tokens[from + i]?.text.replace(/,$/u, '') ?? '');
  const offset = relativeDays.get(texts[0]?.toLowerCase() ?? '');
  if (offset !== undefined) return { offset, next: from + 1 };
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(texts[0] ?? '');
  if (iso)
    return { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]), next: from + 1 };
  const month = (text: string) => {
    for (const format of ['LLL', 'LLLL']) {
      const parsed = DateTime.fromFormat(text.replace(/\.$/u, ''), format, { locale: 'en-US' });
      if (parsed.isValid) return parsed.month;
    }
    return undefined;
  };
  const dayOf = (text: string) => {
    const match = /^(\d{1,2})(st|nd|rd|th)?$/u.exec(text);
    return match ? Number(match[1]) : undefined;
  };
  const yearOf = (text: string) => (/^\d{4}$/u.test(text) ? Number(text) : undefined);
  const [a = '', b = '', c = ''] = texts;
  let parsed: { month: number; day: number; next: number } | undefined;
  const m1 = month(a);
  const d1 = dayOf(b);
  if (m1 !== undefined && d1 !== undefined) parsed = { month: m1, day: d1, next: from + 2 };
  const d2 = dayOf(a);
  const m2 = month(b);
  if (parsed === undefined && d2 !== undefined && m2 !== undefined)
    parsed = { month: m2, day: d2, next: from + 2 };
  if (parsed === undefined && d2 !== undefined && sameMonthAs !== undefined) {
    if ('offset' in sameMonthAs) return undefined;
    return {
      month: sameMonthAs.month,
      day: d2,
      ...(sameMonthAs.year === undefined ? {} : { year: sameMonthAs.year }),
      next: from + 1,
    };
  }
  if (parsed === undefined) return undefined;
  const year = yearOf(c);
  return year === undefined ? parsed : { ...parsed, year, next: parsed.next + 1 };
}

function readCreate(tokens: readonly Token[], context: ConferenceParseContext): ConferenceSpec {
  const databases: string[] = [];
  let at = 1;
  for (; at < tokens.length; at++) {
    const token = tokens[at] as Token;
    const word = lowerAt(tokens, at);
    if (word === 'from' || word === 'on' || readDate(tokens, at) !== undefined) break;
    if (word === 'and' || token.kind === 'comma') continue;
    const read = readDatabaseToken(token);
    if (read.kind === 'item') {
      if (!databases.includes(read.name)) databases.push(read.name);
      continue;
    }
    if (read.kind === 'invalid') refuse(read.hint, token.text);
    refuse(`Name the event's hashtags first, then its days: \`${conferenceExample}\`.`, token.text);
  }
  if (databases.length === 0) refuse(`Name the event's hashtag, e.g. \`${conferenceExample}\`.`);
  if (databases.length > 10) refuse('A conference follows at most 10 databases.');
  const opening = lowerAt(tokens, at);
  if (at >= tokens.length)
    refuse(`Say the event's days: \`from May 29 to Jun 2\`, e.g. \`${conferenceExample}\`.`);
  if (opening === 'from' || opening === 'on') at++;
  const first = readDate(tokens, at);
  if (first === undefined)
    refuse('Say the first day as `May 29` (or `2026-05-29`).', tokens[at]?.text);
  at = (first as { next: number }).next;
  const joiner = tokens[at]?.kind === 'dash' ? '-' : (lowerAt(tokens, at) ?? '');
  let last = first as DatePart & { next: number };
  if (rangeJoiners.has(joiner)) {
    const read = readDate(tokens, at + 1, first);
    if (read === undefined)
      refuse('Say the last day as `Jun 2` (or `2026-06-02`).', tokens[at + 1]?.text);
    last = read as DatePart & { next: number };
    at = last.next;
  } else if (opening === 'from') {
    refuse('Say the last day too: `from May 29 to Jun 2`.', tokens[at]?.text);
  }

  let zone = context.zone;
  let watch: string[] = [];
  let top = defaultConferenceTop;
  let refreshMinutes = defaultRefreshMinutes;
  let stakeholders: StakeholderFilter | undefined;
  while (at < tokens.length) {
    const word = lowerAt(tokens, at);
    if (word === 'in') {
      const typed = tokens[at + 1]?.text ?? '';
      const resolved = resolveZone(typed);
      if (resolved === undefined)
        refuse(
          `“${typed}” is not a time zone; say it as \`America/Chicago\` or \`Europe/Paris\`.`,
          typed,
        );
      zone = resolved as string;
      at += 2;
    } else if (word === 'watch') {
      ({ watch, next: at } = readWatch(tokens, at + 1));
    } else if (word === 'top') {
      top = Number(tokens[at + 1]?.text);
      if (!Number.isInteger(top) || top < 1 || top > maxConferenceTop)
        refuse(`\`top\` takes a number from 1 to ${maxConferenceTop}.`, tokens[at + 1]?.text);
      at += 2;
    } else if (word === 'every') {
      ({ minutes: refreshMinutes, next: at } = readEvery(tokens, at + 1));
    } else {
      // Read on its own: what comes before (a zone, a handle) is never a phrase it belongs to.
      const match = matchStakeholders(tokens.slice(at), 0);
      if (match === undefined) {
        refuse(
          `I don't understand “${tokens[at]?.text}” here; after the days come \`in <zone>\`, \`watch @handle …\`, \`top N\`, \`every N minutes\`, who to keep (\`doctors\`) or \`canvas\`.`,
          tokens[at]?.text,
        );
      }
      stakeholders = match?.value;
      at += match?.next ?? 1;
    }
  }
  const days = eventDays(first as DatePart, last as DatePart, zone, context.now);
  return {
    databases,
    ...days,
    zone,
    watch,
    top,
    refreshMinutes,
    ...(stakeholders === undefined ? {} : { stakeholders }),
  };
}

/** A day as typed: a date (its year when given), or days from today (`today`, `tomorrow`). */
type DatePart = { month: number; day: number; year?: number } | { offset: number };

/** The event's days as `yyyy-MM-dd`, with the year inferred as the header says. */
function eventDays(
  first: DatePart,
  last: DatePart,
  zone: string,
  now: Date,
): { firstDay: string; lastDay: string } {
  const today = DateTime.fromJSDate(now, { zone: zoneFor(zone) }).startOf('day');
  const build = (part: DatePart, year: number) =>
    'offset' in part
      ? today.plus({ days: part.offset })
      : DateTime.fromObject(
          { year: part.year ?? year, month: part.month, day: part.day },
          { zone: zoneFor(zone) },
        );
  const dated = (part: DatePart) => 'offset' in part || part.year !== undefined;
  const days = (from: DateTime, to: DateTime) => Math.round(to.diff(from, 'days').days) + 1;
  let start = build(first, today.year);
  let end = build(last, start.year);
  if (!start.isValid) refuse(`There is no day ${'day' in first ? first.day : ''} in that month.`);
  if (!end.isValid) refuse(`There is no day ${'day' in last ? last.day : ''} in that month.`);
  // Across New Year only when that makes an event, never a year of days.
  const acrossNewYear = build(last, start.year + 1);
  if (end < start && !dated(last) && days(start, acrossNewYear) <= maxConferenceDays) {
    end = acrossNewYear;
  }
  if (end < start) refuse(swappedDays(start, end));
  if (!dated(first) && end < today) {
    start = build(first, today.year + 1);
    end = build(last, start.year);
    if (end < start) end = build(last, start.year + 1);
  }
  if (end < today)
    refuse('Those days are over already; a conference follows days to come or under way.');
  const count = days(start, end);
  if (count > maxConferenceDays)
    refuse(`A conference lasts at most ${maxConferenceDays} days; this one has ${count}.`);
  return { firstDay: start.toISODate() ?? '', lastDay: end.toISODate() ?? '' };
}

/** The days typed last day first, named as such with the order that works. */
function swappedDays(start: DateTime, end: DateTime): string {
  const said = (day: DateTime) =>
    day.year === start.year && day.year === end.year
      ? day.toFormat('LLL d', { locale: 'en-US' })
      : day.toFormat('LLL d yyyy', { locale: 'en-US' });
  return `The days are swapped: the last day, ${said(end)}, comes before the first, ${said(start)}. Say \`from ${said(end)} to ${said(start)}\`.`;
}
