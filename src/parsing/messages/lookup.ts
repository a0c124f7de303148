/**
 * The sentences of the lookup grammar and of the parts every grammar shares (tokens, databases,
 * times, zones, top), so each reason reads the same wherever it is raised: what was wrong, the
 * fragment as typed, and a command that would work. Each builder's last parameter is that
 * command's arguments, a lookup unless the grammar raising it passes its own (the digest grammar
 * passes a digest).
 */

import { ParseError } from '../../errors.ts';
import { earliestDataDate } from '../../model/lookup.ts';
import { isReservedWord, rangeWords } from '../reserved.ts';
import { weekdays } from '../time/vocabulary.ts';
import { exampleCommand, quote } from './wording.ts';

/** Most zones a message lists for a place with several, the most populous first. */
const maxListedZones = 5;

export const parseErrors = {
  empty(example = '#hcsm last week'): ParseError {
    return new ParseError(
      'empty',
      `The command is empty: name at least one database (a #hashtag, a "quoted phrase", an ID or group:<name>) and, if you like, a time. Try: ${exampleCommand(example)}`,
    );
  },

  /** Text past the limit, refused unread: the message says the limit and the length, not the text. */
  tooLong(length: number, max: number, example = '#hcsm last week'): ParseError {
    const count = (n: number): string => n.toLocaleString('en-US');
    return new ParseError(
      'unrecognised',
      `That text is ${count(length)} characters long: a command holds at most ${count(max)} characters (databases, a time and options). Shorten it. Try: ${exampleCommand(example)}`,
    );
  },

  noDatabase(text: string, example = '#hcsm last week'): ParseError {
    return new ParseError(
      'no_database',
      `No database in ${quote(text)}: name at least one #hashtag, "quoted phrase", ID or group:<name>. Try: ${exampleCommand(example)}`,
      text,
      `#hcsm ${text}`,
    );
  },

  tooManyDatabases(
    count: number,
    max: number,
    firstExtra: string,
    example = '#hcsm, #bcsm last week',
  ): ParseError {
    return new ParseError(
      'too_many_databases',
      `Too many databases: ${count} given, at most ${max} per request (${quote(firstExtra)} is one too many). Try: ${exampleCommand(example)}`,
      firstExtra,
    );
  },

  /** `near`: the zone nearest to what was typed, when one is near (`Europe/London` for `Londn`). */
  unknownZone(zone: string, near?: string, example?: string): ParseError {
    if (near !== undefined) {
      return new ParseError(
        'unknown_zone',
        `Unknown time zone ${quote(zone)}: did you mean ${near}? Try: ${exampleCommand(example ?? `#hcsm last week in ${near}`)}`,
        zone,
        near,
      );
    }
    return new ParseError(
      'unknown_zone',
      `Unknown time zone ${quote(zone)}: use an IANA name such as Europe/London or America/New_York, a city, or UTC. Try: ${exampleCommand(example ?? '#hcsm last week in UTC')}`,
      zone,
      'UTC',
    );
  },

  severalZones(place: string, zones: readonly string[], example?: string): ParseError {
    const first = zones[0] ?? 'UTC';
    return new ParseError(
      'unknown_zone',
      `${quote(place)} has several time zones (${zones.slice(0, maxListedZones).join(', ')}${zones.length > maxListedZones ? ', …' : ''}): name one of them, or a city. Try: ${exampleCommand(example ?? `#hcsm last week in ${first}`)}`,
      place,
      first,
    );
  },

  /** `UTC+3:30`: an offset from UTC that no zone keeps all year. */
  noFixedZone(
    typed: string,
    offset: string,
    example = '#hcsm last week in Asia/Tehran',
  ): ParseError {
    return new ParseError(
      'unknown_zone',
      `${quote(typed)} is an offset (${offset}) no time zone keeps all year: name the place instead (a city, or an IANA name such as Asia/Tehran), or a whole-hour offset such as UTC+3. Try: ${exampleCommand(example)}`,
      typed,
      halfHourZones.get(offset) ?? 'UTC',
    );
  },

  regionNotZone(place: string, example = '#hcsm last week in Europe/London'): ParseError {
    return new ParseError(
      'unknown_zone',
      `${quote(place)} is a region with many time zones: name a city, such as Europe/Paris, in Paris or in London. Try: ${exampleCommand(example)}`,
      place,
      regionCity(place),
    );
  },

  missingZone(keyword: string, example = '#hcsm last week tz Europe/London'): ParseError {
    return new ParseError(
      'unknown_zone',
      `${quote(keyword)} needs a time zone after it, such as Europe/London or UTC. Try: ${exampleCommand(example)}`,
      keyword,
      `${keyword} UTC`,
    );
  },

  repeatedOption(fragment: string, what: string, example = '#hcsm last week'): ParseError {
    return new ParseError(
      'unrecognised',
      `The ${what} is given twice (again in ${quote(fragment)}): give it once. Try: ${exampleCommand(example)}`,
      fragment,
      '',
    );
  },

  badTop(
    fragment: string,
    min: number,
    max: number,
    example = '#hcsm last week top 20',
  ): ParseError {
    return new ParseError(
      'bad_top',
      `${quote(fragment)} is not a valid count: top and limit take a whole number from ${min} to ${max}. Try: ${exampleCommand(example)}`,
      fragment,
      countCorrection(fragment, min, max),
    );
  },

  /** A lookup's count: its limits depend on how the answer is shown (see `lookupTopRange`). */
  badLookupTop(fragment: string, example = '#hcsm last week top 20'): ParseError {
    return new ParseError(
      'bad_top',
      `${quote(fragment)} is not a valid count: top and limit take a whole number from 1 to 100, or up to 500 with export. Try: ${exampleCommand(example)}`,
      fragment,
      countCorrection(fragment, 1, 100),
    );
  },

  /** More people than a table holds, without `export`. */
  tooManyToShow(fragment: string, example = `#hcsm last week ${fragment} export`): ParseError {
    return new ParseError(
      'bad_top',
      `${quote(fragment)} is more than an answer shows: a table holds at most 100 people. Ask for top 100 or fewer, or add export to get up to 500 in a CSV file. Try: ${exampleCommand(example)}`,
      fragment,
      `${fragment} export`,
    );
  },

  /** More people than a bar chart has bars. */
  tooManyBars(fragment: string, example = `#hcsm last week ${fragment} table`): ParseError {
    return new ParseError(
      'bad_top',
      `${quote(fragment)} is more than a chart shows: it has at most 10 bars. Ask for top 10 or fewer, or for a table. Try: ${exampleCommand(example)}`,
      fragment,
      'top 10',
    );
  },

  /** Two ways of showing one answer (`chart` and `table`). */
  twoPresentations(first: string, second: string, example = '#hcsm last week table'): ParseError {
    return new ParseError(
      'unrecognised',
      `${quote(first)} and ${quote(second)} ask for two ways of showing the answer: choose one. Try: ${exampleCommand(example)}`,
      second,
      '',
    );
  },

  /** A slip of a time, option or unit word; `correction` is the fragment as it was meant. */
  didYouMean(
    fragment: string,
    correction: string,
    reason: 'bad_time' | 'bad_top' | 'unknown_zone' | 'unrecognised' = 'bad_time',
    example = `#hcsm ${correction}`,
  ): ParseError {
    return new ParseError(
      reason,
      `I can't read ${quote(fragment)}: did you mean ${quote(correction)}? Try: ${exampleCommand(example)}`,
      fragment,
      correction,
    );
  },

  badComparison(fragment: string, example = '#hcsm last week vs previous period'): ParseError {
    return new ParseError(
      'bad_time',
      `I can't read what ${quote(fragment)} compares with: say vs previous period, vs last year, vs the week before or a window such as vs Q2. Try: ${exampleCommand(example)}`,
      fragment,
      'vs previous period',
    );
  },

  /** `last week vs last week`: a window compared with itself. */
  sameWindow(fragment: string, window: string): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} compares ${quote(window)} with itself, and every change would be ±0: compare it with the period before (vs previous period), the same period a year earlier (vs last year) or another window (vs Q2). Try: ${exampleCommand('#hcsm last week vs previous period')}`,
      fragment,
      'vs previous period',
    );
  },

  unknownMetric(fragment: string, example = '#hcsm last week by mentions'): ParseError {
    return new ParseError(
      'unrecognised',
      `I can't rank by ${quote(fragment)}: rank by mentions, retweets (reposts), tweets (posts), impressions (reach), replies or HSG score. Try: ${exampleCommand(example)}`,
      fragment,
      'by mentions',
    );
  },

  badTime(fragment: string, example = '#hcsm since Sep 1'): ParseError {
    return new ParseError(
      'bad_time',
      `I can't read ${quote(fragment)} as a time. Dates look like 2026-09-01, 9/1/26 or Sep 1; windows like yesterday, last week, last 7 days or 2 weeks ago. Try: ${exampleCommand(example)}`,
      fragment,
      'last 7 days',
    );
  },

  invalidDate(fragment: string, example = '#hcsm from 2026-09-01 to 2026-09-08'): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} is not a real date or time. Try: ${exampleCommand(example)}`,
      fragment,
      'last 7 days',
    );
  },

  outOfRange(fragment: string, example = '#hcsm last week'): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} reaches outside the years 1 to 9999. Try: ${exampleCommand(example)}`,
      fragment,
      'last 7 days',
    );
  },

  singleMoment(fragment: string, example = `#hcsm since ${fragment}`): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} is a single moment, not a window: say where it starts or ends. Try: ${exampleCommand(example)}`,
      fragment,
      `since ${fragment}`,
    );
  },

  twoWindows(first: string, second: string, example = '#hcsm from Sep 1 to Sep 8'): ParseError {
    return new ParseError(
      'bad_time',
      `Two time windows given, ${quote(first)} and ${quote(second)}: give one, or join them with "to". Try: ${exampleCommand(example)}`,
      second,
      '',
    );
  },

  emptyWindow(fragment: string, at: string, example = '#hcsm last week'): ParseError {
    return new ParseError(
      'empty_window',
      `The window ${quote(fragment)} is empty: it starts and ends at ${at}. Try: ${exampleCommand(example)}`,
      fragment,
      'last 7 days',
    );
  },

  invertedWindow(
    fragment: string,
    start: string,
    end: string,
    example = '#hcsm from Sep 1 to Sep 8',
  ): ParseError {
    return new ParseError(
      'inverted_window',
      `The window ${quote(fragment)} ends before it starts (${start} to ${end}): put the earlier time first. Try: ${exampleCommand(example)}`,
      fragment,
      swappedEnds(fragment),
    );
  },

  beforeData(fragment: string, start: string, earliest: string, example?: string): ParseError {
    return new ParseError(
      'bad_time',
      `The window ${quote(fragment)} starts at ${start}, before the earliest data (${earliest}): there is nothing to count before then. Start on or after it. Try: ${exampleCommand(example ?? `#hcsm since ${earliest}`)}`,
      fragment,
      `since ${earliest}`,
    );
  },

  /** `correction`: the window as it most likely was meant (`noon to 2pm yesterday`). */
  futureStart(fragment: string, start: string, correction = pastOf(fragment)): ParseError {
    return new ParseError(
      'future_start',
      `The window ${quote(fragment)} starts in the future (${start}): there is no data yet. Try: ${exampleCommand(`#hcsm ${correction}`)}`,
      fragment,
      correction,
    );
  },

  /**
   * An unquoted phrase holds `word`, which the grammar keeps for times, ranges, schedules or
   * options but could not read as one there. `example` is the arguments of a command that works.
   */
  reservedInPhrase(fragment: string, word: string, example: string): ParseError {
    const phrase = fragment.replace(/"/g, '');
    if (!couldBeDatabase(phrase)) {
      return new ParseError(
        'unrecognised',
        `I can't read ${quote(fragment)}: ${reservedHint(word)}. Try: ${exampleCommand('#hcsm last week')}`,
        fragment,
        '',
      );
    }
    return new ParseError(
      'unrecognised',
      `I can't read ${quote(fragment)}: ${reservedHint(word)}. If ${quote(phrase)} is a database, put it in quotes: "${phrase}". Try: ${exampleCommand(example)}`,
      fragment,
      `"${phrase}"`,
    );
  },

  /** `group:Digital Health`: a group's name of several words, unquoted. */
  unquotedGroup(fragment: string, name: string): ParseError {
    const quoted = `group:"${name}"`;
    return new ParseError(
      'unrecognised',
      `A group's name of several words needs quotes: ${quoted}. If ${quote(name.split(' ').slice(1).join(' '))} is another database, separate it with a comma. Try: ${exampleCommand(`${quoted} last week`)}`,
      fragment,
      quoted,
    );
  },

  /** `top posts`: the ranking is of people, not of what they post. */
  topPosts(fragment: string, example = '#hcsm last week by retweets'): ParseError {
    return new ParseError(
      'unrecognised',
      `${quote(fragment)}: I rank people (the accounts that drove a conversation), not posts. Ask who drove it, ranked by what their posts earned (by retweets, by impressions). Try: ${exampleCommand(example)}`,
      fragment,
      'by retweets',
    );
  },

  /** `all time`: back to the first data. */
  allTime(fragment: string, example = '#hcsm last 12 months'): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} reaches back to the first data (${earliestDataDate}), and a ranking that long says little about now: choose a window, such as last 12 months or since 2025, or say since ${earliestDataDate} for everything. Try: ${exampleCommand(example)}`,
      fragment,
      'last 12 months',
    );
  },

  /** `#hcsm 2026`: the year or the database with that ID. */
  yearOrId(fragment: string): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} could be the year ${fragment} or the database with ID ${fragment}: say in ${fragment} for the year, or put the ID in quotes ("${fragment}"). Try: ${exampleCommand(`#hcsm in ${fragment}`)}`,
      fragment,
      `in ${fragment}`,
    );
  },

  /** A range whose numeric dates are written day first on one end and month first on the other. */
  mixedDateOrder(fragment: string, example = '#hcsm from 2026-11-01 to 2026-11-15'): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} writes one date day first and the other month first: write both the same way, or as 2026-11-15. Try: ${exampleCommand(example)}`,
      fragment,
      'last 7 days',
    );
  },

  unsupportedDate(fragment: string, example = '#hcsm from 2026-09-01 to 2026-09-08'): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} is a date format I don't read. Write dates as 2026-09-01, 9/1/2026, Sep 1 or 1 Sep 2026, and ranges of days as Sep 1-8. Try: ${exampleCommand(example)}`,
      fragment,
      isoOfDotted(fragment),
    );
  },

  unixMilliseconds(fragment: string, example = '#hcsm since 1790000000'): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} looks like a unix time in milliseconds: unix times here are seconds, 9 to 11 digits (drop the last three digits). Try: ${exampleCommand(example)}`,
      fragment,
      fragment.replace(/\d{3}$/, ''),
    );
  },

  openEnded(fragment: string, example = `#hcsm since Sep 1 ${fragment}`): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} says where the window ends but not where it starts: add a start. Try: ${exampleCommand(example)}`,
      fragment,
      `last 7 days ${fragment}`,
    );
  },

  partOfDay(fragment: string, example = '#hcsm between 6pm and 11pm yesterday'): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} has no agreed start and end: give the hours. Try: ${exampleCommand(example)}`,
      fragment,
      'last night',
    );
  },

  unclosedQuote(fragment: string, example = '"patient safety" last week'): ParseError {
    return new ParseError(
      'unrecognised',
      `The quote in ${quote(fragment)} is never closed: end a phrase with a second quote. Try: ${exampleCommand(example)}`,
      fragment,
      `${fragment.trimEnd()}"`,
    );
  },

  /** `hint`: why the fragment is no database either, one of `databaseHints`. */
  unrecognised(fragment: string, hint: string, example = '#hcsm last week'): ParseError {
    return new ParseError(
      'unrecognised',
      `I don't understand ${quote(fragment)}: ${hint}. Try: ${exampleCommand(example)}`,
      fragment,
      hint === databaseHints.hashtag ? `"${fragment.replace(/^#/, '')}"` : '',
    );
  },
} as const;

