import { describe, expect, it } from 'vitest';
import { typedText } from '../../../src/slack/listeners/text.ts';

describe('typedText', () => {
  it.each([
    ['<@U0BOT0001> #hcsm yesterday', 'U0BOT0001', '#hcsm yesterday'],
    ['<@U0OTHER> #hcsm yesterday', undefined, '#hcsm yesterday'],
    ['  #hcsm &amp; more  ', undefined, '#hcsm &amp; more'],
    [undefined, undefined, ''],
  ])('reads %j', (text, bot, expected) => {
    expect(typedText(text, bot)).toBe(expected);
  });
});
