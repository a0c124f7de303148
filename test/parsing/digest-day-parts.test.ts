import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { describeSchedule } from '../../src/render/digests/schedule.ts';

const context = { now: new Date('2026-11-21T15:30:00Z'), zone: 'UTC' };

function confirmed(text: string): { words: string; notes: readonly string[] } {
  const command = parseDigestCommand(text, context);
  if (command instanceof ParseError || command.kind !== 'create') {
    throw new Error(`${text}: ${JSON.stringify(command)}`);
  }
  return { words: describeSchedule(command.spec.schedule), notes: command.notes };
}

describe('schedules that say a part of the day', () => {
  it.each([
    [
      'digest #hcsm every friday afternoon',
      'Fridays at 12:00 UTC',
      'The afternoon starts at 12:00',
    ],
    ['digest #hcsm every friday evening', 'Fridays at 18:00 UTC', 'The evening starts at 18:00'],
    ['digest #hcsm every morning', 'Every day at 06:00 UTC', 'The morning starts at 06:00'],
    ['digest #hcsm every weekday morning', 'Weekdays at 06:00 UTC', 'The morning starts at 06:00'],
    ['digest #hcsm mondays in the evening', 'Mondays at 18:00 UTC', 'The evening starts at 18:00'],
    ['digest #hcsm every afternoon', 'Every day at 12:00 UTC', 'The afternoon starts at 12:00'],
  ])('runs %j at the start of that part of the day: %s', (text, words, note) => {
    const schedule = confirmed(text);
    expect(schedule.words).toBe(words);
    expect(schedule.notes.join(' ')).toContain(note);
  });

  it('keeps a time that falls in the part of the day', () => {
    expect(confirmed('digest #hcsm every friday afternoon at 3pm').words).toBe(
      'Fridays at 15:00 UTC',
    );
  });

  it('refuses a night with no time rather than dropping it', () => {
    const error = parseDigestCommand('digest #hcsm every friday night', context);
    expect(error).toMatchObject({ reason: 'bad_schedule', fragment: 'friday night' });
    expect((error as ParseError).message).toContain('has no single time to run at');
    expect(confirmed('digest #hcsm every friday night at 9pm').words).toBe('Fridays at 21:00 UTC');
  });

  it.each([
    ['digest #hcsm on the 1st and 15th at 9am', 'On the 1st and 15th of every month at 09:00 UTC'],
    [
      'digest #hcsm every first monday of the month at 9am',
      'On the first Monday of every month at 09:00 UTC',
    ],
    ['digest #hcsm every last friday at 5pm', 'On the last Friday of every month at 17:00 UTC'],
  ])('confirms %j in words, not as a cron line: %s', (text, words) => {
    expect(confirmed(text).words).toBe(words);
  });
});
