import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { createsDigest, parseDigestCommand, readDigestText } from '../../src/parsing/digest.ts';
import { parseLookup, readsAsQuestion } from '../../src/parsing/index.ts';
import { maxTextLength } from '../../src/parsing/limits.ts';
import { readLookupText } from '../../src/parsing/lookup.ts';
import { saturday } from './lookup-helpers.ts';

const context = { now: saturday, zone: 'UTC' };

/** `unit` repeated to exactly `length` characters, trailing space trimmed. */
const repeated = (unit: string, length: number): string =>
  unit
    .repeat(Math.ceil(length / unit.length))
    .slice(0, length)
    .trim();

/** CPU time of this thread, in milliseconds: the parser's own work, not the machine's other work. */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1_000;
}

/**
 * The least of three runs, in milliseconds of this thread's CPU time: other processes on a busy
 * machine delay a run by the wall clock but do not add to its CPU time, and the least of three
 * leaves out a garbage collection that happened to fall inside one run.
 */
function fastest(run: () => unknown, runs = 3): number {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = threadCpuMs();
    run();
    least = Math.min(least, threadCpuMs() - started);
  }
  return least;
}

/**
 * Eight times the text takes about eight times as long when the cost is linear, sixty-four times
 * when quadratic. The two are timed in turns, three times each, and the least of each kept, so the
 * machine's other work weighs on both alike. Under 250 ms for the long text passes whatever the
 * ratio: the quadratic grammar took seconds there, and a linear one can meet a collection or a
 * cache filling up on one size and not the other.
 */
function expectLinear(read: (text: string) => unknown, short: string, long: string): void {
  read(short);
  let shortMs = Number.POSITIVE_INFINITY;
  let longMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    shortMs = Math.min(
      shortMs,
      fastest(() => read(short), 1),
    );
    longMs = Math.min(
      longMs,
      fastest(() => read(long), 1),
    );
  }
  expect(longMs).toBeLessThan(Math.max(20 * shortMs, 250));
}

/**
 * About 20 ms per text at most, the promise; the worst text of 1,000 characters takes a few ms on
 * an idle core, and twice the promise leaves room for the caches that other work on the machine
 * evicts.
 */
const budgetMs = 40;

/**
 * Texts that made the grammar read from every word to the end of the text (each prefix read the
 * moment after it, and that one the next), or that stress every clause at each word.
 */
const hostileUnits = [
  'week of ',
  'in ',
  'the ',
  'on ',
  '9am ',
  'in the ',
  '2pm on ',
  'this past ',
  'last ',
  'who ',
  'sep 1 ',
  'cancer ',
  '#hcsm ',
  '12 ',
];

describe('the length bound', () => {
  it.each([
    [1_001, '1,001'],
    [10_000, '10,000'],
    [40_000, '40,000'],
  ])(
    'refuses a lookup of %i characters unread, saying the limit and the length',
    (length, shown) => {
      const error = parseLookup(`#hcsm ${'a'.repeat(length - 6)}`, context);
      expect(error).toBeInstanceOf(ParseError);
      expect((error as ParseError).message).toBe(
        `That text is ${shown} characters long: a command holds at most 1,000 characters (databases, a time and options). Shorten it. Try: /influencers #hcsm last week`,
      );
    },
  );

  it('reads a lookup of exactly the limit', () => {
    const text = `#hcsm last week ${'a'.repeat(maxTextLength - 16)}`;
    expect(text).toHaveLength(maxTextLength);
    expect(parseLookup(text, context)).not.toBeInstanceOf(ParseError);
  });

  it('measures the text as typed, after Slack escapes & < >', () => {
    const text = `#hcsm last week ${'&amp;'.repeat(300)}`;
    expect(text.length).toBeGreaterThan(maxTextLength);
    const result = parseLookup(text, context);
    expect(result instanceof ParseError ? result.message : '').not.toContain('characters long');
  });

  it('gives the bare example in a conversation', () => {
    const error = parseLookup('in '.repeat(7_167), { ...context, conversation: true });
    expect((error as ParseError).message).toBe(
      'That text is 21,501 characters long: a command holds at most 1,000 characters (databases, a time and options). Shorten it. Try: #hcsm last week',
    );
  });

  it.each(['digest #hcsm every monday at 9am ', 'watch #hcsm ', 'digest edit abc123 '])(
    'refuses a digest command past the limit: %s…',
    (start) => {
      const text = `${start}${repeated('week of ', 40_000)}`;
      const error = parseDigestCommand(text, context);
      expect((error as ParseError).message).toMatch(
        /^That text is 40,0\d\d characters long: a command holds at most 1,000 characters \(databases, a time and options\)\. Shorten it\. Try: \/influencers digest /,
      );
      expect(createsDigest(text)).toBe(false);
    },
  );

  it('reads no question past the limit', () => {
    expect(readsAsQuestion(`who drove #hcsm ${repeated('in ', 2_000)}`)).toBe(false);
  });
});

describe('the cost of parsing', () => {
  it.each(hostileUnits)(
    'reads %j repeated to 1,000, 10,000 and 40,000 characters in about 20 ms at most',
    (unit) => {
      for (const length of [1_000, 10_000, 40_000]) {
        const text = repeated(unit, length);
        parseLookup(text, context);
        expect(fastest(() => parseLookup(text, context))).toBeLessThan(budgetMs);
        const digest = `digest #hcsm ${repeated(unit, length - 13)}`;
        expect(fastest(() => parseDigestCommand(digest, context))).toBeLessThan(budgetMs);
      }
    },
  );

  it.each(hostileUnits)('reads %j past the bound in time linear in its length', (unit) => {
    const read = (text: string) => readLookupText(text, context);
    expectLinear(read, repeated(unit, 5_000), repeated(unit, 40_000));
  });

  it.each([
    ['digest ', 'on '],
    ['digest #hcsm every ', 'monday and '],
    ['digest #hcsm ', 'week of '],
    ['watch #hcsm ', 'in '],
    ['digest edit abc123 ', 'on the 1st and '],
  ])('reads the digest command %j + %j repeated past the bound in linear time', (start, unit) => {
    const read = (text: string) => readDigestText(text, context);
    expectLinear(read, `${start}${repeated(unit, 5_000)}`, `${start}${repeated(unit, 40_000)}`);
  });

  it('answers 21,501 characters of "in " with a ParseError, not a stack overflow', () => {
    const text = 'in '.repeat(7_167);
    expect(text).toHaveLength(21_501);
    expect(parseLookup(text, context)).toBeInstanceOf(ParseError);
    expect(readLookupText(text.trim(), context)).toBeInstanceOf(ParseError);
    expect(readDigestText(`digest #hcsm ${text.trim()}`, context)).toBeInstanceOf(ParseError);
  });

  it.each(['week of ', 'the ', '2pm on '])(
    'reads %j repeated 12,000 times without overflowing the stack',
    (unit) => {
      const text = unit.repeat(12_000).trim();
      expect(() => readLookupText(text, context)).not.toThrow();
      expect(() => readDigestText(`digest #hcsm every monday ${text}`, context)).not.toThrow();
    },
  );
});
