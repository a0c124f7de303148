/**
 * Plain messages that keep the engine runnable on its own (CLI, tests, benchmarks). The app
 * injects the Block Kit renderers from `src/render/` in their place.
 */
import type { KnownBlock } from '@slack/types';
import type { InfluencersQuery, InfluencersResult } from '../analytics/types.ts';
import type { SlackMessage } from '../render/types.ts';
import type { Digest } from './model.ts';
import type { RankChanges } from './rank-changes.ts';
import { describeSchedule } from './schedule.ts';

/** Slack mrkdwn needs only these three escaped. */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function changeLine(changes: RankChanges): string | undefined {
  if (changes.firstRun) return undefined;
  const parts: string[] = [];
  if (changes.newEntrants.length > 0) {
    parts.push(`new: ${changes.newEntrants.map((a) => `@${a.screenName}`).join(', ')}`);
  }
  if (changes.movedUp.length > 0) {
    parts.push(`up: ${changes.movedUp.map((m) => `@${m.screenName} +${m.delta}`).join(', ')}`);
  }
  if (changes.movedDown.length > 0) {
    parts.push(`down: ${changes.movedDown.map((m) => `@${m.screenName} ${m.delta}`).join(', ')}`);
  }
  if (changes.droppedOut.length > 0) {
    parts.push(`out: ${changes.droppedOut.map((a) => `@${a.screenName}`).join(', ')}`);
  }
  return parts.length > 0
    ? `Since the previous run: ${parts.join(' · ')}`
    : 'No change since the previous run';
}

export function defaultRenderDigest(
  digest: Digest,
  query: InfluencersQuery,
  result: InfluencersResult,
  changes: RankChanges,
): SlackMessage {
  const title = `Top influencers of ${digest.databases.join(', ')}`;
  const lines = result.influencers
    .slice(0, digest.top)
    .map((influencer) => `${influencer.rank}. @${escapeMrkdwn(influencer.screenName)}`);
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: (lines.length > 0 ? lines.join('\n') : 'No activity in this period.').slice(0, 3000),
      },
    },
  ];
  const changed = changeLine(changes);
  if (changed)
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escapeMrkdwn(changed) }] });
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: escapeMrkdwn(
          `Digest ${digest.id} · ${describeSchedule(digest.schedule)} · ${query.start} to ${query.end} · created by <@${digest.creatorId}>`,
        ).replace(/&lt;@(\w+)&gt;/, '<@$1>'),
      },
    ],
  });
  return { text: `${title} (${query.start} to ${query.end})`, blocks };
}

/** The DM a creator gets when their digest is paused after repeated failures. */
export function defaultRenderPauseNotice(digest: Digest, reason: string): SlackMessage {
  const text = `Your digest ${digest.id} (${describeSchedule(digest.schedule)} in <#${digest.channelId}>) was paused: ${reason}. Fix the cause, then resume it with /influencers digest resume ${digest.id}`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}
