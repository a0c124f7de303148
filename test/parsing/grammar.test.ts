import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import {
  formatInstant,
  type Matcher,
  matchTimeExpression,
  matchTopOption,
  matchZoneOption,
  normaliseSlackText,
  parseTimeWindow,
  readDatabaseToken,
  resolveZone,
  scanCommand,
  tokenize,
} from '../../src/parsing/index.ts';

const now = new Date('2026-11-21T15:30:00Z');

describe('normaliseSlackText', () => {
  it.each([
    ['&lt;#C0123|hcsm&gt; &amp; <#C9|bcsm>', '#hcsm & #bcsm'],
    ['“a” ‘b c’ women’s', '"a" "b c" women\'s'],
    ['a\u00a0b\tc', 'a b c'],
    ['<#C0123|>', '<#C0123|>'],
    ['&amp;lt;', '&lt;'],
  ])('turns %j into %j', (input, output) => {
    expect(normaliseSlackText(input)).toBe(output);
  });
});

describe('tokenize', () => {
  it('splits on spaces, commas, quotes and long dashes, keeping offsets', () => {
    const tokens = tokenize('#a,"b  c" group:"D E" x–y - z');
    expect(tokens.map((t) => [t.kind, t.text, t.prefix ?? null, t.from, t.to])).toEqual([
      ['word', '#a', null, 0, 2],
      ['comma', ',', null, 2, 3],
      ['quoted', 'b c', null, 3, 9],
      ['quoted', 'D E', 'group:', 10, 21],
      ['word', 'x', null, 22, 23],
      ['dash', '–', null, 23, 24],
      ['word', 'y', null, 24, 25],
      ['dash', '-', null, 26, 27],
      ['word', 'z', null, 28, 29],
    ]);
  });

  it('refuses an unclosed quote', () => {
    expect(() => tokenize('"abc')).toThrow(ParseError);
  });
});

describe('resolveZone', () => {
  it.each([
    ['europe/paris', 'Europe/Paris'],
    ['EUROPE/LONDON', 'Europe/London'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['asia/calcutta', 'Asia/Kolkata'],
    ['europe/kiev', 'Europe/Kyiv'],
    ['america/argentina/buenos_aires', 'America/Argentina/Buenos_Aires'],
    ['utc', 'UTC'],
    ['Etc/UTC', 'UTC'],
    ['us/eastern', 'America/New_York'],
  ])('resolves %s to %s', (input, zone) => {
    expect(resolveZone(input)).toBe(zone);
  });

  it.each(['Mars/Base', 'EST', 'paris', '', 'Europe/'])('refuses %j', (input) => {
    expect(resolveZone(input)).toBeUndefined();
  });
});

describe('parseTimeWindow', () => {
  it('reads a phrase on its own in a zone', () => {
    const w = parseTimeWindow('last week', { now, zone: 'America/New_York' });
    expect([formatInstant(w.start), formatInstant(w.end)]).toEqual([
      '2026-11-09T00:00:00-05:00',
      '2026-11-16T00:00:00-05:00',
    ]);
  });

  it('refuses text that is more than one time expression', () => {
    expect(() => parseTimeWindow('last week #hcsm', { now, zone: 'UTC' })).toThrow(
      "I can't read “last week #hcsm” as a time.",
    );
  });
});

describe('scanCommand', () => {
  it('lets a second grammar add its own clause and reuse the rest', () => {
    const every: Matcher<string> = (tokens, at) =>
      tokens[at]?.lower === 'every' && tokens[at + 1]?.lower === 'monday'
        ? { value: 'weekly', next: at + 2 }
        : undefined;
    const text = '#hcsm, group:Oncology every monday last 24 hours top 5 in europe/london';
    const scan = scanCommand(text, tokenize(text), {
      schedule: every,
      zone: matchZoneOption,
      top: matchTopOption,
      window: matchTimeExpression,
    });
    expect(scan.databases.map((d) => d.name)).toEqual(['#hcsm', 'group:Oncology']);
    expect(scan.clauses.map((c) => [c.kind, c.fragment])).toEqual([
      ['schedule', 'every monday'],
      ['window', 'last 24 hours'],
      ['top', 'top 5'],
      ['zone', 'in europe/london'],
    ]);
    expect(scan.clauses[1]?.value).toEqual({
      kind: 'period',
      moment: { kind: 'rolling', amount: 24, unit: 'hour' },
    });
  });
});

describe('scanCommand', () => {
  it('quotes a phrase and the numbers split off its edge as typed', () => {
    const text = 'Type 2  Diabetes   4711 , covid 19';
    const scan = scanCommand(text, tokenize(text), { window: matchTimeExpression });
    expect(scan.databases).toEqual([
      { name: 'Type 2 Diabetes', fragment: 'Type 2  Diabetes', from: 0, plain: true },
      { name: '4711', fragment: '4711', from: 19, plain: true },
      { name: 'covid', fragment: 'covid', from: 26, plain: true },
      { name: '19', fragment: '19', from: 32, plain: true },
    ]);
  });
});

describe('readDatabaseToken', () => {
  it.each([
    ['#hcsm', { kind: 'item', name: '#hcsm' }],
    ['4711', { kind: 'item', name: '4711' }],
    ['Group:Oncology', { kind: 'item', name: 'group:Oncology' }],
    ['cancer', { kind: 'word' }],
    [',', { kind: 'separator' }],
  ])('reads %s', (text, expected) => {
    expect(readDatabaseToken(tokenize(text)[0] as ReturnType<typeof tokenize>[number])).toEqual(
      expected,
    );
  });
});
