/**
 * Schedules cron alone cannot say, or says only as numbers: every other week, each quarter, twice
 * a month. Read by the grammar, run by the engine, confirmed in words with the next three runs.
 */
import { describe, expect, it } from 'vitest';
import { runWindow } from '../../src/digests/run-window.ts';
import type { CronSchedule } from '../../src/model/digest.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { applyDigestEdit, readEdit } from '../../src/parsing/digest-edit.ts';
import { tokenize } from '../../src/parsing/tokens.ts';
import { describeSchedule, schedulePhrase } from '../../src/render/digests/schedule.ts';
import { renderDigestCreated } from '../../src/render/management/digest-management.ts';
import { nextRuns } from '../../src/time/schedule.ts';
import { digest, texts } from '../render/helpers.ts';

// Saturday 21 November 2026, 15:30 in London.
const now = new Date('2026-11-21T15:30:00Z');
const zone = 'Europe/London';

function scheduleOf(text: string): CronSchedule {
  const command = parseDigestCommand(text, { now, zone });
  if (!('kind' in command) || command.kind !== 'create') throw new Error(`not created: ${text}`);
  return command.spec.schedule;
}

const iso = (dates: readonly Date[]) => dates.map((date) => date.toISOString());

describe('every other week', () => {
  it.each([
    'digest #hcsm every other monday at 9am',
    'digest #hcsm every 2 weeks on monday at 9am',
    'digest #hcsm every other week at 9am',
    'digest #hcsm biweekly at 9am',
    'digest #hcsm fortnightly on monday at 9am',
  ])('reads %j as Mondays every other week from the next one', (text) => {
    const schedule = scheduleOf(text);
    expect(schedule).toEqual({
      kind: 'cron',
      expression: '0 9 * * 1',
      zone,
      cadence: 'custom',
      everyWeeks: 2,
      anchor: '2026-11-23',
    });
    expect(iso(nextRuns(schedule, now, 3))).toEqual([
      '2026-11-23T09:00:00.000Z',
      '2026-12-07T09:00:00.000Z',
      '2026-12-21T09:00:00.000Z',
    ]);
  });

  it('runs every 3 weeks on several days, in the weeks it runs', () => {
    const schedule = scheduleOf('digest #hcsm every 3 weeks on tue and thu at 17:00');
    expect(iso(nextRuns(schedule, now, 4))).toEqual([
      '2026-11-24T17:00:00.000Z',
      '2026-11-26T17:00:00.000Z',
      '2026-12-15T17:00:00.000Z',
      '2026-12-17T17:00:00.000Z',
    ]);
  });

  it('covers the two weeks since the previous run by default', () => {
    const schedule = scheduleOf('digest #hcsm every other monday at 9am');
    const window = runWindow(
      { schedule, window: { kind: 'since-previous-run' } },
      new Date('2026-12-07T09:00:00Z'),
    );
    expect(window).toEqual({
      start: '2026-11-23T09:00:00+00:00',
      end: '2026-12-07T09:00:00+00:00',
      timezone: zone,
    });
  });

  it('DST: stays at 09:00 London across the October fall-back, its window an hour longer', () => {
    const schedule: CronSchedule = {
      kind: 'cron',
      expression: '0 9 * * 1',
      zone,
      cadence: 'custom',
      everyWeeks: 2,
      anchor: '2026-10-19',
    };
    const runs = nextRuns(schedule, new Date('2026-10-18T00:00:00Z'), 2);
    expect(iso(runs)).toEqual(['2026-10-19T08:00:00.000Z', '2026-11-02T09:00:00.000Z']);
    expect(
      runWindow({ schedule, window: { kind: 'since-previous-run' } }, runs[1] as Date),
    ).toEqual({
      start: '2026-10-19T09:00:00+01:00',
      end: '2026-11-02T09:00:00+00:00',
      timezone: zone,
    });
  });

  it('keeps its weeks when an edit moves its time', () => {
    const schedule = scheduleOf('digest #hcsm every other monday at 9am');
    const text = 'digest edit 7K3M9Q at 10am';
    const edited = applyDigestEdit(digest({ schedule }), readEdit(text, tokenize(text)).edit, now);
    expect(edited.schedule).toMatchObject({
      expression: '0 10 * * 1',
      everyWeeks: 2,
      anchor: '2026-11-23',
    });
  });

  it('says it in words, and in words the edit form reads back', () => {
    const schedule = scheduleOf('digest #hcsm every other monday at 9am');
    expect(describeSchedule(schedule)).toBe('Every other week, Mondays at 09:00 Europe/London');
    expect(schedulePhrase(schedule.expression, schedule.everyWeeks)).toBe(
      'every 2 weeks on monday at 09:00',
    );
  });
});

