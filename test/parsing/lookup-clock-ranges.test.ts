import { describe, expect, it } from 'vitest';
import { failure, lookup, window } from './lookup-helpers.ts';

/** Saturday 21 Nov 2026, 10:35 UTC: a morning, before noon. */
const morning = new Date('2026-11-21T10:35:00Z');

describe('clock ranges without a date are today, as "this afternoon" is', () => {
  it.each([
    ['#hcsm 8am to 10am', '2026-11-21T08:00:00+00:00', '2026-11-21T10:00:00+00:00'],
    ['#hcsm 9am-5pm', '2026-11-21T09:00:00+00:00', '2026-11-21T10:35:00+00:00'],
    ['#hcsm between 9am and 5pm', '2026-11-21T09:00:00+00:00', '2026-11-21T10:35:00+00:00'],
    ['#hcsm from 6:30 to 9:15', '2026-11-21T06:30:00+00:00', '2026-11-21T09:15:00+00:00'],
  ])('reads %j as today', (text, start, end) => {
    expect(window(text, 'UTC', morning)).toEqual([start, end]);
  });

  it.each([
    ['#hcsm noon to 2pm', 'noon to 2pm', '#hcsm yesterday noon to 2pm'],
    ['#hcsm from 10pm to 2am', 'from 10pm to 2am', '#hcsm from yesterday 10pm to 2am'],
    ['#hcsm between 11am and 2pm', 'between 11am and 2pm', '#hcsm between yesterday 11am and 2pm'],
    ['#hcsm this afternoon', 'this afternoon', '#hcsm yesterday afternoon'],
  ])("refuses %j, which starts later today, with yesterday's", (text, fragment, command) => {
    const error = failure(text, 'UTC', morning);
    expect(error).toMatchObject({ reason: 'future_start', fragment });
    expect(error.message.endsWith(`Try: /influencers ${command}`)).toBe(true);
    expect(lookup(command, 'UTC', morning).start.startsWith('2026-11-20')).toBe(true);
  });

  it('reads a clock range followed by a day on that day', () => {
    expect(window('#hcsm noon to 2pm yesterday', 'UTC', morning)).toEqual([
      '2026-11-20T12:00:00+00:00',
      '2026-11-20T14:00:00+00:00',
    ]);
  });
});
