/** What the digest renderers' tests share: a digest, a lookup to post, and a reader for blocks. */
import type { Influencer, InfluencersQuery, InfluencersResult } from '../../src/analytics/types.ts';
import type { Digest } from '../../src/model/digest.ts';
import type { LookupRequest } from '../../src/model/lookup.ts';
import type { MessageBlock } from '../../src/model/message.ts';

export const now = new Date('2026-11-21T15:30:00Z');

export function digest(overrides: Partial<Digest> = {}): Digest {
  return {
    id: '7K3M9Q',
    teamId: 'T1',
    channelId: 'C0123',
    creatorId: 'U42',
    databases: ['#hcsm', 'patient safety'],
    schedule: { kind: 'cron', expression: '0 9 * * 1', zone: 'Europe/London', cadence: 'weekly' },
    window: { kind: 'since-previous-run' },
    top: 10,
    postWhen: 'always',
    presentation: 'list',
    status: 'active',
    consecutiveFailures: 0,
    nextRunAt: new Date('2026-11-23T09:00:00Z'),
    createdAt: new Date('2026-11-20T10:00:00Z'),
    updatedAt: new Date('2026-11-20T10:00:00Z'),
    ...overrides,
  };
}

export function texts(blocks: readonly MessageBlock[]): string[] {
  return blocks.flatMap((block) => {
    if (block.type === 'section' && block.text) return [block.text.text];
    if (block.type === 'context') {
      return block.elements.flatMap((element) => ('text' in element ? [element.text] : []));
    }
    if (block.type === 'header') return [block.text.text];
    return [];
  });
}

/** The `<!date^…>` token slackDate writes, as the expected texts spell it. */
export const mondayDate = (seconds: number, fallback: string): string =>
  `<!date^${seconds}^{date_short_pretty} {time}|${fallback}>`;

export const query: InfluencersQuery = {
  databases: ['#hcsm'],
  start: '2026-11-16T09:00:00+00:00',
  end: '2026-11-23T09:00:00+00:00',
  timezone: 'Europe/London',
  limit: 10,
};

export const result: InfluencersResult = {
  influencers: [
    { rank: 1, screenName: 'alice', stakeholderCategories: [], metrics: { mentions: 10 } },
    { rank: 2, screenName: 'bob', stakeholderCategories: [], metrics: {} },
  ],
};

/** A week of #hcsm in New York: the lookup the answer's tests render. */
export const lookup: LookupRequest = {
  databases: ['#hcsm'],
  start: '2026-11-14T00:00:00-05:00',
  end: '2026-11-21T00:00:00-05:00',
  timezone: 'America/New_York',
  top: 10,
};

/** An influencer with only what a test names: `user<rank>`, no category, no metric. */
export function influencer(overrides: Partial<Influencer> & Pick<Influencer, 'rank'>): Influencer {
  return {
    screenName: `user${overrides.rank}`,
    stakeholderCategories: [],
    metrics: {},
    ...overrides,
  };
}