describe('each quarter', () => {
  it.each([
    ['digest #hcsm on the first monday of each quarter at 9am', '0 9 * 1,4,7,10 1#1'],
    ['digest #hcsm the first monday of every quarter at 9am', '0 9 * 1,4,7,10 1#1'],
    ['digest #hcsm quarterly at 9am', '0 9 1 1,4,7,10 *'],
    ['digest #hcsm every quarter at 9am', '0 9 1 1,4,7,10 *'],
    ['digest #hcsm on the 2nd of each quarter at 9am', '0 9 2 1,4,7,10 *'],
  ])('reads %j', (text, expression) => {
    expect(scheduleOf(text)).toMatchObject({ expression, cadence: 'custom' });
  });

  it('runs on the first Monday of January, April, July and October, covering the quarter between', () => {
    const schedule = scheduleOf('digest #hcsm on the first monday of each quarter at 9am');
    const runs = nextRuns(schedule, now, 3);
    expect(iso(runs)).toEqual([
      '2027-01-04T09:00:00.000Z',
      '2027-04-05T08:00:00.000Z',
      '2027-07-05T08:00:00.000Z',
    ]);
    expect(
      runWindow({ schedule, window: { kind: 'since-previous-run' } }, runs[0] as Date),
    ).toEqual({
      start: '2026-10-05T09:00:00+01:00',
      end: '2027-01-04T09:00:00+00:00',
      timezone: zone,
    });
    expect(describeSchedule(schedule)).toBe(
      'On the first Monday of each quarter (January, April, July, October) at 09:00 Europe/London',
    );
  });
});

describe('twice a month', () => {
  it('runs on the 1st and 15th, each run covering the time since the other', () => {
    const schedule = scheduleOf('digest #hcsm on the 1st and 15th at 9am');
    const runs = nextRuns(schedule, now, 3);
    expect(iso(runs)).toEqual([
      '2026-12-01T09:00:00.000Z',
      '2026-12-15T09:00:00.000Z',
      '2027-01-01T09:00:00.000Z',
    ]);
    expect(
      runWindow({ schedule, window: { kind: 'since-previous-run' } }, runs[0] as Date),
    ).toEqual({
      start: '2026-11-15T09:00:00+00:00',
      end: '2026-12-01T09:00:00+00:00',
      timezone: zone,
    });
  });
});

describe('the confirmation of a new schedule', () => {
  it('says it in words with its next three runs and their windows', () => {
    const schedule = scheduleOf('digest #hcsm every other monday at 9am');
    const created = digest({ schedule, nextRunAt: new Date('2026-11-23T09:00:00Z') });
    const runs = nextRuns(schedule, now, 3);
    const message = renderDigestCreated(created, {
      now,
      nextRuns: runs,
      windows: runs.map((slot) => runWindow(created, slot)),
    });
    const shown = texts(message.blocks).join('\n');
    expect(shown).toContain('Every other week, Mondays at 09:00 Europe/London');
    expect(shown).toContain('Mon Dec 7, 09:00 GMT');
    expect(shown).toContain('covering Nov 23 09:00 to Dec 7 09:00 GMT');
    expect(shown).toContain('Mon Dec 21, 09:00 GMT');
  });
});
