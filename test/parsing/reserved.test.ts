import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { isReservedWord, reservedWords } from '../../src/parsing/reserved.ts';

const now = new Date('2026-11-21T15:30:00Z');
const context = { now, zone: 'UTC' };

describe('isReservedWord', () => {
  it.each([
    'to',
    'Until',
    'since',
    'in',
    'over',
    'for',
    'during',
    'last',
    'weekend',
    'fortnight',
    'night',
    'Morning',
    'yesterday',
    'ago',
    'sat',
    'Wednesday.',
    'sept.',
    'may',
    'GMT',
    'utc',
    'CET',
    '9th',
    '22nd',
    '9am',
    '+02:00',
    'top10',
    'every',
    'cron',
    '28-Dec',
    'mon-fri',
  ])('reserves %j', (word) => {
    expect(isReservedWord(word)).toBe(true);
  });

  it.each([
    'breast',
    'cancer',
    'patient',
    'safety',
    'type',
    '2',
    'diabetes',
    'clinical',
    'trials',
    'and',
    'covid-19',
    'of',
    'the',
    'health',
  ])('leaves %j to phrases', (word) => {
    expect(isReservedWord(word)).toBe(false);
  });

  it('lists every reserved word once, sorted', () => {
    expect(reservedWords).toEqual([...new Set(reservedWords)].sort());
    expect(reservedWords).toContain('fortnight');
  });
});

describe('unquoted phrases and the grammar words', () => {
  it.each([
    ['breast cancer', 'breast cancer'],
    ['patient safety', 'patient safety'],
    ['type 2 diabetes', 'type 2 diabetes'],
    ['clinical trials', 'clinical trials'],
    ['diet and exercise', 'diet and exercise'],
    ['covid-19 vaccine', 'covid-19 vaccine'],
  ])('keeps %j as a phrase without quotes', (text, database) => {
    expect(parseLookup(`${text} last week`, context)).toMatchObject({ databases: [database] });
  });

  it.each([
    ['cancer in children last week', 'cancer in children', 'in'],
    ['access to care', 'access to care', 'to'],
    ['#x letters from home', 'letters from home', 'from'],
    ['world aids day', 'world aids day', 'day'],
    ['morning sickness', 'morning sickness', 'morning'],
    ['#x night shift nurses', 'night shift nurses', 'night'],
    ['#x last straw', 'last straw', 'last'],
    ['#x over the moon', 'over the moon', 'over'],
    ['#x for a while', 'for a while', 'for'],
  ])('refuses %j, quoting %j, because of %j', (text, fragment, word) => {
    const error = parseLookup(text, context);
    expect(error).toBeInstanceOf(ParseError);
    expect(error).toMatchObject({ reason: 'unrecognised', fragment });
    expect((error as ParseError).message).toContain(`“${word}”`);
    expect((error as ParseError).message).toContain(`put it in quotes: "${fragment}"`);
  });

  it.each([
    ['#x GMT', 'GMT', 'a time zone goes after “in” or “tz”', '#x'],
    ['#x UTC', 'UTC', 'a time zone goes after “in” or “tz”', '#x'],
    ['#x 9th', '9th', '“9th” is a word I read as a time', '#x'],
    ['#x on the 9th', 'on the 9th', 'after “on” I expect a time or a date', '#x'],
    ['#x 9am and 5pm', 'and', '“and” makes a range', '#x last week'],
    ['#x every monday', 'every', '“every” is a word I read as a time', '#x monday'],
    ['#x mon-fri', 'mon-fri', '“mon-fri” names several days', '#x'],
    ['#x over the', 'over the', '“over” is a word I read as a time', '#x'],
  ])('refuses %j, quoting %j, without calling it a database: %s', (text, fragment, hint, fix) => {
    const error = parseLookup(text, context);
    expect(error).toMatchObject({ reason: 'unrecognised', fragment });
    expect((error as ParseError).message).toContain(hint);
    expect((error as ParseError).message).not.toContain('put it in quotes');
    // The person's own command without what could not be read, when that command reads.
    expect((error as ParseError).message.endsWith(`Try: /influencers ${fix}`)).toBe(true);
  });

  it('says exactly how to fix a phrase with a range word', () => {
    expect(parseLookup('access to care last week', context)).toMatchObject({
      message:
        'I can\'t read “access to care”: “to” makes a range, and I find no time on both sides of it (from Sep 1 to Sep 8). If “access to care” is a database, put it in quotes: "access to care". Try: /influencers "access to care" last week',
    });
  });

  it('takes the same phrases in quotes as databases', () => {
    expect(
      parseLookup('"cancer in children", "access to care", "world aids day" last week', context),
    ).toMatchObject({ databases: ['cancer in children', 'access to care', 'world aids day'] });
  });

  it('refuses a phrase with schedule words before a digest schedule, with a digest example', () => {
    expect(
      parseDigestCommand('digest cancer in children every monday at 9am', context),
    ).toMatchObject({
      reason: 'unrecognised',
      fragment: 'cancer in children',
      message:
        'I can\'t read “cancer in children”: after “in” I expect a time zone (in Europe/London, in Paris) or a period (in September, in 2025). If “cancer in children” is a database, put it in quotes: "cancer in children". Try: /influencers digest "cancer in children" every monday at 9am',
    });
    expect(
      parseDigestCommand('digest "cancer in children" every monday at 9am', context),
    ).toMatchObject({ kind: 'create', spec: { databases: ['cancer in children'] } });
  });

  it('keeps a year between two words of a phrase, asks about a lone year, and reads `in 2025` as a year', () => {
    expect(parseLookup('covid 19 2024 booster', context)).toMatchObject({
      databases: ['covid 19 2024 booster'],
    });
    expect(parseLookup('#x 2025', context)).toMatchObject({
      reason: 'bad_time',
      message: expect.stringContaining('could be the year 2025 or the database with ID 2025'),
    });
    expect(parseLookup('#x 4711', context)).toMatchObject({ databases: ['#x', '4711'] });
    expect(parseLookup('#x in 2025', context)).toMatchObject({
      databases: ['#x'],
      start: '2025-01-01T00:00:00+00:00',
    });
    expect(parseLookup('"2025" last week', context)).toMatchObject({ databases: ['2025'] });
  });
});
