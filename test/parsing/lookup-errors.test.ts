import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { failure, saturday } from './lookup-helpers.ts';

describe('parseLookup', () => {
  describe('errors', () => {
    it.each([
      [
        '',
        'empty',
        undefined,
        'The command is empty: name at least one database (a #hashtag, a "quoted phrase", an ID or group:<name>) and, if you like, a time. Try: /influencers #hcsm last week',
      ],
      [
        ' , ',
        'empty',
        undefined,
        'The command is empty: name at least one database (a #hashtag, a "quoted phrase", an ID or group:<name>) and, if you like, a time. Try: /influencers #hcsm last week',
      ],
      [
        'last week',
        'no_database',
        'last week',
        'No database in “last week”: name at least one #hashtag, "quoted phrase", ID or group:<name>. Try: /influencers #hcsm last week',
      ],
      [
        '#a #b #c #d #e #f #g #h #i #j #k',
        'too_many_databases',
        '#k',
        'Too many databases: 11 given, at most 10 per request (“#k” is one too many). Try: /influencers #hcsm, #bcsm last week',
      ],
      [
        '#x tz Mars/Base',
        'unknown_zone',
        'Mars/Base',
        'Unknown time zone “Mars/Base”: use an IANA name such as Europe/London or America/New_York, a city, or UTC. Try: /influencers #x tz UTC',
      ],
      [
        '#x in Europe/Pariss',
        'unknown_zone',
        'Europe/Pariss',
        'Unknown time zone “Europe/Pariss”: did you mean Europe/Paris? Try: /influencers #x in Europe/Paris',
      ],
      [
        '#x in the US',
        'unknown_zone',
        'the US',
        '“the US” has several time zones (America/New_York, America/Chicago, America/Los_Angeles, America/Denver, America/Phoenix, …): name one of them, or a city. Try: /influencers #x in America/New_York',
      ],
      [
        '#x tz',
        'unknown_zone',
        'tz',
        '“tz” needs a time zone after it, such as Europe/London or UTC. Try: /influencers #x tz UTC',
      ],
      [
        '#x top 0',
        'bad_top',
        'top 0',
        '“top 0” is not a valid count: top and limit take a whole number from 1 to 100, or up to 500 with export. Try: /influencers #x top 1',
      ],
      [
        '#x top 501',
        'bad_top',
        'top 501',
        '“top 501” is not a valid count: top and limit take a whole number from 1 to 100, or up to 500 with export. Try: /influencers #x top 100',
      ],
      [
        '#x limit many',
        'bad_top',
        'limit many',
        '“limit many” is not a valid count: top and limit take a whole number from 1 to 100, or up to 500 with export. Try: /influencers #x limit 10',
      ],
      [
        '#x top',
        'bad_top',
        'top',
        '“top” is not a valid count: top and limit take a whole number from 1 to 100, or up to 500 with export. Try: /influencers #x top 10',
      ],
      [
        '#x yesterdy',
        'bad_time',
        'yesterdy',
        "I can't read “yesterdy”: did you mean “yesterday”? Try: /influencers #x yesterday",
      ],
      [
        '#x lst week',
        'bad_time',
        'lst week',
        "I can't read “lst week”: did you mean “last week”? Try: /influencers #x last week",
      ],
      [
        '#x 2 wekks ago',
        'bad_time',
        '2 wekks ago',
        "I can't read “2 wekks ago”: did you mean “2 weeks ago”? Try: /influencers #x 2 weeks ago",
      ],
      [
        '#x since whenever',
        'bad_time',
        'since whenever',
        "I can't read “since whenever” as a time. Dates look like 2026-09-01, 9/1/26 or Sep 1; windows like yesterday, last week, last 7 days or 2 weeks ago. Try: /influencers #x last 7 days",
      ],
      [
        '#x 2026-13-45',
        'bad_time',
        '2026-13-45',
        '“2026-13-45” is not a real date or time. Try: /influencers #x last 7 days',
      ],
      [
        '#x 32/11/26',
        'bad_time',
        '32/11/26',
        '“32/11/26” is not a real date or time. Try: /influencers #x last 7 days',
      ],
      [
        '#x Feb 30',
        'bad_time',
        'Feb 30',
        '“Feb 30” is not a real date or time. Try: /influencers #x last 7 days',
      ],
      [
        '#x since 25:00',
        'bad_time',
        '25:00',
        '“25:00” is not a real date or time. Try: /influencers #x since last 7 days',
      ],
      [
        '#x 01.09.2026',
        'bad_time',
        '01.09.2026',
        "“01.09.2026” is a date format I don't read. Write dates as 2026-09-01, 9/1/2026, Sep 1 or 1 Sep 2026, and ranges of days as Sep 1-8. Try: /influencers #x 2026-09-01",
      ],
      [
        '#x 1-8 Sep',
        'bad_time',
        '1-8 Sep',
        "“1-8 Sep” is a date format I don't read. Write dates as 2026-09-01, 9/1/2026, Sep 1 or 1 Sep 2026, and ranges of days as Sep 1-8. Try: /influencers #x last 7 days",
      ],
      [
        '#x since 1790000000000',
        'bad_time',
        'since 1790000000000',
        '“since 1790000000000” looks like a unix time in milliseconds: unix times here are seconds, 9 to 11 digits (drop the last three digits). Try: /influencers #x since 1790000000',
      ],
      [
        '#x 1790000000000 to 1791000000000',
        'bad_time',
        '1790000000000',
        '“1790000000000” looks like a unix time in milliseconds: unix times here are seconds, 9 to 11 digits (drop the last three digits). Try: /influencers #x 1790000000 to 1791000000',
      ],
      [
        '#x yesterday 3pm',
        'bad_time',
        'yesterday 3pm',
        '“yesterday 3pm” is a single moment, not a window: say where it starts or ends. Try: /influencers #x since yesterday 3pm',
      ],
      [
        '#x last week yesterday',
        'bad_time',
        'yesterday',
        'Two time windows given, “last week” and “yesterday”: give one, or join them with "to". Try: /influencers #x last week',
      ],
      [
        '#x last 99999 years',
        'bad_time',
        'last 99999 years',
        '“last 99999 years” reaches outside the years 1 to 9999. Try: /influencers #x last 7 days',
      ],
      [
        '#x now',
        'empty_window',
        'now',
        'The window “now” is empty: it starts and ends at 2026-11-21T15:30:00+00:00. Try: /influencers #x last 7 days',
      ],
      [
        '#x from Sep 8 2026 to Sep 1 2026',
        'inverted_window',
        'from Sep 8 2026 to Sep 1 2026',
        'The window “from Sep 8 2026 to Sep 1 2026” ends before it starts (2026-09-08T00:00:00+00:00 to 2026-09-01T00:00:00+00:00): put the earlier time first. Try: /influencers #x from Sep 1 2026 to Sep 8 2026',
      ],
      [
        '#x friday 3pm to friday 9am',
        'inverted_window',
        'friday 3pm to friday 9am',
        'The window “friday 3pm to friday 9am” ends before it starts (2026-11-20T15:00:00+00:00 to 2026-11-20T09:00:00+00:00): put the earlier time first. Try: /influencers #x friday 9am to friday 3pm',
      ],
      [
        '#x tomorrow',
        'future_start',
        'tomorrow',
        'The window “tomorrow” starts in the future (2026-11-22T00:00:00+00:00): there is no data yet. Try: /influencers #x yesterday',
      ],
      [
        '#x <@U123|ann>',
        'unrecognised',
        '<@U123|ann>',
        "I don't understand “<@U123|ann>”: mentions and links are not databases. Try: /influencers #x",
      ],
      [
        '#x <#C0123|>',
        'unrecognised',
        '<#C0123|>',
        "I don't understand “<#C0123|>”: Slack sent a channel without its name; type the hashtag as #name. Try: /influencers #x",
      ],
      [
        '#x - #y',
        'unrecognised',
        '-',
        "I don't understand “-”: a dash only joins two times, as in Sep 1 - Sep 8. Try: /influencers #x #y",
      ],
      [
        '#foo-bar',
        'unrecognised',
        '#foo-bar',
        'I don\'t understand “#foo-bar”: a hashtag is # followed by letters, digits or underscores; quote a phrase instead. Try: /influencers "foo-bar"',
      ],
      [
        '#x ???',
        'unrecognised',
        '???',
        "I don't understand “???”: it is neither a database nor a time. Try: /influencers #x",
      ],
      [
        '#x ""',
        'unrecognised',
        '""',
        'I don\'t understand “""”: the quotes are empty. Try: /influencers #x',
      ],
      [
        '"patient safety',
        'unrecognised',
        '"patient safety',
        'The quote in “"patient safety” is never closed: end a phrase with a second quote. Try: /influencers "patient safety"',
      ],
      [
        '#x top 5 limit 6',
        'unrecognised',
        'limit 6',
        'The number of results is given twice (again in “limit 6”): give it once. Try: /influencers #x top 5',
      ],
      [
        '#x tz UTC in Europe/Paris',
        'unrecognised',
        'in Europe/Paris',
        'The time zone is given twice (again in “in Europe/Paris”): give it once. Try: /influencers #x tz UTC',
      ],
      [
        '#x from Nov 15 to Nov 1',
        'inverted_window',
        'from Nov 15 to Nov 1',
        'The window “from Nov 15 to Nov 1” ends before it starts (2026-11-15T00:00:00+00:00 to 2026-11-01T00:00:00+00:00): put the earlier time first. Try: /influencers #x from Nov 1 to Nov 15',
      ],
      [
        '#x last 1000 years',
        'bad_time',
        'last 1000 years',
        'The window “last 1000 years” starts at 1026-11-21T15:30:00+00:00, before the earliest data (2006-03-21): there is nothing to count before then. Start on or after it. Try: /influencers #x since 2006-03-21',
      ],
      [
        '#x 2026-W54',
        'bad_time',
        '2026-W54',
        '“2026-W54” is not a real date or time. Try: /influencers #x last 7 days',
      ],
      [
        '#x vs blah',
        'bad_time',
        'vs blah',
        "I can't read what “vs blah” compares with: say vs previous period, vs last year, vs the week before or a window such as vs Q2. Try: /influencers #x vs previous period",
      ],
      [
        '#x sorted by popularity',
        'unrecognised',
        'sorted by popularity',
        "I can't rank by “sorted by popularity”: rank by mentions, retweets (reposts), tweets (posts), impressions (reach), replies or HSG score. Try: /influencers #x by mentions",
      ],
      [
        '#x last week vs previous vs last year',
        'unrecognised',
        'vs last year',
        'The comparison is given twice (again in “vs last year”): give it once. Try: /influencers #x last week vs previous',
      ],
      [
        '#x in Texas',
        'unknown_zone',
        'Texas',
        '“Texas” has several time zones (America/Chicago, America/Denver): name one of them, or a city. Try: /influencers #x in America/Chicago',
      ],
      [
        '#x tz Londn',
        'unknown_zone',
        'Londn',
        'Unknown time zone “Londn”: did you mean Europe/London? Try: /influencers #x tz Europe/London',
      ],
    ])('refuses %j with %s', (text, reason, fragment, message) => {
      const error = failure(text);
      expect(error).toBeInstanceOf(ParseError);
      expect({ reason: error.reason, fragment: error.fragment, message: error.message }).toEqual({
        reason,
        fragment,
        message,
      });
    });

    it('returns errors rather than throwing them', () => {
      expect(() => parseLookup('#x tomorrow', { now: saturday, zone: 'UTC' })).not.toThrow();
    });
  });
});
