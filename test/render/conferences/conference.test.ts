import { describe, expect, it } from 'vitest';
import type { InfluencersResult } from '../../../src/analytics/types.ts';
import { ChannelUnreachableError, DigestStoreUnavailableError } from '../../../src/errors.ts';
import type { Conference } from '../../../src/model/conference.ts';
import { initialConferenceState } from '../../../src/model/conference.ts';
import { withoutNewBlocks } from '../../../src/render/blocks.ts';
import {
  daysWords,
  dayWords,
  renderConferenceEnded,
  renderDayRecap,
  renderFinalRecap,
  renderLeaderboard,
  watchLine,
  zoneWords,
} from '../../../src/render/conferences/conference.ts';
import { renderError } from '../../../src/render/errors.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import {
  nextUpdateWords,
  renderConferenceCreated,
} from '../../../src/render/management/conference-management.ts';

const conference: Conference = {
  id: 'K7Q2M9',
  teamId: 'T1',
  channelId: 'C0ASCO0001',
  creatorId: 'U0CREATOR',
  databases: ['#ASCO26'],
  firstDay: '2026-05-29',
  lastDay: '2026-06-02',
  zone: 'America/Chicago',
  watch: ['DrA', 'zed'],
  top: 25,
  refreshMinutes: 15,
  status: 'active',
  nextRunAt: new Date('2026-05-31T19:45:00Z'),
  state: initialConferenceState,
  createdAt: new Date('2026-05-01T12:00:00Z'),
};

/** `count` people, the first a doctor and a patient advocate, the others doctors. */
function people(count: number, prefix = 'person'): InfluencersResult {
  return {
    influencers: Array.from({ length: count }, (_, i) => ({
      rank: i + 1,
      screenName: `${prefix}${i + 1}`,
      displayName: `Person ${i + 1} with a rather long display name`,
      stakeholderCategories:
        i === 0 ? [{ name: 'Doctor' }, { name: 'Patient Advocate' }] : [{ name: 'Doctor' }],
      metrics: { mentions: 1000 - i, impressions: 50_000 - i },
    })),
  };
}

const at = new Date('2026-05-31T19:30:00Z');

