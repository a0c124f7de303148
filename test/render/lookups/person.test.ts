import { describe, expect, it } from 'vitest';
import type { InfluencersResult } from '../../../src/analytics/types.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { actionIds } from '../../../src/render/ids.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import { type PersonRankings, renderPerson } from '../../../src/render/lookups/person.ts';
import { recentPeriods } from '../../../src/time/periods.ts';
import { influencer, texts } from '../helpers.ts';

const now = new Date('2026-11-21T15:00:00Z');
const zone = 'America/New_York';

const request: LookupRequest = {
  databases: ['#hcsm'],
  start: '2026-10-01T00:00:00-04:00',
  end: '2026-11-01T00:00:00-04:00',
  timezone: zone,
  top: 10,
  person: 'drferreirai',
  compare: { start: '2026-09-01T00:00:00-04:00', end: '2026-10-01T00:00:00-04:00' },
};

const ana = (rank: number, mentions: number) =>
  influencer({
    rank,
    screenName: 'DrFerreiraI',
    displayName: 'Dr Ana Ferreira',
    profileImageUrl: 'https://pbs.twimg.com/profile_images/1/ana.jpg',
    followersCount: 12_300,
    stakeholderCategories: [{ name: 'Doctor' }, { name: 'Researcher/Academic' }],
    metrics: { mentions },
  });

/** A ranking with `person` at its rank, others around them. */
function rankingWith(person?: ReturnType<typeof ana>): InfluencersResult {
  const others = Array.from({ length: 12 }, (_, i) =>
    influencer({ rank: i + 1, screenName: `other${i}`, metrics: { mentions: 1000 - i } }),
  );
  if (person === undefined) return { influencers: others };
  const influencers = others.filter((other) => other.rank !== person.rank);
  influencers.splice(person.rank - 1, 0, person);
  return { influencers };
}

const weeks = recentPeriods('week', 8, now, zone);

function rankings(overrides: Partial<PersonRankings> = {}): PersonRankings {
  return {
    current: rankingWith(ana(4, 1234)),
    previous: rankingWith(ana(7, 1000)),
    weeks: weeks.map((period, index) => ({
      period,
      result: rankingWith(index === 2 ? undefined : ana(index + 1, 100 + index)),
    })),
    ...overrides,
  };
}

const sections = (message: SlackMessage) =>
  message.blocks.filter((block) => block.type === 'section');

describe('renderPerson', () => {
  it('gives their rank among the top 500, the move, who they are and each week', () => {
    const message = renderPerson(request, rankings(), { shareable: true });
    expect(texts(message.blocks).slice(0, 2)).toEqual([
      '@DrFerreiraI in #hcsm',
      'Window: Oct 1, 2026 – Oct 31, 2026, whole days, EDT · compared with Sep 1, 2026 – Sep 30, 2026, whole days, EDT · ranked by mentions · queried in America/New_York',
    ]);
    const [card, byWeek] = sections(message);
    expect(card).toMatchObject({
      text: {
        text:
          '*4. Dr Ana Ferreira* <https://x.com/DrFerreiraI|@DrFerreiraI>\n' +
          '1.2K mentions · 12.3K followers\n' +
          'Doctor, Researcher/Academic\n' +
          '*#4* of the top 500 by mentions · ▲3 since the previous period (was #7, +234 mentions)',
      },
      accessory: { type: 'image', image_url: 'https://pbs.twimg.com/profile_images/1/ana.jpg' },
    });
    expect(byWeek?.type === 'section' && byWeek.text?.text.split('\n')).toEqual([
      '*Rank by week* (ranked by mentions)',
      'The week of Sep 28: #1 · 100 mentions',
      'The week of Oct 5: #2 · 101 mentions',
      'The week of Oct 12: not in the top 500',
      'The week of Oct 19: #4 · 103 mentions',
      'The week of Oct 26: #5 · 104 mentions',
      'The week of Nov 2: #6 · 105 mentions',
      'The week of Nov 9: #7 · 106 mentions',
      'The week of Nov 16 (so far): #8 · 107 mentions',
    ]);
    expect(message.text).toBe(
      '@drferreirai in #hcsm, Oct 1–Oct 31: #4 of the top 500 by mentions (was #7)',
    );
    const buttons = message.blocks.flatMap((block) =>
      block.type === 'actions' ? block.elements : [],
    );
    expect(buttons.map((button) => ('action_id' in button ? button.action_id : ''))).toEqual([
      actionIds.shareAnswer,
    ]);
    expect(checkBlockKitLimits(message)).toEqual([]);
  });

  it('says when they were not in the previous period’s top 500', () => {
    const message = renderPerson(request, rankings({ previous: rankingWith() }));
    expect(sections(message)[0]).toMatchObject({
      text: {
        text: expect.stringMatching(
          /\n\*#4\* of the top 500 by mentions · not in the top 500 in the previous period$/,
        ),
      },
    });
  });

  it('says they are not in the top 500 of the window, with who they are from another', () => {
    const message = renderPerson(request, rankings({ current: rankingWith() }));
    expect(sections(message)[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text:
          '*@drferreirai* is not in the top 500 by mentions in this window. It was #7 in the previous period.\n' +
          'Dr Ana Ferreira · Doctor, Researcher/Academic · 12.3K followers',
      },
    });
    expect(message.text).toBe(
      '@drferreirai in #hcsm, Oct 1–Oct 31: not in the top 500 by mentions',
    );
  });

  it('says so, and how to ask again, when they rank nowhere', () => {
    const nowhere = rankingWith();
    const message = renderPerson(request, {
      current: nowhere,
      previous: nowhere,
      weeks: weeks.map((period) => ({ period, result: nowhere })),
    });
    expect(sections(message)).toEqual([
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text:
            '*@drferreirai* is not in the top 500 by mentions of #hcsm in this window, the previous period or any of the last 8 weeks. ' +
            'Check the handle (as it is on X), or try a longer window.',
        },
      },
    ]);
    expect(checkBlockKitLimits(message)).toEqual([]);
  });
});