/**
 * A count that works in place of `fragment` (`top 0`, `top 600`, `top many`): the nearest limit,
 * or the default ten.
 */
function countCorrection(fragment: string, min: number, max: number): string {
  const keyword = /^(top|limit)/i.exec(fragment)?.[0] ?? 'top';
  const count = Number(/\d+/.exec(fragment)?.[0] ?? Number.NaN);
  if (count > max) return `${keyword} ${max}`;
  if (count < min) return `${keyword} ${min}`;
  return `${keyword} 10`;
}

/** A range with its ends swapped (`from Sep 8 to Sep 1` -> `from Sep 1 to Sep 8`). */
function swappedEnds(fragment: string): string {
  const ends =
    /^(from\s+|between\s+)?(.+?)\s*(\s(?:to|until|till|til|through|thru|and)\s|[-–—])\s*(.+)$/i.exec(
      fragment,
    );
  if (ends === null) return 'last 7 days';
  const [, lead = '', first = '', joiner = '', last = ''] = ends;
  return `${lead}${last} ${joiner.trim()} ${first}`;
}

/** A window that has started in place of one that has not (`next week` -> `last week`). */
function pastOf(fragment: string): string {
  if (/\bnext\b/i.test(fragment)) return fragment.replace(/\bnext\b/i, 'last');
  if (/\btomorrow\b/i.test(fragment)) return fragment.replace(/\btomorrow\b/i, 'yesterday');
  return 'last 7 days';
}

