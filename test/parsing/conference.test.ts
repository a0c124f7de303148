import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { createsConference, parseConferenceCommand } from '../../src/parsing/conference.ts';

/** Thursday 26 November 2026, 15:00 in New York. */
const context = { now: new Date('2026-11-26T20:00:00Z'), zone: 'America/New_York' };
const parse = (text: string) => parseConferenceCommand(text, context);

describe('parseConferenceCommand', () => {
  it.each([
    [
      'conference #ASCO26 from May 29 to Jun 2 in America/Chicago',
      {
        databases: ['#ASCO26'],
        firstDay: '2027-05-29',
        lastDay: '2027-06-02',
        zone: 'America/Chicago',
        watch: [],
        top: 10,
        refreshMinutes: 15,
      },
    ],
    [
      'conference #ASH26 and #ASH2026 from Dec 5 to Dec 8 watch @DrA @DrB top 5 every 10 minutes',
      {
        databases: ['#ASH26', '#ASH2026'],
        firstDay: '2026-12-05',
        lastDay: '2026-12-08',
        zone: 'America/New_York',
        watch: ['DrA', 'DrB'],
        top: 5,
        refreshMinutes: 10,
      },
    ],
    [
      'conference #AHA26 from Nov 25 to Nov 28 doctors every 1 hour',
      {
        firstDay: '2026-11-25',
        lastDay: '2026-11-28',
        refreshMinutes: 60,
        stakeholders: { include: ['Doctor'], exclude: [] },
      },
    ],
    [
      'conference #NYE from Dec 30 to Jan 2 in Europe/Paris',
      { firstDay: '2026-12-30', lastDay: '2027-01-02', zone: 'Europe/Paris' },
    ],
    [
      'conference #ESMO from 2027-09-10 to 2027-09-14',
      { firstDay: '2027-09-10', lastDay: '2027-09-14' },
    ],
    ['conference #hcsm today', { firstDay: '2026-11-26', lastDay: '2026-11-26' }],
    ['conference #hcsm tomorrow doctors', { firstDay: '2026-11-27', lastDay: '2026-11-27' }],
    ['conference #hcsm from today to Nov 29', { firstDay: '2026-11-26', lastDay: '2026-11-29' }],
    ['conference #hcsm on Dec 3', { firstDay: '2026-12-03', lastDay: '2026-12-03' }],
    ['conference #hcsm Dec 5 to Dec 8', { firstDay: '2026-12-05', lastDay: '2026-12-08' }],
    ['conference #hcsm Dec 5-Dec 8', { firstDay: '2026-12-05', lastDay: '2026-12-08' }],
    ['conference #hcsm Dec 5-8 top 5', { firstDay: '2026-12-05', lastDay: '2026-12-08', top: 5 }],
    [
      'conference #hcsm from Dec 5 9am to Dec 8 5:30pm in Europe/Paris',
      { firstDay: '2026-12-05', lastDay: '2026-12-08', zone: 'Europe/Paris' },
    ],
    [
      'conference #hcsm from Dec 5 at 9 am to Dec 8 17:00',
      { firstDay: '2026-12-05', lastDay: '2026-12-08' },
    ],
    ['conference #hcsm on Dec 3 9am-5pm', { firstDay: '2026-12-03', lastDay: '2026-12-03' }],
    ['conference #hcsm Dec 3 at noon watch @DrA', { firstDay: '2026-12-03', watch: ['DrA'] }],
    ['conference #hcsm from Dec 28 to Jan 3', { firstDay: '2026-12-28', lastDay: '2027-01-03' }],
  ])('reads %s', (text, spec) => {
    expect(parse(text)).toEqual({ kind: 'create', spec: expect.objectContaining(spec) });
  });

  it.each([
    ['conference list', { kind: 'list' }],
    ['conferences', { kind: 'list' }],
    ['conference', { kind: 'help' }],
    ['conference tick', { kind: 'tick' }],
    ['conference stop k7q2m9', { kind: 'stop', id: 'K7Q2M9' }],
    ['conference edit K7Q2M9 every 10 minutes', { kind: 'edit', id: 'K7Q2M9', refreshMinutes: 10 }],
    ['conference edit K7Q2M9 watch @a @b', { kind: 'edit', id: 'K7Q2M9', watch: ['a', 'b'] }],
  ])('reads %s', (text, command) => {
    expect(parse(text)).toEqual(command);
  });

  it.each([
    ['conference #ASCO26', /Say the event's days/],
    ['conference from May 29 to Jun 2', /Name the event's hashtag/],
    ['conference #ASCO26 from May 29', /last day too/],
    [
      'conference #hcsm from Dec 8 to Dec 5',
      /days are swapped: the last day, Dec 5, comes before the first, Dec 8\. Say `from Dec 5 to Dec 8`/,
    ],
    ['conference #hcsm from 2026-12-08 to 2026-12-05', /swapped.+`from Dec 5 to Dec 8`/],
    ['conference #hcsm from tomorrow to today', /swapped.+`from Nov 26 to Nov 27`/],
    ['conference #hcsm from banana to Dec 8', /Say the first day/],
    ['conference #hcsm from Dec 5 25:00 to Dec 8', /not a real date or time/],
    ['conference #ASCO26 from May 29 to Jun 2 every 2 minutes', /at most every 5 minutes/],
    ['conference #ASCO26 from May 29 to Jun 2 top 30', /from 1 to 25/],
    ['conference #ASCO26 from May 29 to Jun 2 in Mars/Base', /not a time zone/],
    ['conference #ASCO26 from May 1 to Jul 2', /at most 31 days/],
    ['conference #ASCO26 from 2026-05-29 to 2026-06-02', /over already/],
    [
      `conference #X from May 29 to Jun 2 watch ${Array.from({ length: 21 }, (_, i) => `@a${i}`).join(' ')}`,
      /at most 20/,
    ],
    ['conference #ASCO26 from May 29 to Jun 2 loudly', /don't understand “loudly”/],
    ['conference stop nope', /not a conference id/],
    ['conference edit K7Q2M9', /Say what to change/],
    ['conference edit K7Q2M9 canvas maybe', /Say `canvas on` or `canvas off`/],
    ['conference #ASCO26 from May 29 to Jun 2 canvas canvas', /Say `canvas` once/],
  ])('refuses %s', (text, message) => {
    const parsed = parse(text);
    expect(parsed).toBeInstanceOf(ParseError);
    expect((parsed as ParseError).message).toMatch(message);
  });

  it('keeps a canvas when asked, wherever `canvas` comes among the options', () => {
    expect(parse('conference #hcsm today canvas')).toMatchObject({ canvas: true });
    for (const text of [
      'conference #ASCO26 from May 29 to Jun 2 in America/Chicago canvas',
      'conference #ASCO26 from May 29 to Jun 2 canvas watch @DrA top 5',
    ]) {
      const parsed = parse(text);
      expect(parsed).toMatchObject({
        kind: 'create',
        canvas: true,
        spec: { databases: ['#ASCO26'] },
      });
    }
    expect(parse('conference #ASCO26 from May 29 to Jun 2')).not.toHaveProperty('canvas');
  });

  it('turns the canvas on or off by an edit', () => {
    expect(parse('conference edit K7Q2M9 canvas on')).toEqual({
      kind: 'edit',
      id: 'K7Q2M9',
      canvas: true,
    });
    expect(parse('conference edit K7Q2M9 every 10 minutes canvas off')).toEqual({
      kind: 'edit',
      id: 'K7Q2M9',
      refreshMinutes: 10,
      canvas: false,
    });
  });
});

describe('createsConference', () => {
  it.each([
    ['conference #ASCO26 from May 29 to Jun 2', true],
    ['conference', false],
    ['conferences', false],
    ['Conference list', false],
    ['conference stop K7Q2M9', false],
    ['conference edit K7Q2M9 every 30 minutes', false],
    ['conference tick', false],
    ['conference help', false],
  ])('says whether %j may create a conference: %s', (text, creates) => {
    expect(createsConference(text)).toBe(creates);
  });
});
