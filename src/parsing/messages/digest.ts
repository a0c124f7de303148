/**
 * The sentences of the digest commands: schedules, windows, ids and the notes of a confirmation.
 * Each error says what was wrong, quotes the fragment as typed and closes on a digest command that
 * works, never a lookup.
 */
import { ParseError } from '../../errors.ts';
import { exampleDigestId, slashCommand } from '../../model/commands.ts';
import { type DayPart, hourlySteps } from '../schedule/clause.ts';
import type { TimeOfDay } from '../time/ast.ts';
import { parseErrors } from './lookup.ts';
import { exampleCommand, quote } from './wording.ts';

const exampleArgs = 'digest #hcsm every monday at 9am';
/** `Try: /influencers digest #hcsm every monday at 9am`. */
export const tryDigest = `Try: ${exampleCommand(exampleArgs)}`;

/** `Try: /influencers watch #hcsm top 10`. */
export const tryWatch = `Try: ${exampleCommand('watch #hcsm top 10')}`;

const scheduleForms =
  'Say every day, every monday, mondays and thursdays, weekdays, every month on the 1st, on the ' +
  'last day of every month or every 6 hours, with a time such as at 9am or at 17:30';

/** Messages of the digest grammar: what was wrong, the fragment as typed, a command that works. */
export const digestErrors = {
  /** A schedule's text past `limit` characters: refused without quoting it back. */
  scheduleTooLong(length: number, limit: number): ParseError {
    const count = length.toLocaleString('en-US');
    return new ParseError(
      'bad_schedule',
      `That schedule is ${count} characters long: a schedule holds at most ${limit} (a cron expression is five short fields). ${scheduleForms}. ${tryDigest}`,
      `${count} characters`,
    );
  },

  unreadable(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `I can't read ${quote(fragment)} as a schedule. ${scheduleForms}. ${tryDigest}`,
      fragment,
    );
  },

  unknownWeekday(fragment: string, word: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `I can't read ${quote(fragment)} as a schedule: ${quote(word)} is not a day of the week (monday to sunday, or mon, tue, wed, thu, fri, sat, sun). ${tryDigest}`,
      fragment,
    );
  },

  badTimeOfDay(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} is not a time of day: use 00:00 to 23:59, or 9am, 5:30pm, noon. Try: ${exampleCommand('digest #hcsm every day at 17:30')}`,
      fragment,
    );
  },

  secondsInTime(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} has seconds: digests run on the minute, so give hours and minutes. Try: ${exampleCommand('digest #hcsm every day at 17:30')}`,
      fragment,
    );
  },

  /** `every friday night`: a night has no single start a digest could run at. */
  nightInSchedule(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} has no single time to run at: give the time, as in every friday at 9pm. Try: ${exampleCommand('digest #hcsm every friday at 9pm')}`,
      fragment,
    );
  },

  notMorning(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} is not in the morning: say every day instead of every morning for a time after noon. Try: ${exampleCommand('digest #hcsm every day at 5pm')}`,
      fragment,
    );
  },

  notInDayPart(fragment: string, part: DayPart): ParseError {
    const example = part === 'morning' ? 'at 8am' : part === 'afternoon' ? 'at 2pm' : 'at 6pm';
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} is not in the ${part}: give the time with am or pm, or on the 24-hour clock (${example}). Try: ${exampleCommand(`digest #hcsm every weekday ${part} ${example}`)}`,
      fragment,
    );
  },

  afterSchedule(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `I don't understand ${quote(fragment)} after the schedule: a digest is <databases> <schedule> [window] [top N] [in <zone>] [options], so name the databases first and, after the schedule, only a window (last 7 days), top N, a zone (in Europe/London) or an option (only when changed, only new). ${tryDigest}`,
      fragment,
    );
  },

  unreadableCondition(fragment: string): ParseError {
    return new ParseError(
      'unrecognised',
      `I can't read ${quote(fragment)} as when the digest posts: say only when changed (when the top N changes) or only new (when someone enters the top N). Try: ${exampleCommand('digest #hcsm every monday at 9am only when changed')}`,
      fragment,
    );
  },

  dayOfMonth(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} is not a day of the month: use the 1st to the 31st, or the last day. Try: ${exampleCommand('digest #hcsm every month on the 1st at 10:00')}`,
      fragment,
    );
  },

  hourlyStep(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} does not divide the day into equal runs: use every hour or every ${hourlySteps.slice(1).join(', ')} hours, or a daily schedule. Try: ${exampleCommand('digest #hcsm every 6 hours')}`,
      fragment,
    );
  },

  tooFrequent(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} is too often: a digest runs at most once an hour. Try: ${exampleCommand('digest #hcsm every hour')}`,
      fragment,
    );
  },

  unsupportedInterval(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} can't be scheduled: a digest runs every day, on chosen days of every week or of every 2, 3 or 4 weeks, on a day of every month or of each quarter, or every few hours. ${tryDigest}`,
      fragment,
    );
  },

  timeWithoutDays(fragment: string, schedule: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(schedule)} sets its own times, so ${quote(fragment)} can't be added to it: leave the time out, or use a daily schedule. Try: ${exampleCommand('digest #hcsm every day at 9am')}`,
      fragment,
    );
  },

  unquotedCron(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)}: put the five cron fields in quotes after cron. Try: ${exampleCommand('digest #hcsm cron "0 9 * * 1"')}`,
      fragment,
    );
  },

  /** The engine's own message about a cron expression, with a command that works. */
  engine(error: ParseError): ParseError {
    const message = error.message.includes('Try: ')
      ? error.message
      : `${error.message} Try: ${exampleCommand('digest #hcsm cron "0 9 * * 1"')}`;
    return new ParseError(error.reason, message, error.fragment);
  },

  /** `excel`, `csv` in a digest: its runs post in the channel, without a file. */
  noExport(fragment: string): ParseError {
    return new ParseError(
      'unrecognised',
      `${quote(fragment)} asks for a CSV file, and a digest posts its ranking in the channel without one: leave it out, or ask for the file in a lookup (${exampleCommand('#hcsm last week export')}). ${tryDigest}`,
      fragment,
      '',
    );
  },

  twoSchedules(first: string, second: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `Two schedules given, ${quote(first)} and ${quote(second)}: give one per digest, or create a second digest. ${tryDigest}`,
      second,
    );
  },

  twoTimes(first: string, second: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `Two times given, ${quote(first)} and ${quote(second)}: a digest runs at one time, so create a second digest for the other. ${tryDigest}`,
      second,
    );
  },

  /** The second of two zones or counts; `what` names the option, as `parseErrors` does. */
  repeatedOption(fragment: string, what: string): ParseError {
    return parseErrors.repeatedOption(fragment, what, digestExample('unrecognised'));
  },

  twoWindows(first: string, second: string): ParseError {
    return parseErrors.twoWindows(first, second, digestExample('bad_time'));
  },

  notDigestCommand(word: string): ParseError {
    return new ParseError(
      'bad_command',
      `Digest commands start with digest or digests, not ${quote(word)}. ${tryDigest}`,
      word,
    );
  },

  /** `command`: `digests` or `digest list` as typed. */
  listTakesNothing(command: string, fragment: string): ParseError {
    return new ParseError(
      'bad_command',
      `${quote(command)} takes nothing after it, not ${quote(fragment)}. Try: ${exampleCommand('digests')}`,
      fragment,
    );
  },

  /** `verb`: the action's word as typed (`pause`, `delete`), for the example. */
  missingId(command: string, verb: string): ParseError {
    return new ParseError(
      'bad_command',
      `${quote(command)} needs the id of a digest; ${exampleCommand('digests')} lists this channel's digests with their ids. ${tryAction(verb)}`,
      command,
    );
  },

  extraAfterId(command: string, extra: string, verb: string): ParseError {
    return new ParseError(
      'bad_command',
      `${quote(command)} takes one digest id, not ${quote(extra)}. ${tryAction(verb)}`,
      extra,
    );
  },

  nothingToEdit(command: string, id: string): ParseError {
    return new ParseError(
      'bad_command',
      `${quote(command)} needs what changes: a schedule, a time, a window, top N, a metric, a zone, with table or chart, or only when changed. Try: ${exampleCommand(`digest edit ${id} every monday at 10am top 5`)}`,
      command,
    );
  },

  databaseInEdit(fragment: string, id: string): ParseError {
    return new ParseError(
      'bad_command',
      `An edit keeps a digest's databases, so ${quote(fragment)} can't be changed: remove the digest and create one for other databases. An edit changes the schedule, time, window, top N, metric, who it keeps, zone, table or chart, and when it posts. Try: ${exampleCommand(`digest edit ${id} weekdays at 8:30`)}`,
      fragment,
    );
  },

  recipientInEdit(fragment: string, id: string): ParseError {
    return new ParseError(
      'bad_command',
      `An edit keeps where a digest posts, so ${quote(fragment)} can't be changed: create the digest again with \`to me\` for your DM. Try: ${exampleCommand(`digest edit ${id} weekdays at 8:30`)}`,
      fragment,
    );
  },

  notAnId(text: string, verb: string): ParseError {
    return new ParseError(
      'bad_command',
      `${quote(text)} is not a digest id: ids are 6 letters and digits, as ${exampleCommand('digests')} shows them. ${tryAction(verb)}`,
      text,
    );
  },

  noDatabase(fragment: string, kind: 'digest' | 'watch' = 'digest'): ParseError {
    return new ParseError(
      'no_database',
      kind === 'watch'
        ? `No database in ${quote(fragment)}: name at least one #hashtag, "quoted phrase", ID or group:<name> to watch. ${tryWatch}`
        : `No database in ${quote(fragment)}: name at least one #hashtag, "quoted phrase", ID or group:<name> before the schedule. ${tryDigest}`,
      fragment,
    );
  },

  watchCanvas(): ParseError {
    return new ParseError(
      'unrecognised',
      `A watch tells you alone in a DM, so it keeps no channel canvas: create a digest with one instead. Try: ${exampleCommand('digest #hcsm every monday at 9am canvas')}`,
      'canvas',
    );
  },

  /** `to me canvas`, or `canvas` typed in the app's DM: a DM has no channel canvas. */
  personalCanvas(): ParseError {
    return new ParseError(
      'unrecognised',
      `A digest sent to you in a DM keeps no channel canvas: create it in a channel to keep one. Try: ${exampleCommand('digest #hcsm every monday at 9am canvas')}`,
      'canvas',
    );
  },

  watchCondition(fragment: string): ParseError {
    return new ParseError(
      'unrecognised',
      `A watch posts only when someone new enters the top N, so ${quote(fragment)} can't be added to it: create a digest for that instead. Try: ${exampleCommand('digest #hcsm every monday at 9am only when changed')}`,
      fragment,
    );
  },

  noSchedule(databases: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(databases)} needs a schedule, such as every monday at 9am, weekdays at 8:30 or every month on the 1st at 10:00. Try: ${exampleCommand(`digest ${databases} every monday at 9am`)}`,
      databases,
    );
  },

  fixedWindow(fragment: string): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} can't be a digest's window: each run looks back from its own time. Say last 24 hours, past 7 days, last 2 weeks or last week, or leave the window out for the time since the previous run. Try: ${exampleCommand('digest #hcsm every monday at 9am last week')}`,
      fragment,
    );
  },

  windowTooShort(fragment: string): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} is too short for a digest's window: count it in hours, days, weeks or months. Try: ${exampleCommand('digest #hcsm every day at 9am last 24 hours')}`,
      fragment,
    );
  },

  windowOutOfRange(fragment: string): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} is not a window a digest can cover: from 1 hour to 1 year. Try: ${exampleCommand('digest #hcsm every monday at 9am last 2 weeks')}`,
      fragment,
    );
  },
} as const;

/** What the grammar decided for the creator, for the confirmation to say. */
export const digestNotes = {
  defaultTime(time: TimeOfDay): string {
    return `No time was given, so it runs at ${clock(time)}.`;
  },
  /** An edited schedule with no time: the digest's own time stays. */
  keptTime(time: TimeOfDay): string {
    return `No time was given, so it keeps its time, ${clock(time)}.`;
  },
  /** `every friday afternoon`: the part of the day's start. */
  partStart(part: string, time: TimeOfDay): string {
    const example = part === 'morning' ? '8am' : part === 'afternoon' ? '2pm' : '7pm';
    return `The ${part} starts at ${clock(time)}, so it runs then; add a time to choose another, such as at ${example}.`;
  },
  mondays: 'No day was given, so it runs on Mondays.',
  firstOfMonth: 'No day was given, so it runs on the 1st of every month.',
} as const;

/** `Try: /influencers digest pause abc123`, with the action's word as the person typed it. */
function tryAction(verb: string): string {
  return `Try: ${exampleCommand(`digest ${verb} ${exampleDigestId}`)}`;
}

/** The digest to show in an error's closing example, by the error's reason. */
function digestExample(reason: ParseError['reason'], correction?: string): string {
  switch (reason) {
    case 'unknown_zone':
      return `digest #hcsm every monday at 9am in ${correction ?? 'Europe/London'}`;
    case 'bad_top':
      return 'digest #hcsm every monday at 9am top 20';
    case 'too_many_databases':
      return 'digest #hcsm, #bcsm every monday at 9am';
    case 'bad_time':
      return 'digest #hcsm every monday at 9am last 7 days';
    default:
      return 'digest #hcsm every monday at 9am';
  }
}

/**
 * The matchers shared with lookups (options, databases, times) raise their errors with a lookup
 * example, since they do not know which grammar calls them; a digest's should be one someone can
 * copy. The digest grammar's own builders close on a digest already and are left alone.
 */
export function forDigest(error: ParseError): ParseError {
  const lookupTail = `Try: ${slashCommand} `;
  const at = error.message.lastIndexOf(lookupTail);
  const own = ['digest', 'watch'].some((word) =>
    error.message.startsWith(word, at + lookupTail.length),
  );
  if (at === -1 || own) return error;
  return new ParseError(
    error.reason,
    `${error.message.slice(0, at)}Try: ${exampleCommand(digestExample(error.reason, error.correction))}`,
    error.fragment,
    error.correction,
  );
}

function clock(time: TimeOfDay): string {
  return `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
}
