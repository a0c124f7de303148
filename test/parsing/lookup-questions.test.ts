import { describe, expect, it } from 'vitest';
import { parseLookup, readsAsQuestion } from '../../src/parsing/index.ts';
import { saturday } from './lookup-helpers.ts';

const ask = (text: string, zone: string, conversation: boolean) =>
  parseLookup(text, { now: saturday, zone, conversation });

describe('parseLookup', () => {
  describe('questions in a conversation', () => {
    it.each([
      [
        'who drove #hcsm last week?',
        'UTC',
        ['#hcsm'],
        '2026-11-09T00:00:00+00:00',
        '2026-11-16T00:00:00+00:00',
        10,
      ],
      [
        'top influencers for #bcsm yesterday',
        'America/New_York',
        ['#bcsm'],
        '2026-11-20T00:00:00-05:00',
        '2026-11-21T00:00:00-05:00',
        10,
      ],
      [
        'show me "breast cancer" this month',
        'Asia/Kathmandu',
        ['breast cancer'],
        '2026-11-01T00:00:00+05:45',
        '2026-11-21T21:15:00+05:45',
        10,
      ],
      [
        'hello, who drove #bcsm last week?',
        'Europe/London',
        ['#bcsm'],
        '2026-11-09T00:00:00+00:00',
        '2026-11-16T00:00:00+00:00',
        10,
      ],
      [
        'Who were the top voices in #hcsm and #bcsm yesterday?',
        'UTC',
        ['#hcsm', '#bcsm'],
        '2026-11-20T00:00:00+00:00',
        '2026-11-21T00:00:00+00:00',
        10,
      ],
      [
        'who drove breast cancer last week',
        'UTC',
        ['breast cancer'],
        '2026-11-09T00:00:00+00:00',
        '2026-11-16T00:00:00+00:00',
        10,
      ],
      [
        'show me the top 5 influencers for #hcsm last week',
        'UTC',
        ['#hcsm'],
        '2026-11-09T00:00:00+00:00',
        '2026-11-16T00:00:00+00:00',
        5,
      ],
      [
        'hi! who drove group:Oncology since Nov 1',
        'UTC',
        ['group:Oncology'],
        '2026-11-01T00:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
        10,
      ],
    ])('answers %j in %s', (text, zone, databases, start, end, top) => {
      expect(ask(text, zone, true)).toEqual({ databases, start, end, timezone: zone, top });
    });

    it.each([
      ['breast cancer #bcsm last week', ['breast cancer', '#bcsm']],
      ['breast cancer, #bcsm', ['breast cancer', '#bcsm']],
      ['people with diabetes #hcsm', ['people with diabetes', '#hcsm']],
      ['#hcsm last week', ['#hcsm']],
    ])('keeps a phrase that asks nothing: %j', (text, databases) => {
      expect(ask(text, 'UTC', true)).toMatchObject({ databases });
    });
  });

  describe('questions after the slash command', () => {
    it.each([
      ['who drove #hcsm last week?', 'who drove', '/influencers #hcsm last week'],
      [
        'top influencers for #bcsm yesterday',
        'top influencers for',
        '/influencers #bcsm yesterday',
      ],
      ['show me "breast cancer" this month', 'show me', '/influencers "breast cancer" this month'],
      ['hello, who drove #bcsm last week?', 'hello, who drove', '/influencers #bcsm last week'],
    ])('reads %j as in a DM, never as a phrase database', (text, _opening, command) => {
      expect(ask(text, 'UTC', false)).toEqual(ask(text, 'UTC', true));
      expect(ask(text, 'UTC', false)).toEqual(
        ask(command.slice('/influencers '.length), 'UTC', false),
      );
    });
  });

  describe('readsAsQuestion', () => {
    it.each([
      ['hello, who drove #bcsm last week?', true],
      ['show me "breast cancer" this month', true],
      ['hi #hcsm', true],
      ['hello', false],
      ['hey there', false],
      ['show', false],
      ['pause 3', false],
      ['#hcsm last week', false],
    ])('%j: %s', (text, question) => {
      expect(readsAsQuestion(text)).toBe(question);
    });
  });
});
