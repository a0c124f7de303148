import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { saturday } from './lookup-helpers.ts';

const read = (text: string, conversation = false, zone = 'UTC') => {
  const result = parseLookup(text, { now: saturday, zone, conversation });
  if (!(result instanceof ParseError)) throw new Error(`expected an error for ${text}`);
  return result;
};

describe('parseLookup', () => {
  describe('did you mean', () => {
    it.each([
      ['#hcsm lst week', 'lst week', 'last week', 'bad_time'],
      ['#hcsm yesteday', 'yesteday', 'yesterday', 'bad_time'],
      ['#bcsm yestreday', 'yestreday', 'yesterday', 'bad_time'],
      ['#hcsm last mnth', 'last mnth', 'last month', 'bad_time'],
      ['#hcsm lsat week', 'lsat week', 'last week', 'bad_time'],
      ['#hcsm past 7 dyas', 'past 7 dyas', 'past 7 days', 'bad_time'],
      ['#hcsm 3 wekks ago', '3 wekks ago', '3 weeks ago', 'bad_time'],
      ['#hcsm since tuesdy', 'tuesdy', 'tuesday', 'bad_time'],
      ['#hcsm tpo 10', 'tpo 10', 'top 10', 'bad_top'],
      ['#hcsm limt 5', 'limt 5', 'limit 5', 'bad_top'],
      [
        '#hcsm timezon Europe/Paris',
        'timezon Europe/Paris',
        'timezone Europe/Paris',
        'unknown_zone',
      ],
      ['#hcsm tz Europe/Londn', 'Europe/Londn', 'Europe/London', 'unknown_zone'],
    ])('corrects %j', (text, fragment, correction, reason) => {
      const error = read(text);
      expect(error).toMatchObject({ reason, fragment, correction });
      expect(error.message).toContain(
        `did you mean ${correction.includes('/') && !correction.includes(' ') ? correction : `“${correction}”`}?`,
      );
      expect(error.message).toMatch(/Try: \/influencers #[a-z]+ /);
      expect(error.message.endsWith(text.replace(fragment, correction))).toBe(true);
    });

    it('corrects the same slips in any zone', () => {
      for (const zone of ['America/New_York', 'Asia/Kathmandu', 'Australia/Eucla']) {
        expect(read('#hcsm lst week', false, zone).correction).toBe('last week');
      }
    });
  });

  describe('advice that fits', () => {
    it('writes examples with the databases the person named', () => {
      expect(read('#bcsm, "breast cancer" tomorrow').message).toMatch(
        /Try: \/influencers #bcsm, "breast cancer" yesterday$/,
      );
      expect(read('group:Oncology since whenever').message).toMatch(
        /Try: \/influencers group:Oncology last 7 days$/,
      );
      expect(read('last week').message).toMatch(/Try: \/influencers #hcsm last week$/);
    });

    it('writes the DM form in a conversation', () => {
      expect(read('#bcsm tomorrow', true).message).toMatch(/Try: #bcsm yesterday$/);
      expect(read('#bcsm yestreday', true).message).toMatch(/Try: #bcsm yesterday$/);
      expect(read('#bcsm tomorrow', true).message).not.toContain('/influencers');
    });

    it.each(['#x UTC', '#x mon-fri', '#x over the', '#x every monday'])(
      'offers no quotes for %j, which cannot be a database',
      (text) => {
        expect(read(text).message).not.toContain('put it in quotes');
      },
    );

    it('offers quotes for a phrase that can be a database', () => {
      expect(read('cancer in children').message).toContain(
        'If “cancer in children” is a database, put it in quotes: "cancer in children".',
      );
    });

    it('reads "over the weekend" as the most recent weekend', () => {
      expect(parseLookup('#x over the weekend', { now: saturday, zone: 'UTC' })).toMatchObject({
        start: '2026-11-21T00:00:00+00:00',
        end: '2026-11-21T15:30:00+00:00',
      });
      expect(
        parseLookup('#x over the weekend', {
          now: new Date('2026-11-24T12:00:00Z'),
          zone: 'Asia/Kathmandu',
        }),
      ).toMatchObject({ start: '2026-11-21T00:00:00+05:45', end: '2026-11-23T00:00:00+05:45' });
    });
  });
});
