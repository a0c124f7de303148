import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { tokenize } from '../../src/parsing/index.ts';

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
