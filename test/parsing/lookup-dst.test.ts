import { afterEach, describe, expect, it, vi } from 'vitest';
import { window } from './lookup-helpers.ts';

describe('parseLookup', () => {
  describe('rule 8: DST', () => {
    it.each([
      [
        'yesterday on the Monday after the US fall-back is 25 hours',
        'America/New_York',
        '2026-11-02T15:00:00Z',
        '2026-11-01T00:00:00-04:00',
        '2026-11-02T00:00:00-05:00',
      ],
      [
        'yesterday on the Monday after the US spring-forward is 23 hours',
        'America/New_York',
        '2026-03-09T15:00:00Z',
        '2026-03-08T00:00:00-05:00',
        '2026-03-09T00:00:00-04:00',
      ],
      [
        'yesterday on the Monday after the UK clocks go forward is 23 hours',
        'Europe/London',
        '2026-03-30T12:00:00Z',
        '2026-03-29T00:00:00+00:00',
        '2026-03-30T00:00:00+01:00',
      ],
      [
        'yesterday on the Monday after the UK clocks go back is 25 hours',
        'Europe/London',
        '2026-10-26T12:00:00Z',
        '2026-10-25T00:00:00+01:00',
        '2026-10-26T00:00:00+00:00',
      ],
      [
        'yesterday on the Monday after Sydney DST ends is 25 hours',
        'Australia/Sydney',
        '2026-04-06T02:00:00Z',
        '2026-04-05T00:00:00+11:00',
        '2026-04-06T00:00:00+10:00',
      ],
      [
        'yesterday on the Monday after Sydney DST starts is 23 hours',
        'Australia/Sydney',
        '2026-10-05T02:00:00Z',
        '2026-10-04T00:00:00+10:00',
        '2026-10-05T00:00:00+11:00',
      ],
      [
        'last week across the US fall-back starts and ends at local midnight',
        'America/New_York',
        '2026-11-04T15:00:00Z',
        '2026-10-26T00:00:00-04:00',
        '2026-11-02T00:00:00-05:00',
      ],
      [
        'past 48 hours across the US fall-back is exactly 48 hours',
        'America/New_York',
        '2026-11-02T15:00:00Z',
        '2026-10-31T11:00:00-04:00',
        '2026-11-02T10:00:00-05:00',
      ],
      [
        'yesterday in Kolkata (no DST) is 24 hours at +05:30',
        'Asia/Kolkata',
        '2026-11-02T15:00:00Z',
        '2026-11-01T00:00:00+05:30',
        '2026-11-02T00:00:00+05:30',
      ],
    ])('%s', (title, zone, now, start, end) => {
      const phrase = title
        .split(' on the ')[0]
        ?.split(' across ')[0]
        ?.split(' in Kolkata')[0] as string;
      expect(window(`#x ${phrase}`, zone, new Date(now))).toEqual([start, end]);
    });

    describe('a wall-clock time the clocks show twice', () => {
      afterEach(() => {
        vi.useRealTimers();
      });

      it.each([
        ['January', '2026-01-15T12:00:00Z'],
        ['July', '2026-07-15T12:00:00Z'],
      ])('takes the offset in force at now, whatever the server date (%s)', (_, serverDate) => {
        vi.useFakeTimers({ now: new Date(serverDate) });
        // After the US fall-back the repeated 1:30 is the second one.
        expect(
          window('#x yesterday 0:30-1:30', 'America/New_York', new Date('2026-11-02T15:00:00Z')),
        ).toEqual(['2026-11-01T00:30:00-04:00', '2026-11-01T01:30:00-05:00']);
        // During the first pass through 2am in Paris, 2am is the one that has just gone by.
        expect(
          window('#x from 10pm yesterday to 2am', 'Europe/Paris', new Date('2025-10-26T00:30:00Z')),
        ).toEqual(['2025-10-25T22:00:00+02:00', '2025-10-26T02:00:00+02:00']);
      });
    });

    it('moves a wall-clock time in the spring-forward gap forward, as luxon does', () => {
      expect(
        window(
          '#x since 2026-03-08 2:30am',
          'America/New_York',
          new Date('2026-03-09T15:00:00Z'),
        )[0],
      ).toBe('2026-03-08T03:30:00-04:00');
    });
  });
});