/** `01.09.2026` as the ISO date a dotted date (day first) names; else a window. */
function isoOfDotted(fragment: string): string {
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(fragment);
  if (dotted === null) return 'last 7 days';
  const [, day = '', month = '', year = ''] = dotted;
  return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/** A city in each region people name, for the command that works (`in Europe` -> Europe/London). */
const regionCities: Readonly<Record<string, string>> = {
  europe: 'Europe/London',
  asia: 'Asia/Tokyo',
  africa: 'Africa/Lagos',
  america: 'America/New_York',
  americas: 'America/New_York',
  australia: 'Australia/Sydney',
  atlantic: 'Atlantic/Reykjavik',
  indian: 'Indian/Maldives',
};

function regionCity(place: string): string {
  return regionCities[place.trim().toLowerCase()] ?? 'UTC';
}

/** Zones that keep a half-hour offset most of the year, for the command that works. */
const halfHourZones: ReadonlyMap<string, string> = new Map([
  ['+03:30', 'Asia/Tehran'],
  ['-03:30', 'America/St_Johns'],
  ['+10:30', 'Australia/Adelaide'],
  ['+08:45', 'Australia/Eucla'],
  ['+12:45', 'Pacific/Chatham'],
]);

/** Why a token no clause claimed is no database either, for `parseErrors.unrecognised`. */
export const databaseHints = {
  dash: 'a dash only joins two times, as in Sep 1 - Sep 8',
  prefixedQuote: 'only group: may come before a quoted name',
  emptyQuotes: 'the quotes are empty',
  hashtag: 'a hashtag is # followed by letters, digits or underscores; quote a phrase instead',
  emptyGroup: 'group: needs an ID or a name, as in group:12 or group:"Rare Diseases"',
  unnamedChannel: 'Slack sent a channel without its name; type the hashtag as #name',
  mention: 'mentions and links are not databases',
  noWord: 'it is neither a database nor a time',
} as const;

/** Words too small to name anything alone. */
const smallWords: ReadonlySet<string> = new Set(['the', 'a', 'an', 'of', 'and', 'or', 'vs', 'vs.']);

/**
 * A phrase holds a word that is neither the grammar's nor a small word (`cancer in children`),
 * so it may be a database someone meant; `over the weekend`, `UTC`, `mon-fri` cannot be.
 */
function couldBeDatabase(phrase: string): boolean {
  return phrase
    .split(' ')
    .some((word) => !isReservedWord(word) && !smallWords.has(word.toLowerCase()));
}

const zoneWords: ReadonlySet<string> = new Set(['utc', 'gmt', 'z', 'tz', 'timezone']);

/** Why a reserved word cannot stay in a phrase, and what it would take to be read. */
function reservedHint(word: string): string {
  const lower = word.toLowerCase();
  const shown = quote(word);
  if (zoneWords.has(lower)) {
    return `a time zone goes after “in” or “tz”, as in “in UTC” or “tz Europe/London”`;
  }
  if (lower.split('-').length === 2 && lower.split('-').every((day) => weekdays.has(day))) {
    return `${shown} names several days, as a digest's schedule does; a lookup takes one window, such as last week or Sep 1-8`;
  }
  if (rangeWords.has(lower)) {
    return `${shown} makes a range, and I find no time on both sides of it (from Sep 1 to Sep 8)`;
  }
  if (lower === 'in') {
    return `after ${shown} I expect a time zone (in Europe/London, in Paris) or a period (in September, in 2025)`;
  }
  if (lower === 'at' || lower === 'on') {
    return `after ${shown} I expect a time or a date (on Sep 9 at 5pm)`;
  }
  return `${shown} is a word I read as a time, a schedule or an option, and it makes none here`;
}
