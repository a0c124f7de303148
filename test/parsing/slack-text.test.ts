import { describe, expect, it } from 'vitest';
import { normaliseSlackText } from '../../src/parsing/index.ts';

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
