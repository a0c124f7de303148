import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { type LookupRequest, parseLookup } from '../../src/parsing/index.ts';
import { isReservedWord } from '../../src/parsing/reserved.ts';

const zones = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Asia/Kolkata',
  'Australia/Sydney',
  'Pacific/Chatham',
  '',
];

/** Words of the grammar and its neighbours, so random commands often parse and often nearly do. */
const grammarTokens = [
  '#hcsm',
  '#BCSM',
  '"patient safety"',
  '“rare disease”',
  'group:12',
  'group:"Rare Diseases"',
  '4711',
  'breast',
  'cancer',
  ',',
  '-',
  '–',
  'to',
  'from',
  'since',
  'between',
  'and',
  'through',
  'thru',
  'until',
  'ago',
  'a',
  'an',
  'the',
  'on',
  'in',
  'at',
  'last',
  'past',
  'this',
  'next',
  'previous',
  'now',
  'today',
  'yesterday',
  'tomorrow',
  'week',
  'weeks',
  'month',
  'months',
  'quarter',
  'year',
  'years',
  'day',
  'days',
  'hour',
  'hours',
  'minutes',
  'ytd',
  'year',
  'date',
  'Q1',
  'Q3',
  'q4',
  '2025',
  '2026',
  '2027',
  '0',
  '1',
  '2',
  '7',
  '31',
  '48h',
  '10d',
  '3w',
  '0d',
  '99999y',
  'monday',
  'fri',
  'sat',
  'sunday',
  'Sep',
  'september',
  'December',
  'Feb',
  '29',
  '30',
  '9th',
  '2026-09-01',
  '2026-13-45',
  '9/1/26',
  '12/31/2026',
  '2/29',
  '14:05',
  '2pm',
  '7:45',
  'am',
  'noon',
  'midnight',
  '2026-11-20T10:00:00+02:00',
  '2026-11-20T10:00',
  '1763000000',
  '99999999999',
  'top',
  'limit',
  '0',
  '50',
  '51',
  '101',
  '500',
  'table',
  'chart',
  'graph',
  'categories',
  'export',
  'csv',
  'tz',
  'tz:utc',
  'timezone',
  'vs',
  'previous',
  'period',
  'by',
  'mentions',
  'reach',
  'Europe/Paris',
  'asia/kolkata',
  'Mars/Base',
  'UTC',
  'EST',
  'yesterdy',
  '<#C0123|hcsm>',
  '&amp;',
  '&lt;',
  '<@U1>',
  '""',
  '"',
  '#',
  'group:',
];

const command = fc
  .array(fc.constantFrom(...grammarTokens), { minLength: 0, maxLength: 9 })
  .map((tokens) => tokens.join(' '));

/** A clock late enough that a year of past bias never reaches back before the earliest data. */
const contextWithData = fc.record({
  now: fc.date({
    min: new Date('2008-01-01T00:00:00Z'),
    max: new Date('2035-12-31T23:59:59Z'),
    noInvalidDate: true,
  }),
  zone: fc.constantFrom('UTC', 'America/New_York', 'Asia/Kathmandu', 'Australia/Sydney'),
});

const context = fc.record({
  now: fc.date({
    min: new Date('1990-01-01T00:00:00Z'),
    max: new Date('2035-12-31T23:59:59Z'),
    noInvalidDate: true,
  }),
  zone: fc.constantFrom(...zones),
});

