import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import type { Digest } from '../../src/model/digest.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { applyDigestEdit, type DigestEdit } from '../../src/parsing/digest-edit.ts';

const now = new Date('2026-11-21T15:30:00Z');
const context = { now, zone: 'America/New_York' };
const weekly: Pick<Digest, 'schedule' | 'window' | 'top' | 'metric' | 'presentation' | 'postWhen'> =
  {
    schedule: { kind: 'cron', expression: '0 9 * * 1', zone: 'Europe/London', cadence: 'weekly' },
    window: { kind: 'since-previous-run' },
    top: 10,
    presentation: 'list',
    postWhen: 'always',
  };

function edit(text: string): DigestEdit {
  const parsed = parseDigestCommand(text, context);
  if (parsed instanceof ParseError) throw parsed;
  if (parsed.kind !== 'edit') throw new Error(`not an edit: ${parsed.kind}`);
  expect(parsed.id).toBe('7K3M9Q');
  return parsed.edit;
}

describe('digest edit', () => {
  it.each([
    [
      'digest edit 7K3M9Q at 10am',
      { schedule: { expression: '0 10 * * 1', zone: 'Europe/London' }, scheduleChanged: true },
    ],
    [
      'digest edit 7k3m9q weekdays at 8:30 top 5',
      { schedule: { expression: '30 8 * * 1-5', cadence: 'custom' }, top: 5 },
    ],
    [
      'digest edit 7K3M9Q in Asia/Tokyo',
      { schedule: { expression: '0 9 * * 1', zone: 'Asia/Tokyo' }, scheduleChanged: true },
    ],
    [
      'digest edit 7K3M9Q last 24 hours',
      { window: { kind: 'last', amount: 24, unit: 'hours' }, scheduleChanged: false },
    ],
    [
      'digest edit 7K3M9Q by impressions with chart',
      { metric: 'impressions', presentation: 'chart' },
    ],
    ['digest edit 7K3M9Q only new', { postWhen: 'new', scheduleChanged: false }],
    [
      'digest edit 7K3M9Q every month on the last day at 17:00',
      { schedule: { expression: '0 17 L * *', cadence: 'monthly' } },
    ],
  ])('reads %j and applies it to a weekly digest', (text, expected) => {
    expect(applyDigestEdit(weekly, edit(text), now)).toMatchObject(expected);
  });

  it('keeps what the edit leaves out', () => {
    const edited = applyDigestEdit(
      { ...weekly, metric: 'mentions', postWhen: 'changed', top: 7 },
      edit('digest edit 7K3M9Q with table'),
      now,
    );
    expect(edited).toMatchObject({
      schedule: weekly.schedule,
      window: weekly.window,
      top: 7,
      metric: 'mentions',
      presentation: 'table',
      postWhen: 'changed',
      scheduleChanged: false,
    });
  });

  it('goes back to the service’s own order with by default', () => {
    expect(
      applyDigestEdit({ ...weekly, metric: 'retweets' }, edit('digest edit 7K3M9Q by default'), now)
        .metric,
    ).toBeUndefined();
  });

  it.each([
    ['digest edit 7K3M9Q', '“digest edit 7K3M9Q” needs what changes'],
    ['digest edit', 'needs the id of a digest'],
    ['digest edit 7K3M9Q #bcsm', "An edit keeps a digest's databases"],
    ['digest edit nope every day', 'is not a digest id'],
  ])('refuses %j, saying %j', (text, words) => {
    const error = parseDigestCommand(text, context);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toContain(words);
  });

  it('refuses a time alone for a schedule that runs every few hours', () => {
    const hourly = {
      ...weekly,
      schedule: { kind: 'cron', expression: '0 */6 * * *', zone: 'UTC', cadence: 'custom' },
    } as const;
    expect(() => applyDigestEdit(hourly, edit('digest edit 7K3M9Q at 10am'), now)).toThrow(
      /sets its own times/,
    );
  });
  describe('a new schedule without a time keeps the digest’s time', () => {
    const at1730 = {
      ...weekly,
      schedule: {
        kind: 'cron',
        expression: '30 17 * * 5',
        zone: 'Europe/London',
        cadence: 'weekly',
      },
    } as const;

    it('keeps 17:30 for every other friday, and says so', () => {
      const edited = applyDigestEdit(at1730, edit('digest edit 7K3M9Q every other friday'), now);
      expect(edited.schedule).toMatchObject({ expression: '30 17 * * 5', everyWeeks: 2 });
      expect(edited.notes).toContain('No time was given, so it keeps its time, 17:30.');
      expect(edited.notes.join(' ')).not.toContain('09:00');
    });

    it.each([
      ['digest edit 7K3M9Q every day', '30 17 * * *'],
      ['digest edit 7K3M9Q weekdays', '30 17 * * 1-5'],
      ['digest edit 7K3M9Q on the 1st and 15th', '30 17 1,15 * *'],
    ])('%j keeps 17:30', (text, expression) => {
      expect(applyDigestEdit(at1730, edit(text), now).schedule.expression).toBe(expression);
    });

    it('keeps the local time when the zone changes too (New York, across its DST end)', () => {
      // 2026-11-01 ends DST in New York; the schedule's local 17:30 stays 17:30.
      const edited = applyDigestEdit(
        at1730,
        edit('digest edit 7K3M9Q every monday in America/New_York'),
        new Date('2026-10-30T12:00:00Z'),
      );
      expect(edited.schedule).toMatchObject({
        expression: '30 17 * * 1',
        zone: 'America/New_York',
      });
    });

    it('takes the time given, or the part of the day named, over the kept one', () => {
      expect(
        applyDigestEdit(at1730, edit('digest edit 7K3M9Q every monday at 8am'), now).schedule
          .expression,
      ).toBe('0 8 * * 1');
      expect(
        applyDigestEdit(at1730, edit('digest edit 7K3M9Q every monday morning'), now).schedule
          .expression,
      ).toMatch(/^0 \d+ \* \* 1$/);
    });

    it('runs at 09:00 when the digest had no one time of day (every 6 hours)', () => {
      const hourly = {
        ...weekly,
        schedule: { kind: 'cron', expression: '0 */6 * * *', zone: 'UTC', cadence: 'custom' },
      } as const;
      const edited = applyDigestEdit(hourly, edit('digest edit 7K3M9Q every friday'), now);
      expect(edited.schedule.expression).toBe('0 9 * * 5');
      expect(edited.notes).toContain('No time was given, so it runs at 09:00.');
    });
  });
});

describe('digest edit of a digest in a DM', () => {
  it('refuses canvas on, which the Edit form never offers there', () => {
    const personal = { ...weekly, channelId: 'D0123' };
    expect(() => applyDigestEdit(personal, edit('digest edit 7K3M9Q canvas on'), now)).toThrow(
      /keeps no channel canvas/,
    );
    expect(applyDigestEdit(personal, edit('digest edit 7K3M9Q canvas off'), now).canvas).toBe(
      false,
    );
  });
});
