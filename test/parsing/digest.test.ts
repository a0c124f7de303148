import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { digestVerbs } from '../../src/model/commands.ts';
import type { DigestWindow } from '../../src/model/digest.ts';
import { createsDigest, type DigestCommand, parseDigestCommand } from '../../src/parsing/digest.ts';
import { describeSchedule } from '../../src/render/digests/schedule.ts';
import { nextRuns } from '../../src/time/schedule.ts';

const now = new Date('2026-11-21T15:30:00Z');
const context = { now, zone: 'America/New_York' };

function create(text: string, zone = 'America/New_York') {
  const command = parseDigestCommand(text, { now, zone });
  if (command instanceof ParseError) throw new Error(`${text}: ${command.message}`);
  if (command.kind !== 'create') throw new Error(`${text}: ${command.kind}`);
  return command;
}

const sincePrevious: DigestWindow = { kind: 'since-previous-run' };

describe('parseDigestCommand', () => {
  describe('creates digests from the examples people are given', () => {
    it.each([
      [
        'digest #hcsm every monday at 9am',
        {
          databases: ['#hcsm'],
          schedule: {
            kind: 'cron',
            expression: '0 9 * * 1',
            zone: 'America/New_York',
            cadence: 'weekly',
          },
          window: sincePrevious,
          top: 10,
          zone: 'America/New_York',
          postWhen: 'always',
          presentation: 'list',
        },
      ],
      [
        'digest #bcsm, group:Oncology weekdays at 8:30 last 24 hours',
        {
          databases: ['#bcsm', 'group:Oncology'],
          schedule: {
            kind: 'cron',
            expression: '30 8 * * 1-5',
            zone: 'America/New_York',
            cadence: 'custom',
          },
          window: { kind: 'last', amount: 24, unit: 'hours' },
          top: 10,
          zone: 'America/New_York',
          postWhen: 'always',
          presentation: 'list',
        },
      ],
      [
        'digest "patient safety" every month on the 1st at 10:00 in Europe/London',
        {
          databases: ['patient safety'],
          schedule: {
            kind: 'cron',
            expression: '0 10 1 * *',
            zone: 'Europe/London',
            cadence: 'monthly',
          },
          window: sincePrevious,
          top: 10,
          zone: 'Europe/London',
          postWhen: 'always',
          presentation: 'list',
        },
      ],
      [
        'digest #hcsm cron "0 9 * * 1"',
        {
          databases: ['#hcsm'],
          schedule: {
            kind: 'cron',
            expression: '0 9 * * 1',
            zone: 'America/New_York',
            cadence: 'weekly',
          },
          window: sincePrevious,
          top: 10,
          zone: 'America/New_York',
          postWhen: 'always',
          presentation: 'list',
        },
      ],
    ])('reads %j', (text, spec) => {
      expect(parseDigestCommand(text, context)).toEqual({ kind: 'create', spec, notes: [] });
    });
  });

  describe('translates schedules in words to cron in the digest zone', () => {
    it.each([
      ['every day at 9am', '0 9 * * *', 'daily'],
      ['daily at 09:00', '0 9 * * *', 'daily'],
      ['each day at 7:45 pm', '45 19 * * *', 'daily'],
      ['everyday at noon', '0 12 * * *', 'daily'],
      ['every morning at 8', '0 8 * * *', 'daily'],
      ['daily at midnight', '0 0 * * *', 'daily'],
      ['every monday at 9am', '0 9 * * 1', 'weekly'],
      ['mondays at 9', '0 9 * * 1', 'weekly'],
      ['monday at 17', '0 17 * * 1', 'weekly'],
      ['on sundays at noon', '0 12 * * 0', 'weekly'],
      ['weekly on friday at 4pm', '0 16 * * 5', 'weekly'],
      ['every week on tue at 10:15', '15 10 * * 2', 'weekly'],
      ['every thursday 9am', '0 9 * * 4', 'weekly'],
      ['every mon, wed and fri at 17:30', '30 17 * * 1,3,5', 'custom'],
      ['mondays and thursdays at 8', '0 8 * * 1,4', 'custom'],
      ['every tuesday & friday at 6am', '0 6 * * 2,5', 'custom'],
      ['weekdays at 8:30', '30 8 * * 1-5', 'custom'],
      ['every weekday at 8:30', '30 8 * * 1-5', 'custom'],
      ['on weekdays at 7', '0 7 * * 1-5', 'custom'],
      ['every monday to friday at 7', '0 7 * * 1-5', 'custom'],
      ['mon-fri at 7', '0 7 * * 1-5', 'custom'],
      ['every fri-mon at 18:00', '0 18 * * 0,1,5,6', 'custom'],
      ['weekends at 10', '0 10 * * 0,6', 'custom'],
      ['every weekend day at 10', '0 10 * * 0,6', 'custom'],
      ['every month on the 1st at 10:00', '0 10 1 * *', 'monthly'],
      ['monthly on the 15th at 9am', '0 9 15 * *', 'monthly'],
      ['on the last day of every month at 17:00', '0 17 L * *', 'monthly'],
      ['every last day of the month at 17:00', '0 17 L * *', 'monthly'],
      ['every month on the last day at 8', '0 8 L * *', 'monthly'],
      ['the 1st of every month at 10', '0 10 1 * *', 'monthly'],
      ['on the 15th at 9am', '0 9 15 * *', 'monthly'],
      ['every 2nd at 9am', '0 9 2 * *', 'monthly'],
      ['every hour', '0 * * * *', 'custom'],
      ['hourly', '0 * * * *', 'custom'],
      ['every 6 hours', '0 */6 * * *', 'custom'],
      ['every 12h', '0 */12 * * *', 'custom'],
      ['cron “30 8 * * 1-5”', '30 8 * * 1-5', 'custom'],
      ["cron '0 9 1,15 * *'", '0 9 1,15 * *', 'custom'],
      ['cron:"0 9 1 * *"', '0 9 1 * *', 'monthly'],
      ['every mon wed fri at 9', '0 9 * * 1,3,5', 'custom'],
      ['on mon tue at 8:15', '15 8 * * 1,2', 'custom'],
      ['on the 1st and 15th', '0 9 1,15 * *', 'custom'],
      ['every month on the 1st, 15th and 28th at 8', '0 8 1,15,28 * *', 'custom'],
      ['on the 1st and the 15th of every month at 10am', '0 10 1,15 * *', 'custom'],
      ['the first monday of the month', '0 9 * * 1#1', 'custom'],
      ['every first monday at 9', '0 9 * * 1#1', 'custom'],
      ['every second tuesday at 14:00', '0 14 * * 2#2', 'custom'],
      ['on the third wednesday of every month at 8am', '0 8 * * 3#3', 'custom'],
      ['every last friday at 17:00', '0 17 * * 5#L', 'custom'],
      ['every weekday morning at 8', '0 8 * * 1-5', 'custom'],
      ['every weekday morning', '0 6 * * 1-5', 'custom'],
      ['mondays in the evening at 6pm', '0 18 * * 1', 'weekly'],
      ['every afternoon at 2pm', '0 14 * * *', 'daily'],
      ['every day at 5 in the afternoon', '0 17 * * *', 'daily'],
    ])('reads %j as %s (%s)', (schedule, expression, cadence) => {
      const command = create(`digest #hcsm ${schedule}`);
      expect(command.spec.schedule.expression).toBe(expression);
      expect(command.spec.schedule.cadence).toBe(cadence);
    });

    it('takes the time wherever it stands', () => {
      for (const text of [
        'digest #hcsm at 9am every monday',
        'digest 9am #hcsm every monday',
        'digest #hcsm every monday top 5 at 9',
      ]) {
        expect(create(text).spec.schedule.expression).toBe('0 9 * * 1');
      }
    });

    it('runs at 09:00 on Mondays or on the 1st when the time or day is left out, and says so', () => {
      expect(create('digest #hcsm weekly')).toMatchObject({
        spec: { schedule: { expression: '0 9 * * 1' } },
        notes: [
          'No time was given, so it runs at 09:00.',
          'No day was given, so it runs on Mondays.',
        ],
      });
      expect(create('digest #hcsm monthly at 8')).toMatchObject({
        spec: { schedule: { expression: '0 8 1 * *' } },
        notes: ['No day was given, so it runs on the 1st of every month.'],
      });
      expect(create('digest #hcsm every day').notes).toEqual([
        'No time was given, so it runs at 09:00.',
      ]);
    });

    it('keeps the 31st as asked: the engine skips months without one', () => {
      const command = create('digest #hcsm every month on the 31st at 9 in UTC');
      expect(command.spec.schedule).toEqual({
        kind: 'cron',
        expression: '0 9 31 * *',
        zone: 'UTC',
        cadence: 'monthly',
      });
      expect(nextRuns(command.spec.schedule, now, 2).map((run) => run.toISOString())).toEqual([
        '2026-12-31T09:00:00.000Z',
        '2027-01-31T09:00:00.000Z',
      ]);
    });

    it('stores hourly schedules as data, which the renderer words', () => {
      const { schedule } = create('digest #hcsm every 2 hours in Asia/Kolkata').spec;
      expect(schedule).toEqual({
        kind: 'cron',
        expression: '0 */2 * * *',
        zone: 'Asia/Kolkata',
        cadence: 'custom',
      });
      expect(describeSchedule(schedule)).toBe('Every 2 hours at :00 Asia/Kolkata');
    });

    it('uses the zone the text names, else the creator zone, else UTC', () => {
      expect(create('digest #hcsm daily at 9 tz europe/paris').spec.zone).toBe('Europe/Paris');
      expect(create('digest #hcsm daily at 9', 'Asia/Tokyo').spec.schedule.zone).toBe('Asia/Tokyo');
      expect(create('digest #hcsm daily at 9', '').spec.zone).toBe('UTC');
    });
  });

  describe('reads the window each run covers', () => {
    it.each<[string, string, DigestWindow]>([
      ['every day at 9', 'last 24 hours', { kind: 'last', amount: 24, unit: 'hours' }],
      ['every day at 9', 'past 7 days', { kind: 'last', amount: 7, unit: 'days' }],
      ['every monday at 9', 'last 2 weeks', { kind: 'last', amount: 2, unit: 'weeks' }],
      ['every monday at 9', '48h', { kind: 'last', amount: 48, unit: 'hours' }],
      ['every day at 9', 'last week', { kind: 'calendar', unit: 'week' }],
      ['every monday at 9', 'last week', { kind: 'calendar', unit: 'week' }],
      ['every month on the 1st', 'last month', { kind: 'calendar', unit: 'month' }],
      ['every monday at 9', 'last month', { kind: 'calendar', unit: 'month' }],
      ['every month on the 1st', 'last quarter', { kind: 'calendar', unit: 'quarter' }],
      ['weekdays at 8:30', 'since the previous run', sincePrevious],
      ['weekdays at 8:30', 'since last run', sincePrevious],
    ])('%s with %j', (schedule, window, expected) => {
      expect(create(`digest #hcsm ${schedule} ${window}`).spec.window).toEqual(expected);
      expect(create(`digest #hcsm ${window} ${schedule}`).spec.window).toEqual(expected);
    });
  });

  it('reads top N and keeps databases in order without duplicates', () => {
    const { spec } = create('digest #hcsm, 4711, #hcsm group:"Rare Diseases" daily at 9 top 25');
    expect(spec.databases).toEqual(['#hcsm', '4711', 'group:Rare Diseases']);
    expect(spec.top).toBe(25);
  });

  it.each<[string, DigestCommand]>([
    ['digests', { kind: 'list' }],
    ['Digests', { kind: 'list' }],
    ['digest list', { kind: 'list' }],
    ['digest', { kind: 'help' }],
    ['digest help', { kind: 'help' }],
    ['digests help', { kind: 'help' }],
    ['digest pause 7K3M9Q', { kind: 'pause', id: '7K3M9Q' }],
    ['digest resume 7k3m9q', { kind: 'resume', id: '7K3M9Q' }],
    ['digest remove 7K3M9O', { kind: 'remove', id: '7K3M90' }],
    ['digest delete `7K3M9Q`', { kind: 'remove', id: '7K3M9Q' }],
    ['digest run 7K3M9Q', { kind: 'run', id: '7K3M9Q' }],
    ['  digest   RUN  7k3m9q ', { kind: 'run', id: '7K3M9Q' }],
  ])('reads %j', (text, expected) => {
    expect(parseDigestCommand(text, context)).toEqual(expected);
  });

  it.each(
    [...digestVerbs].filter(([, verb]) => verb !== 'list' && verb !== 'create' && verb !== 'edit'),
  )('reads digest %s <id> as the %s action', (word, action) => {
    expect(parseDigestCommand(`digest ${word} 7K3M9Q`, context)).toEqual({
      kind: action,
      id: '7K3M9Q',
    });
  });

  it('reads digest stop as pausing, not as a new digest of the phrase stop', () => {
    expect(parseDigestCommand('digest stop 7K3M9Q', context)).toEqual({
      kind: 'pause',
      id: '7K3M9Q',
    });
  });

  it.each([...digestVerbs].filter(([, verb]) => verb === 'list'))(
    'reads digest %s as the list',
    (word) => {
      expect(parseDigestCommand(`digest ${word}`, context)).toEqual({ kind: 'list' });
    },
  );

  it('refuses words after a list verb', () => {
    const error = parseDigestCommand('digest show 7K3M9Q', context);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toBe(
      '“digest show” takes nothing after it, not “7K3M9Q”. Try: /influencers digests',
    );
  });

  it.each([...digestVerbs].filter(([, verb]) => verb === 'create'))(
    'reads digest %s <databases> <schedule> as a new digest',
    (word) => {
      const { spec } = create(`digest ${word} #hcsm every monday at 9am`);
      expect(spec.databases).toEqual(['#hcsm']);
      expect(spec.schedule.expression).toBe('0 9 * * 1');
    },
  );

  describe('refuses what it cannot schedule, saying what and how', () => {
    it.each([
      [
        'digest #hcsm',
        'bad_schedule',
        '“#hcsm” needs a schedule, such as every monday at 9am, weekdays at 8:30 or every month on the 1st at 10:00. Try: /influencers digest #hcsm every monday at 9am',
      ],
      [
        'digest #bcsm, group:Oncology last 24 hours',
        'bad_schedule',
        '“#bcsm, group:Oncology” needs a schedule, such as every monday at 9am, weekdays at 8:30 or every month on the 1st at 10:00. Try: /influencers digest #bcsm, group:Oncology every monday at 9am',
      ],
      [
        'digest every monday at 9am',
        'no_database',
        'No database in “every monday at 9am”: name at least one #hashtag, "quoted phrase", ID or group:<name> before the schedule. Try: /influencers digest #hcsm every monday at 9am',
      ],
      [
        'digest #hcsm daily at 25:00',
        'bad_schedule',
        '“25:00” is not a time of day: use 00:00 to 23:59, or 9am, 5:30pm, noon. Try: /influencers digest #hcsm every day at 17:30',
      ],
      [
        'digest #hcsm mondays at 24',
        'bad_schedule',
        '“at 24” is not a time of day: use 00:00 to 23:59, or 9am, 5:30pm, noon. Try: /influencers digest #hcsm every day at 17:30',
      ],
      [
        'digest #hcsm every monday at',
        'bad_schedule',
        '“at” is not a time of day: use 00:00 to 23:59, or 9am, 5:30pm, noon. Try: /influencers digest #hcsm every day at 17:30',
      ],
      [
        'digest #hcsm every mondy at 9am',
        'bad_schedule',
        "I can't read “every mondy” as a schedule: “mondy” is not a day of the week (monday to sunday, or mon, tue, wed, thu, fri, sat, sun). Try: /influencers digest #hcsm every monday at 9am",
      ],
      [
        'digest #hcsm every monday and fridy',
        'bad_schedule',
        "I can't read “monday and fridy” as a schedule: “fridy” is not a day of the week (monday to sunday, or mon, tue, wed, thu, fri, sat, sun). Try: /influencers digest #hcsm every monday at 9am",
      ],
      [
        'digest #hcsm every 2 months',
        'bad_schedule',
        "“every 2 months” can't be scheduled: a digest runs every day, on chosen days of every week or of every 2, 3 or 4 weeks, on a day of every month or of each quarter, or every few hours. Try: /influencers digest #hcsm every monday at 9am",
      ],
      [
        'digest #hcsm every blue moon',
        'bad_schedule',
        "I can't read “every blue” as a schedule. Say every day, every monday, mondays and thursdays, weekdays, every month on the 1st, on the last day of every month or every 6 hours, with a time such as at 9am or at 17:30. Try: /influencers digest #hcsm every monday at 9am",
      ],
      [
        'digest #hcsm every month on the 32nd',
        'bad_schedule',
        '“32nd” is not a day of the month: use the 1st to the 31st, or the last day. Try: /influencers digest #hcsm every month on the 1st at 10:00',
      ],
      [
        'digest #hcsm on the 0th of every month',
        'bad_schedule',
        '“0th” is not a day of the month: use the 1st to the 31st, or the last day. Try: /influencers digest #hcsm every month on the 1st at 10:00',
      ],
      [
        'digest #hcsm every 5 hours',
        'bad_schedule',
        '“every 5 hours” does not divide the day into equal runs: use every hour or every 2, 3, 4, 6, 8, 12 hours, or a daily schedule. Try: /influencers digest #hcsm every 6 hours',
      ],
      [
        'digest #hcsm every 30 minutes',
        'bad_schedule',
        '“every 30 minutes” is too often: a digest runs at most once an hour. Try: /influencers digest #hcsm every hour',
      ],
      [
        'digest #hcsm every 5 weeks',
        'bad_schedule',
        "“every 5 weeks” can't be scheduled: a digest runs every day, on chosen days of every week or of every 2, 3 or 4 weeks, on a day of every month or of each quarter, or every few hours. Try: /influencers digest #hcsm every monday at 9am",
      ],
      [
        'digest #hcsm every 6 hours at 9am',
        'bad_schedule',
        "“every 6 hours at 9am” sets its own times, so “at 9am” can't be added to it: leave the time out, or use a daily schedule. Try: /influencers digest #hcsm every day at 9am",
      ],
      [
        'digest #hcsm every morning at 5pm',
        'bad_schedule',
        '“at 5pm” is not in the morning: say every day instead of every morning for a time after noon. Try: /influencers digest #hcsm every day at 5pm',
      ],
      [
        'digest #hcsm daily at 9:30:15',
        'bad_schedule',
        '“9:30:15” has seconds: digests run on the minute, so give hours and minutes. Try: /influencers digest #hcsm every day at 17:30',
      ],
      [
        'digest #hcsm every monday at 9am at 10am',
        'bad_schedule',
        'Two times given, “at 9am” and “at 10am”: a digest runs at one time, so create a second digest for the other. Try: /influencers digest #hcsm every monday at 9am',
      ],
      [
        'digest #hcsm every monday daily',
        'bad_schedule',
        'Two schedules given, “every monday” and “daily”: give one per digest, or create a second digest. Try: /influencers digest #hcsm every monday at 9am',
      ],
      [
        'digest #hcsm every monday in Mars/Base',
        'unknown_zone',
        'Unknown time zone “Mars/Base”: use an IANA name such as Europe/London or America/New_York, a city, or UTC. Try: /influencers digest #hcsm every monday in UTC',
      ],
      [
        'digest #hcsm every monday at 9am in Europe/Pariss',
        'unknown_zone',
        'Unknown time zone “Europe/Pariss”: did you mean Europe/Paris? Try: /influencers digest #hcsm every monday at 9am in Europe/Paris',
      ],
      [
        'digest #hcsm daily top 0',
        'bad_top',
        '“top 0” is not a valid count: top and limit take a whole number from 1 to 50. Try: /influencers digest #hcsm daily top 1',
      ],
      [
        'digest #hcsm cron 0 9 * * 1',
        'bad_schedule',
        '“cron 0 9 * * 1”: put the five cron fields in quotes after cron. Try: /influencers digest #hcsm cron "0 9 * * 1"',
      ],
      [
        'digest #hcsm cron "0 9 * *"',
        'bad_schedule',
        'Cannot read the cron expression "0 9 * *": it needs five fields (minute hour day-of-month month day-of-week), for example cron "0 9 * * 1" for Mondays at 09:00. Try: /influencers digest #hcsm cron "0 9 * * 1"',
      ],
      [
        'digest #hcsm cron "*/15 * * * *"',
        'bad_schedule',
        'The schedule "*/15 * * * *" runs more often than once every 60 minutes; a digest can run at most that often. Try: /influencers digest #hcsm cron "0 9 * * 1"',
      ],
      [
        'digest #hcsm cron "0 0 30 2 *"',
        'bad_schedule',
        'The schedule "0 0 30 2 *" never runs. Try: /influencers digest #hcsm cron "0 9 * * 1"',
      ],
      [
        'digest #hcsm every day since Sep 1',
        'bad_time',
        "“since Sep 1” can't be a digest's window: each run looks back from its own time. Say last 24 hours, past 7 days, last 2 weeks or last week, or leave the window out for the time since the previous run. Try: /influencers digest #hcsm every monday at 9am last week",
      ],
      [
        'digest #hcsm every day yesterday',
        'bad_time',
        "“yesterday” can't be a digest's window: each run looks back from its own time. Say last 24 hours, past 7 days, last 2 weeks or last week, or leave the window out for the time since the previous run. Try: /influencers digest #hcsm every monday at 9am last week",
      ],
      [
        'digest #hcsm every day last 90 minutes',
        'bad_time',
        "“last 90 minutes” is too short for a digest's window: count it in hours, days, weeks or months. Try: /influencers digest #hcsm every day at 9am last 24 hours",
      ],
      [
        'digest #hcsm every day last 2 years',
        'bad_time',
        '“last 2 years” is not a window a digest can cover: from 1 hour to 1 year. Try: /influencers digest #hcsm every monday at 9am last 2 weeks',
      ],
      [
        'digest #hcsm every day last 24 hours past 7 days',
        'bad_time',
        'Two time windows given, “last 24 hours” and “past 7 days”: give one, or join them with "to". Try: /influencers digest #hcsm every day last 24 hours',
      ],
      [
        'digest #hcsm daily in UTC in Europe/Paris',
        'unrecognised',
        'The time zone is given twice (again in “in Europe/Paris”): give it once. Try: /influencers digest #hcsm daily in UTC',
      ],
      [
        'digest "patient safety every day',
        'unrecognised',
        'The quote in “"patient safety every day” is never closed: end a phrase with a second quote. Try: /influencers digest #hcsm every monday at 9am',
      ],
      [
        'digest pause',
        'bad_command',
        "“digest pause” needs the id of a digest; /influencers digests lists this channel's digests with their ids. Try: /influencers digest pause 7K3M9Q",
      ],
      [
        'digest remove XYZ',
        'bad_command',
        '“XYZ” is not a digest id: ids are 6 letters and digits, as /influencers digests shows them. Try: /influencers digest remove 7K3M9Q',
      ],
      [
        'digest delete 7K3M9Q please',
        'bad_command',
        '“digest delete” takes one digest id, not “7K3M9Q please”. Try: /influencers digest delete 7K3M9Q',
      ],
      [
        'subscribe #hcsm',
        'bad_command',
        'Digest commands start with digest or digests, not “subscribe”. Try: /influencers digest #hcsm every monday at 9am',
      ],
    ])('%j', (text, reason, message) => {
      const error = parseDigestCommand(text, context);
      expect(error).toBeInstanceOf(ParseError);
      expect(error).toMatchObject({ reason, message });
    });
  });

  it('never throws: any text is a command or a ParseError', () => {
    const words = [
      'digest',
      'digests',
      '#hcsm',
      '"patient safety"',
      'group:Oncology',
      '4711',
      ',',
      'every',
      'each',
      'day',
      'morning',
      'monday',
      'mondays',
      'mon',
      'wed',
      'fri-mon',
      'and',
      '&',
      'to',
      'weekdays',
      'weekends',
      'weekly',
      'monthly',
      'daily',
      'hourly',
      'month',
      'week',
      'hour',
      'hours',
      'on',
      'the',
      'of',
      '1st',
      '31st',
      '32nd',
      'last',
      'first',
      'at',
      '9',
      '9am',
      '25:00',
      '17:30',
      'noon',
      'cron',
      '"0 9 * * 1"',
      '"* * *"',
      "'0",
      "1'",
      'past',
      '7',
      'days',
      'since',
      'previous',
      'run',
      'top',
      '5',
      'in',
      'Europe/London',
      'Mars/Base',
      'pause',
      'resume',
      'remove',
      '7K3M9Q',
      'help',
      '"',
    ];
    const text = fc.oneof(
      fc.array(fc.constantFrom(...words), { maxLength: 10 }).map((parts) => parts.join(' ')),
      fc.string(),
      fc.string().map((rest) => `digest ${rest}`),
    );
    fc.assert(
      fc.property(text, (input) => {
        const result = parseDigestCommand(input, context);
        expect(result instanceof ParseError || typeof result.kind === 'string').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseDigestCommand (order, zones and parts of the day)', () => {
  it('runs nth weekdays and several days of the month where croner puts them, in the zone', () => {
    const first = create('digest #hcsm the first monday of the month at 9 in Paris');
    expect(first.spec.zone).toBe('Europe/Paris');
    expect(nextRuns(first.spec.schedule, now, 3).map((run) => run.toISOString())).toEqual([
      '2026-12-07T08:00:00.000Z',
      '2027-01-04T08:00:00.000Z',
      '2027-02-01T08:00:00.000Z',
    ]);
    const twice = create('digest #hcsm on the 1st and 15th at 10am in New York');
    expect(twice.spec.window).toEqual(sincePrevious);
    expect(nextRuns(twice.spec.schedule, now, 3).map((run) => run.toISOString())).toEqual([
      '2026-12-01T15:00:00.000Z',
      '2026-12-15T15:00:00.000Z',
      '2027-01-01T15:00:00.000Z',
    ]);
  });

  it.each([
    ['digest #hcsm every monday at 9am in London', 'Europe/London'],
    ['digest #hcsm every monday at 9am in new york', 'America/New_York'],
    ['digest #hcsm weekdays at 8:30 in Kolkata top 5', 'Asia/Kolkata'],
  ])('reads the city zone of %j as %s', (text, zone) => {
    expect(create(text).spec.zone).toBe(zone);
  });

  it('reads a glued top', () => {
    expect(create('digest #hcsm every monday at 9am top10').spec.top).toBe(10);
    expect(create('digest #hcsm every monday at 9am limit25').spec.top).toBe(25);
  });

  it.each([
    [
      'digest #hcsm every monday at 9 30',
      '30',
      "I don't understand “30” after the schedule: a digest is <databases> <schedule> [window] [top N] [in <zone>] [options], so name the databases first and, after the schedule, only a window (last 7 days), top N, a zone (in Europe/London) or an option (only when changed, only new). Try: /influencers digest #hcsm every monday at 9am",
    ],
    ['digest #hcsm every day at 9am with last 7 days', 'with', undefined],
    ['digest #hcsm every monday at 9am and', 'and', undefined],
    ['digest #hcsm every monday at 9am covering the past week', 'covering', undefined],
  ])('refuses %j, naming %j', (text, fragment, message) => {
    const error = parseDigestCommand(text, context);
    expect(error).toMatchObject({ reason: 'bad_schedule', fragment });
    if (message !== undefined) expect((error as ParseError).message).toBe(message);
  });

  it('takes hashtags, quoted phrases and groups after the schedule', () => {
    expect(
      create('digest every monday at 9am #hcsm "patient safety" group:Oncology').spec.databases,
    ).toEqual(['#hcsm', 'patient safety', 'group:Oncology']);
  });

  it.each([
    [
      'digest #hcsm every weekday morning at 3pm',
      'at 3pm',
      '“at 3pm” is not in the morning: give the time with am or pm, or on the 24-hour clock (at 8am). Try: /influencers digest #hcsm every weekday morning at 8am',
    ],
    [
      'digest #hcsm every monday evening at 6',
      'at 6',
      '“at 6” is not in the evening: give the time with am or pm, or on the 24-hour clock (at 6pm). Try: /influencers digest #hcsm every weekday evening at 6pm',
    ],
  ])('refuses %j: the time is not in the part of the day', (text, fragment, message) => {
    expect(parseDigestCommand(text, context)).toMatchObject({
      reason: 'bad_schedule',
      fragment,
      message,
    });
  });

  it('refuses a region as a zone', () => {
    expect(parseDigestCommand('digest #hcsm every monday at 9am in Europe', context)).toMatchObject(
      {
        reason: 'unknown_zone',
        message:
          '“Europe” is a region with many time zones: name a city, such as Europe/Paris, in Paris or in London. Try: /influencers digest #hcsm every monday at 9am in Europe/London',
      },
    );
  });

  it('refuses a sixth weekday of the month', () => {
    expect(parseDigestCommand('digest #hcsm every 6th monday', context)).toMatchObject({
      reason: 'bad_schedule',
    });
  });
});

describe('parseDigestCommand (when a digest posts)', () => {
  it.each([
    ['digest #hcsm every monday at 9am only when changed', 'changed'],
    ['digest #hcsm daily only if it changes', 'changed'],
    ['digest #hcsm only on change every day at 8', 'changed'],
    ['digest #hcsm weekdays at 8:30 only when the ranking changes top 5', 'changed'],
    ['digest #hcsm every 6 hours only new', 'new'],
    ['digest #hcsm every hour only newcomers', 'new'],
    ['digest #hcsm daily only new entrants in Europe/London', 'new'],
    ['digest #hcsm every monday at 9am post always', 'always'],
    ['digest #hcsm every monday at 9am', 'always'],
  ] as const)('reads %j as posting %s', (text, postWhen) => {
    expect(create(text).spec.postWhen).toBe(postWhen);
  });

  it.each([
    ['digest #hcsm daily only sometimes', 'only sometimes'],
    ['digest #hcsm daily only when', 'only when'],
  ])('refuses %j, naming %j', (text, fragment) => {
    const error = parseDigestCommand(text, context);
    expect(error).toBeInstanceOf(ParseError);
    expect(error).toMatchObject({ fragment });
    expect((error as ParseError).message).toContain('only when changed');
  });

  it('refuses two conditions', () => {
    expect(
      parseDigestCommand('digest #hcsm daily only new only when changed', context),
    ).toMatchObject({ fragment: 'only when changed' });
  });
});

describe('parseDigestCommand (metric and presentation)', () => {
  it.each([
    ['digest #hcsm every monday at 9am by impressions', 'impressions', 'list'],
    ['digest #hcsm by hsg score daily', 'hsg_score', 'list'],
    ['digest #hcsm daily ranked by retweets with table', 'retweets', 'table'],
    ['digest #hcsm daily with a chart', undefined, 'chart'],
    ['digest #hcsm daily as a list by mentions', 'mentions', 'list'],
    ['watch #hcsm top 10 by replies', 'replies', 'list'],
  ])('reads %j', (text, metric, presentation) => {
    const spec = create(text).spec;
    expect(spec.metric).toBe(metric);
    expect(spec.presentation).toBe(presentation);
  });

  it('leaves `by` that names no metric to the phrase it belongs to', () => {
    expect(create('digest "stand by me" daily').spec.databases).toEqual(['stand by me']);
  });

  it.each([
    ['digest #hcsm daily by mentions by retweets', 'by retweets'],
    ['digest #hcsm daily with table with chart', 'with chart'],
  ])('refuses %j, naming %j', (text, fragment) => {
    expect(parseDigestCommand(text, context)).toMatchObject({ fragment });
  });
});

describe('parseDigestCommand (watch)', () => {
  it.each([
    ['watch #hcsm top 10', '0 * * * *', 10],
    ['watch #hcsm', '0 * * * *', 10],
    ['watch #hcsm daily at 9am', '0 9 * * *', 10],
    ['watch #hcsm at 8:30 top 5', '30 8 * * *', 5],
    ['watch "breast cancer", #bcsm every 6 hours top 20', '0 */6 * * *', 20],
    ['watch #hcsm top 10 only new', '0 * * * *', 10],
  ])('reads %j as a digest that posts only new entrants', (text, expression, top) => {
    const spec = create(text).spec;
    expect(spec).toMatchObject({ postWhen: 'new', top, schedule: { expression } });
  });

  it.each(['watch', 'watch help', 'WATCH ?'])('answers %j with the help', (text) => {
    expect(parseDigestCommand(text, context)).toEqual({ kind: 'help' });
  });

  it.each([
    ['watch top 10', 'top 10', 'Try: /influencers watch #hcsm top 10'],
    ['watch #hcsm only when changed', 'only when changed', 'create a digest for that instead'],
  ])('refuses %j, naming %j', (text, fragment, words) => {
    const error = parseDigestCommand(text, context);
    expect(error).toMatchObject({ fragment });
    expect((error as ParseError).message).toContain(words);
  });

  it('says a watch needs its creator’s zone only when it is one', () => {
    expect([
      createsDigest('watch #hcsm'),
      createsDigest('watch'),
      createsDigest('watch help'),
    ]).toEqual([true, false, false]);
  });
});

describe('createsDigest', () => {
  const context = { now: new Date('2026-11-21T15:30:00Z'), zone: 'America/New_York' };
  const words = [
    'digest',
    'digests',
    '#hcsm',
    'every',
    'monday',
    'at',
    '9am',
    'pause',
    'stop',
    'run',
    'help',
    'create',
    'show',
    'K7Q2XD',
    '"patient safety"',
    'group:Oncology',
    'weekdays',
    'top',
    '5',
    'in',
    'Europe/London',
    '?',
  ];

  it('agrees with the parser on every command it reads', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('digest', 'digests', 'Digest'),
        fc.array(fc.constantFrom(...words), { maxLength: 8 }),
        (head, tail) => {
          const text = [head, ...tail].join(' ');
          const parsed = parseDigestCommand(text, context);
          if (parsed instanceof ParseError) return;
          expect(createsDigest(text)).toBe(parsed.kind === 'create');
        },
      ),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['digest #hcsm every monday at 9am', true],
    ['digest create #hcsm every monday at 9am', true],
    ['digest stop K7Q2XD', false],
    ['digest help', false],
    ['digests', false],
    ['digest', false],
  ])('says %j creates a digest: %s', (text, creates) => {
    expect(createsDigest(text)).toBe(creates);
  });
});

describe('schedule text past its bound', () => {
  it('refuses a cron expression over 200 characters without echoing it back', () => {
    const fields = `0 9 ${Array.from({ length: 120 }, (_, i) => (i % 28) + 1).join(',')} * *`;
    const result = parseDigestCommand(`digest #hcsm cron "${fields}"`, context);
    expect(result).toBeInstanceOf(ParseError);
    const message = (result as ParseError).message;
    expect(message).toContain(
      `That schedule is ${fields.length.toLocaleString('en-US')} characters long`,
    );
    expect(message).toContain('at most 200');
    expect(message).not.toContain(fields.slice(0, 40));
  });

  it('reads a cron expression of ordinary length as before', () => {
    const result = parseDigestCommand('digest #hcsm cron "0 9 1,15 * *"', context);
    expect(result).not.toBeInstanceOf(ParseError);
  });
});
