import { describe, expect, it } from 'vitest';
import {
  type Matcher,
  matchTimeExpression,
  matchTopOption,
  matchZoneOption,
  scanCommand,
  tokenize,
} from '../../src/parsing/index.ts';

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
      { name: 'Type 2 Diabetes', fragment: 'Type 2  Diabetes', from: 0, plain: true, joined: true },
      { name: '4711', fragment: '4711', from: 19, plain: true },
      { name: 'covid', fragment: 'covid', from: 26, plain: true, joined: true },
      { name: '19', fragment: '19', from: 32, plain: true },
    ]);
  });
});