describe('conference words', () => {
  it('names days, ranges and zones as people read them, in the event’s zone', () => {
    expect(zoneWords('America/Chicago', at)).toBe('Central');
    expect(zoneWords('Europe/Paris', at)).toBe('Central European');
    expect(zoneWords('UTC', at)).toBe('UTC');
    expect(dayWords('2026-05-31', 'America/Chicago')).toBe('Sun May 31');
    expect(daysWords(conference)).toBe('May 29 – Jun 2');
    expect(watchLine([{ screenName: 'DrA', rank: 4 }, { screenName: 'zed' }])).toBe(
      '*Watchlist:* @DrA #4 · @zed not in the top 500',
    );
  });

  it('heads the leaderboard with the day, the date, the zone and the time of the update', () => {
    const message = renderLeaderboard(conference, {
      day: '2026-05-31',
      dayNumber: 3,
      dayCount: 5,
      result: people(25),
      previous: [
        { screenName: 'person2', rank: 1 },
        { screenName: 'person1', rank: 2 },
      ],
      watch: [{ screenName: 'DrA', rank: 4 }, { screenName: 'zed' }],
      updatedAt: at,
      final: false,
    });
    const shown = JSON.stringify(message.blocks);
    expect(shown).toContain('Day 3 of 5 · Sun May 31 (Central) · updated 14:30 · every 15 minutes');
    expect(shown).toContain('1. @person1 Person 1 with a rather long display name ▲1');
    expect(shown).toContain('3. @person3 Person 3 with a rather long display name new');
    expect(shown).toContain('Who: Doctors 25 · Patient advocate 1');
    expect(message.blocks.map((block) => block.type)).toEqual(
      expect.arrayContaining(['data_table', 'data_visualization']),
    );
    expect(message.text).toBe(
      '#ASCO26, day 3 of 5: 1. @person1, 2. @person2, 3. @person3, 4. @person4, 5. @person5',
    );
    expect(checkBlockKitLimits(message)).toEqual([]);
    expect(checkBlockKitLimits(withoutNewBlocks(message))).toEqual([]);
  });

  it('shows a category named like a link as text in the "Who:" line', () => {
    const result = people(2);
    const linked = {
      influencers: result.influencers.map((row) => ({
        ...row,
        stakeholderCategories: [{ name: 'http://evil.example' }],
      })),
    };
    const message = renderLeaderboard(conference, {
      day: '2026-05-31',
      dayNumber: 3,
      dayCount: 5,
      result: linked,
      previous: [],
      watch: [],
      updatedAt: at,
      final: false,
    });
    expect(JSON.stringify(message.blocks)).toContain('Who: http∶//evil.example 2');
  });

  it('recaps a day against the day before, naming who is new, within Block Kit’s limits', () => {
    const message = renderDayRecap(conference, {
      day: '2026-05-30',
      dayNumber: 2,
      dayCount: 5,
      result: people(25, 'new'),
      dayBefore: { day: '2026-05-29', top: [{ screenName: 'new1', rank: 3 }], watch: [] },
      watch: [],
    });
    const shown = JSON.stringify(message.blocks);
    expect(shown).toContain('Day 2 of 5 recap · #ASCO26');
    expect(shown).toContain('1. @new1 Person 1 with a rather long display name ▲2');
    expect(shown).toContain('*New today:* @new2, @new3');
    expect(checkBlockKitLimits(message)).toEqual([]);
  });

  it('ends with the whole congress, each day’s top 3, the watchlist over the days and Export CSV', () => {
    const days = ['2026-05-29', '2026-05-30', '2026-05-31', '2026-06-01', '2026-06-02'].map(
      (day, i) => ({
        day,
        top: [
          { screenName: `lead${i}`, rank: 1 },
          { screenName: 'DrA', rank: 2 },
        ],
        watch: [{ screenName: 'DrA', rank: 2 }, { screenName: 'zed' }],
      }),
    );
    const message = renderFinalRecap(conference, {
      result: people(25),
      days,
      watch: [{ screenName: 'DrA', rank: 7 }, { screenName: 'zed' }],
      stoppedEarly: false,
      through: new Date('2026-06-03T05:00:00Z'),
    });
    const shown = JSON.stringify(message.blocks);
    expect(shown).toContain('Each day’s top 3');
    expect(shown).toContain('@DrA: Day 1 #2 · Day 2 #2 · Day 3 #2 · Day 4 #2 · Day 5 #2');
    expect(shown).toContain('@zed: Day 1 — · Day 2 — · Day 3 — · Day 4 — · Day 5 —');
    expect(shown).toContain('*Whole congress:* @DrA #7 · @zed not in the top 500');
    expect(shown).toContain('Export CSV');
    expect(checkBlockKitLimits(message)).toEqual([]);
    expect(checkBlockKitLimits(withoutNewBlocks(message))).toEqual([]);
  });

  it('titles the final recap of a conference stopped early with the days up to the stop', () => {
    const message = renderFinalRecap(conference, {
      result: people(3),
      days: [],
      watch: [],
      stoppedEarly: true,
      through: new Date('2026-05-31T19:30:00Z'),
    });
    const shown = JSON.stringify(message.blocks);
    expect(shown).toContain(
      'May 29 – May 31 (Central) · stopped before its last day, Sun May 31 at 14:30: the congress up to then',
    );
    expect(shown).toContain('Top 25 for #ASCO26, May 29 – May 31');
    expect(shown).not.toContain('Jun 2');
  });

  it('speaks of the conference, not a digest, in what its creator is told to do', () => {
    for (const failure of [
      { code: 'channel_unreachable', detail: 'archived' },
      { code: 'unknown_database', detail: '#ASCO26' },
      { code: 'bad_request' },
    ]) {
      const { text } = renderConferenceEnded(conference, failure);
      expect(text).not.toMatch(/digest/i);
      expect(text).toContain('then start it again with `/influencers conference …`');
    }
    const inDm = new ChannelUnreachableError('D0PEOPLE', 'direct_message');
    expect(renderError(inDm, { subject: 'conference' }).text).toBe(
      "I can't post a conference leaderboard in a direct message between people, or in a group DM I'm not part of. Start the conference in a channel.",
    );
    expect(
      renderError(new DigestStoreUnavailableError('timeout'), { subject: 'conference' }).text,
    ).toMatch(/^The app's store is not answering right now, so conferences can't be created/);
  });

  it('tells the creator why the conference ended and what to do', () => {
    expect(
      renderConferenceEnded(conference, { code: 'channel_unreachable', detail: 'archived' }).text,
    ).toMatch(
      /^Your conference leaderboard for #ASCO26 in <#C0ASCO0001> \(`K7Q2M9`\) has ended: the channel was archived\./,
    );
  });

  it('confirms the days, the zone, the refresh and the id', () => {
    const ahead = { ...conference, nextRunAt: new Date('2026-05-29T05:00:00Z') };
    const { text } = renderConferenceCreated(ahead, {
      now: new Date('2026-05-01T12:00:00Z'),
      command: '/influencers',
    });
    expect(text).toContain('*Conference K7Q2M9 created.*');
    expect(text).toContain(
      '*Days*: May 29 – Jun 2, 5 whole days in America/Chicago (Central time)',
    );
    expect(text).toContain('*Refresh*: every 15 minutes · *Top* 25 · *Watching* @DrA @zed');
    expect(text).toContain('*When*: starts Fri May 29 at 00:00 (Central)');
    expect(
      nextUpdateWords(
        { ...conference, state: { ...initialConferenceState, messageTs: '1.2' } },
        at,
      ),
    ).toBe('next update Sun May 31 14:45 (Central)');
  });

  it('counts a one-day conference as one day', () => {
    const oneDay = { ...conference, lastDay: conference.firstDay };
    const { text } = renderConferenceCreated(oneDay, {
      now: new Date('2026-05-01T12:00:00Z'),
      command: '/influencers',
    });
    expect(text).toMatch(/\*Days\*: .+, 1 whole day in America\/Chicago/);
  });
});