function checkInvariants(result: LookupRequest | ParseError, now: Date): void {
  if (result instanceof ParseError) {
    expect(result.message.length).toBeGreaterThan(0);
    return;
  }
  const keys = Object.keys(result);
  expect(keys.slice(0, 5)).toEqual(['databases', 'start', 'end', 'timezone', 'top']);
  for (const key of keys.slice(5)) {
    expect([
      'zoneAlias',
      'compare',
      'metric',
      'presentation',
      'export',
      'trend',
      'person',
      'stakeholders',
      'orderBy',
      'leftOut',
    ]).toContain(key);
  }
  const start = Date.parse(result.start);
  const end = Date.parse(result.end);
  expect(result.start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
  expect(result.end).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
  expect(start).toBeLessThan(end);
  expect(end).toBeLessThanOrEqual(now.getTime());
  expect(result.databases.length).toBeGreaterThanOrEqual(1);
  expect(result.databases.length).toBeLessThanOrEqual(10);
  expect(new Set(result.databases).size).toBe(result.databases.length);
  expect(result.top).toBeGreaterThanOrEqual(1);
  expect(result.top).toBeLessThanOrEqual(result.export === true ? 500 : 100);
  if (result.top > 10 && result.export !== true) {
    expect(['table', 'category_chart']).toContain(result.presentation);
  }
  if (result.compare !== undefined) {
    expect(Date.parse(result.compare.start)).toBeLessThan(Date.parse(result.compare.end));
    expect(Date.parse(result.compare.end)).toBeLessThanOrEqual(now.getTime());
  }
}

/** The two ends of a range phrase built from the shapes above. */
function rangeEnds(phrase: string): [string, string] {
  const parts = phrase.replace(/^(from|between) /, '').split(/ (?:to|-|through|and) /);
  return [parts[0] as string, parts[1] as string];
}

const monthNumber = (name: string): number =>
  ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(
    name.slice(0, 3).toLowerCase(),
  ) + 1;

describe('parseLookup (properties)', () => {
  it('returns a valid request or a ParseError for arbitrary strings, never throwing', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' })),
        context,
        (text, { now, zone }) => {
          checkInvariants(parseLookup(text, { now, zone }), now);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('returns a valid request or a ParseError for arbitrary mixes of grammar words', () => {
    fc.assert(
      fc.property(command, context, (text, { now, zone }) => {
        checkInvariants(parseLookup(text, { now, zone }), now);
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads a range whose end has no year forward from the start, refusing only an earlier day of the same month', () => {
    const monthNames = [
      'Jan',
      'February',
      'mar',
      'Apr',
      'May',
      'June',
      'Jul',
      'Aug',
      'Sep',
      'October',
      'nov',
      'Dec',
    ];
    const day = fc.oneof(
      fc
        .tuple(fc.constantFrom(...monthNames), fc.integer({ min: 1, max: 28 }))
        .map(([month, date]) => `${month} ${date}`),
      fc.constantFrom('monday', 'wednesday', 'friday', 'sunday'),
    );
    // Days go with days; a month or quarter only with its own kind, since `May to Q2` is
    // rightly inverted (Q2 holds May and starts before it).
    const month = fc.constantFrom('January', 'March', 'June', 'September', 'December');
    const quarter = fc.constantFrom('Q1', 'Q2', 'Q3', 'Q4');
    const ends = fc.oneof(fc.tuple(day, day), fc.tuple(month, month), fc.tuple(quarter, quarter));
    const range = fc
      .tuple(
        ends,
        fc.constantFrom('A to B', 'from A to B', 'A - B', 'A through B', 'between A and B'),
      )
      .map(([[a, b], shape]) => shape.replace('A', a).replace('B', b));
    fc.assert(
      fc.property(range, contextWithData, (phrase, { now, zone }) => {
        const result = parseLookup(`#hcsm ${phrase}`, { now, zone });
        checkInvariants(result, now);
        if (!(result instanceof ParseError)) return;
        // Refused as backwards only for a dated end earlier in the start's own month.
        const [a, b] = rangeEnds(phrase);
        const start = parseLookup(`#hcsm since ${a}`, { now, zone });
        const end = /^([A-Za-z]+) (\d+)$/.exec(b);
        const backwards =
          !(start instanceof ParseError) &&
          end !== null &&
          Number(start.start.slice(5, 7)) === monthNumber(end[1] as string) &&
          Number(end[2]) < Number(start.start.slice(8, 10));
        expect([phrase, result.reason]).toEqual([
          phrase,
          backwards ? 'inverted_window' : 'empty_window',
        ]);
      }),
      { numRuns: 2_000 },
    );
  });

  it('never lets a "previous" comparison overlap the window it follows', () => {
    const windows = [
      '',
      'last week',
      'yesterday',
      'this month',
      'last 48 hours',
      'past 7 days',
      'Q3',
      'since monday',
      'from Oct 1 to Oct 31',
      'between 9am and 5pm yesterday',
      'last night',
      '2 weeks ago',
      'week 46',
      'H1',
    ];
    const previous = ['vs previous', 'vs previous period', 'compared to the prior period'];
    const command = fc
      .tuple(fc.constantFrom(...windows), fc.constantFrom(...previous))
      .map(([window, compare]) => `#hcsm ${window} ${compare}`);
    fc.assert(
      fc.property(command, contextWithData, (text, { now, zone }) => {
        const result = parseLookup(text, { now, zone });
        checkInvariants(result, now);
        if (result instanceof ParseError || result.compare === undefined) return;
        const [start, compareStart, compareEnd] = [
          result.start,
          result.compare.start,
          result.compare.end,
        ].map((instant) => Date.parse(instant));
        expect(compareStart).toBeLessThan(compareEnd as number);
        expect(compareEnd).toBeLessThanOrEqual(start as number);
      }),
      { numRuns: 2_000 },
    );
  });

  it('joins a number standing between two words of a phrase, and keeps one at its edge an ID', () => {
    const word = fc.constantFrom(
      'breast',
      'cancer',
      'type',
      'diabetes',
      'covid',
      'vaccine',
      'stage',
      'trial',
    );
    // A number from 1900 to 2099 at the edge of a phrase is a year, not an ID.
    const number = fc
      .nat({ max: 99_999_999_999 })
      .filter((n) => n < 1900 || n > 2099)
      .map(String);
    fc.assert(
      fc.property(word, number, word, (before, n, after) => {
        const read = (text: string): unknown =>
          (
            parseLookup(text, {
              now: new Date('2026-11-21T15:30:00Z'),
              zone: 'UTC',
            }) as LookupRequest
          ).databases;
        expect(read(`${before} ${n} ${after}`)).toEqual([`${before} ${n} ${after}`]);
        expect(read(`${before} ${n}`)).toEqual([before, n]);
        expect(read(`${n} ${after}`)).toEqual([n, after]);
      }),
      { numRuns: 500 },
    );
  });

  it('never returns an unquoted database that holds a word of the grammar', () => {
    const phraseWords = [
      'breast',
      'cancer',
      'patient',
      'safety',
      'children',
      'care',
      'doctors',
      'aids',
      'sickness',
      'shift',
      'sun',
      'moon',
      'London',
      'Paris',
      'New',
      'York',
      'Europe',
      'GMT',
      'Z',
      '+02:00',
      'fortnight',
      'weekend',
      'night',
      'morning',
      'over',
      'for',
      'during',
      'top10',
      'limit20',
      '1-8',
      'Jan-Mar',
      '9am-5pm',
      '1790000000',
      '1790000000000',
    ];
    const unquoted = grammarTokens.filter((t) => !/["“”]/.test(t));
    const text = fc
      .array(fc.constantFrom(...unquoted, ...phraseWords), { minLength: 1, maxLength: 8 })
      .map((tokens) => tokens.join(' '));
    fc.assert(
      fc.property(text, context, (input, { now, zone }) => {
        const result = parseLookup(input, { now, zone });
        checkInvariants(result, now);
        if (result instanceof ParseError) return;
        for (const database of result.databases) {
          if (database.startsWith('#') || /^group:/i.test(database)) continue;
          const reserved = database.split(' ').filter((word) => isReservedWord(word));
          expect([input, database, reserved]).toEqual([input, database, []]);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads a well-formed command the same whatever the case of its keywords', () => {
    const phrases = [
      'last week',
      'yesterday',
      'since monday',
      'past 48 hours',
      'from Sep 1 to Sep 8',
      'Q3',
      'ytd',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...phrases),
        fc.boolean(),
        context,
        (phrase, upper, { now, zone }) => {
          const cased = upper ? phrase.toUpperCase() : phrase.toLowerCase();
          const a = parseLookup(`#hcsm ${phrase}`, { now, zone });
          const b = parseLookup(`#hcsm ${cased}`, { now, zone });
          // Errors quote the text as typed, so only their reason must agree.
          if (a instanceof ParseError || b instanceof ParseError)
            expect((b as ParseError).reason).toBe((a as ParseError).reason);
          else expect(b).toEqual(a);
        },
      ),
      { numRuns: 500 },
    );
  });
});
