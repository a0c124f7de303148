import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { failure, saturday } from './lookup-helpers.ts';

const tryOf = (error: ParseError): string =>
  error.message.slice(
    error.message.lastIndexOf('Try: /influencers ') + 'Try: /influencers '.length,
  );

describe("a refusal's Try is the person's own command with the one fix applied", () => {
  it.each([
    ['#hcsm from Sep 8 to Sep 1 top 5', '#hcsm from Sep 1 to Sep 8 top 5'],
    ['#hcsm last month vs previous perod top 5', '#hcsm last month vs previous period top 5'],
    ['#hcsm last week yesterday top 5 in Europe/Paris', '#hcsm last week top 5 in Europe/Paris'],
    ['#hcsm, #bcsm last week tz Narnia', '#hcsm, #bcsm last week tz UTC'],
    ['#hcsm last week in Narnia', '#hcsm last week "in Narnia"'],
    ['#hcsm last week in Springfield top 5', '#hcsm last week in America/New_York top 5'],
    ['#hcsm top 0 last week', '#hcsm top 1 last week'],
    ['#hcsm last week chart top 20', '#hcsm last week chart top 10'],
    ['#hcsm last week chart table', '#hcsm last week chart'],
    ['#hcsm top 20 last week chart table', '#hcsm last week table'],
    ['#hcsm next week top 5', '#hcsm last week top 5'],
    ['#hcsm since 2001 top 5', '#hcsm since 2006-03-21 top 5'],
    ['#hcsm sep 9 by popularity', '#hcsm sep 9 by mentions'],
    ['"patient safety last week', '"patient safety last week"'],
    ['group:Digital Health last week', 'group:"Digital Health" last week'],
    ['last week top 5', '#hcsm last week top 5'],
  ])('%j -> Try: %j', (text, command) => {
    const error = failure(text);
    expect(tryOf(error)).toBe(command);
  });

  it('says a group name of several words needs quotes', () => {
    const error = failure('group:Digital Health last week');
    expect(error.message).toContain(
      'A group\'s name of several words needs quotes: group:"Digital Health"',
    );
  });

  it("fits a digest command's Try the same way", () => {
    const error = parseDigestCommand('digest #hcsm daily in UTC in Europe/Paris top 5', {
      now: saturday,
      zone: 'UTC',
    }) as ParseError;
    expect(tryOf(error)).toBe('digest #hcsm daily in UTC top 5');
  });

  it('offers only commands that read', () => {
    const words = [
      '#hcsm',
      'last',
      'week',
      'yesterday',
      'top',
      '5',
      '0',
      'in',
      'Narnia',
      'vs',
      'previous',
      'perod',
      'since',
      'from',
      'to',
      'Sep',
      '8',
      '1',
      'tomorrow',
      'chart',
      'table',
      'by',
      'likes',
      'doctors',
      'excel',
      'recently',
      '2026',
      'please',
    ];
    const text = fc
      .array(fc.constantFrom(...words), { minLength: 1, maxLength: 7 })
      .map((tokens) => tokens.join(' '));
    fc.assert(
      fc.property(text, (input) => {
        const result = parseLookup(input, { now: saturday, zone: 'UTC' });
        if (!(result instanceof ParseError) || !result.message.includes('Try: /influencers '))
          return;
        const offered = parseLookup(tryOf(result), { now: saturday, zone: 'UTC' });
        expect([
          input,
          tryOf(result),
          offered instanceof ParseError ? offered.message : 'reads',
        ]).toEqual([input, tryOf(result), 'reads']);
      }),
      { numRuns: Number(process.env.TRY_RUNS ?? 2_000) },
    );
  });
});
