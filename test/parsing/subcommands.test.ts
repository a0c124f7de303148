import { describe, expect, it } from 'vitest';
import {
  firstWord,
  subcommandNamed,
  subcommandOf,
  subcommandWords,
} from '../../src/parsing/subcommands.ts';

describe('subcommandOf', () => {
  it.each([
    ['digest #hcsm every monday at 9am', 'digest'],
    ['DIGESTS', 'digest'],
    ['Watch #hcsm top 10', 'digest'],
    ['  digest   help ', 'digest'],
    ['conference #ASCO26 from May 29 to Jun 2', 'conference'],
    ['Conferences', 'conference'],
    ['help', 'help'],
    ['--help', 'help'],
    ['version', 'about'],
  ])('reads %j after the slash command as %s', (text, subcommand) => {
    expect(subcommandOf(text)).toBe(subcommand);
  });

  it.each(['#hcsm last week', 'digests?', 'digestive health last week', 'watchlist', '', '   '])(
    'reads %j after the slash command as no subcommand: the first word counts up to whitespace',
    (text) => {
      expect(subcommandOf(text)).toBeUndefined();
    },
  );

  it.each([
    ['digest #hcsm every monday at 9am', 'digest'],
    ['digests?', 'digest'],
    ['Digests!', 'digest'],
    ['watch #hcsm', 'digest'],
    ['help me', 'help'],
    ['?', 'help'],
  ])('reads %j in a conversation as %s', (text, subcommand) => {
    expect(subcommandOf(text, { conversation: true })).toBe(subcommand);
  });

  it.each([
    'conference #ASCO26 from May 29 to Jun 2',
    'conferences',
    'digestive health last week',
    'watchlist',
    '#hcsm yesterday',
  ])('reads %j in a conversation as no subcommand', (text) => {
    expect(subcommandOf(text, { conversation: true })).toBeUndefined();
  });

  it.each([...subcommandWords])('routes every word after the slash command: %s', (word, opens) => {
    expect(subcommandOf(`${word.toUpperCase()} #hcsm`)).toBe(opens);
    expect(subcommandNamed(word)).toBe(opens);
  });
});

describe('firstWord', () => {
  it('splits the first word', () => {
    expect(firstWord(' digest  #hcsm every monday ')).toEqual({
      word: 'digest',
      rest: '#hcsm every monday',
    });
    expect(firstWord('')).toEqual({ word: '', rest: '' });
  });
});
