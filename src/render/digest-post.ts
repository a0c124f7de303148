/**
 * The digest as its channel reads it on every run, and the notice its creator gets when repeated
 * failures pause it. Both are injected into the runner as they are (`RenderDigest`,
 * `RenderPauseNotice`), so the engine holds no words.
 */
import type { ContextBlock, KnownBlock, SectionBlock } from '@slack/types';
import type { InfluencersQuery, InfluencersResult, Metric } from '../analytics/types.ts';
import type { Cadence, Digest, PauseReason } from '../model/digest.ts';
import type { LookupRequest } from '../model/lookup.ts';
import type { SlackMessage } from '../model/message.ts';
import type { RankChanges } from '../model/rank-changes.ts';
import { bareHandle, moreNotShown, renderAnswer } from './answer.ts';
import { context, section } from './blocks.ts';
import { pauseWords } from './digest-failures.ts';
import {
  digestPerson,
  digestSubject,
  metricName,
  metricPhrase,
  scheduleWords,
} from './digest-words.ts';
import { escapeMrkdwn, neutralizeMrkdwn, truncate, truncateMrkdwn } from './format.ts';
import { commandMrkdwn } from './help.ts';
import { blockKitLimits, checkBlockKitLimits, checked } from './limits.ts';

/** Handles per kind of rank change; the rest are counted. */
const maxMovesShown = 10;

const cadenceWords: Record<Cadence, string> = {
  daily: 'Daily digest',
  weekly: 'Weekly digest',
  monthly: 'Monthly digest',
  custom: 'Digest',
};

export interface DigestMessageOptions {
  /**
   * The creator's display name for the context line. Without it the line mentions the creator
   * (`<@U…>`), which Slack may notify on every post: pass the name when it is known.
   */
  readonly createdByName?: string;
}

/**
 * The digest as posted in its channel: the same Block Kit answer as a lookup, a context line
 * ("Weekly digest · Mondays at 09:00 Europe/London · created by Jane"), and from the second run on
 * how the ranking moved since the previous run. Its first four parameters are the engine's
 * `RenderDigest`, so it can be injected as `renderDigest` as it is.
 */
export function renderDigestMessage(
  digest: Digest,
  query: InfluencersQuery,
  result: InfluencersResult,
  changes: RankChanges,
  options: DigestMessageOptions = {},
): SlackMessage {
  const request: LookupRequest = {
    databases: query.databases,
    start: query.start,
    end: query.end,
    timezone: query.timezone ?? digest.schedule.zone,
    top: query.limit ?? digest.top,
  };
  const answer = renderAnswer(request, result, { audience: 'channel' });
  const label = digest.postWhen === 'new' ? 'Watch' : cadenceWords[digest.schedule.cadence];
  const name =
    options.createdByName === undefined
      ? ''
      : neutralizeMrkdwn(truncate(options.createdByName, 80));
  const creator = name.length > 0 ? name : digestPerson(digest.creatorId);
  const ranked = digest.metric === undefined ? '' : ` · ranked by ${metricName(digest.metric)}`;
  const line = context(
    `${label} · ${escapeMrkdwn(scheduleWords(digest))}${ranked} · created by ${creator} · id ${escapeMrkdwn(digest.id)}`,
  );
  const moves = changesBlock(changes);
  const newcomers =
    digest.postWhen === 'new'
      ? newcomersLine(changes, result, digest.top, digest.metric ?? newcomerMetric)
      : undefined;

  // The answer is [header, window, ...entries, "…and N more"?]; the digest adds its own blocks.
  const [header, window, ...rest] = answer.blocks;
  const last = rest.at(-1);
  const more = last?.type === 'context' ? last : undefined;
  const entries = (more === undefined ? rest : rest.slice(0, -1)) as KnownBlock[];
  let hidden = more === undefined ? 0 : moreCount(more);
  const head = [
    header,
    window,
    ...(newcomers === undefined ? [] : [section(newcomers.mrkdwn)]),
    line,
  ].filter((block) => block !== undefined) as KnownBlock[];
  const assemble = (): KnownBlock[] => [
    ...head,
    ...entries,
    ...(hidden > 0 ? [moreNotShown(hidden)] : []),
    ...(moves === undefined ? [] : [moves]),
  ];
  const text = truncateMrkdwn(
    `${label}: ${newcomers === undefined ? answer.text : newcomers.text}`,
    blockKitLimits.fallbackText,
  );
  // Make room when the answer already filled the message: fold entries two by two, then drop some.
  while (checkBlockKitLimits({ text, blocks: assemble() }).length > 0 && entries.length > 1) {
    const overBlocks = assemble().length > blockKitLimits.messageBlocks;
    const a = entries.at(-2);
    const b = entries.at(-1);
    const joined =
      a?.type === 'section' && b?.type === 'section' && a.text && b.text
        ? `${a.text.text}\n\n${b.text.text}`
        : undefined;
    if (overBlocks && joined !== undefined && joined.length <= blockKitLimits.sectionText) {
      entries.splice(-2, 2, section(joined));
    } else {
      const dropped = entries.pop();
      hidden += dropped?.type === 'section' ? (dropped.text?.text.split('\n\n').length ?? 1) : 1;
    }
  }
  return checked({ text, blocks: assemble() });
}

/** The metric a watch's newcomers are shown with, unless it ranks by another. */
const newcomerMetric: Metric = 'mentions';

/**
 * A watch's news, first in its post: who entered the top N, by rank, each with their rank and
 * metric ("@carol at #2, 1.2K mentions"), in mrkdwn and as the notification's text.
 */
function newcomersLine(
  changes: RankChanges,
  result: InfluencersResult,
  top: number,
  metric: Metric,
): { readonly mrkdwn: string; readonly text: string } | undefined {
  if (changes.newEntrants.length === 0) return undefined;
  const byName = new Map(
    result.influencers.map((influencer) => [influencer.screenName.toLowerCase(), influencer]),
  );
  const shown = changes.newEntrants.slice(0, maxMovesShown);
  const rest = changes.newEntrants.length - shown.length;
  const names = shown.map((account) => {
    const influencer = byName.get(account.screenName.toLowerCase());
    const figure = influencer === undefined ? undefined : metricPhrase(influencer, metric);
    const handle = `@${neutralizeMrkdwn(bareHandle(account.screenName))}`;
    return `${handle} at #${account.rank}${figure === undefined ? '' : `, ${figure}`}`;
  });
  const list = `${names.join('; ')}${rest > 0 ? `; and ${rest} more` : ''}`;
  const heading = `New in the top ${top}`;
  return {
    mrkdwn: truncateMrkdwn(`:new: *${heading}*: ${list}`, blockKitLimits.sectionText),
    text: `${heading}: ${list}`,
  };
}

function moreCount(block: ContextBlock): number {
  const element = block.elements[0];
  const text = element !== undefined && 'text' in element ? element.text : '';
  const match = /…and (\d+) more/.exec(text);
  return match === null ? 0 : Number(match[1]);
}

/** How the ranking moved, compactly; undefined on a digest's first run. */
function changesBlock(changes: RankChanges): SectionBlock | undefined {
  if (changes.firstRun) return undefined;
  const handle = (name: string): string => `@${neutralizeMrkdwn(bareHandle(name))}`;
  const list = <T>(items: readonly T[], word: (item: T) => string): string => {
    const shown = items.slice(0, maxMovesShown).map(word);
    const rest = items.length - shown.length;
    return `${shown.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
  };
  const lines: string[] = [];
  if (changes.newEntrants.length > 0) {
    lines.push(
      `*New*: ${list(changes.newEntrants, (a) => `${handle(a.screenName)} at #${a.rank}`)}`,
    );
  }
  if (changes.movedUp.length > 0) {
    lines.push(
      `*Up*: ${list(changes.movedUp, (m) => `${handle(m.screenName)} +${m.delta} to #${m.rank}`)}`,
    );
  }
  if (changes.movedDown.length > 0) {
    lines.push(
      `*Down*: ${list(changes.movedDown, (m) => `${handle(m.screenName)} −${Math.abs(m.delta)} to #${m.rank}`)}`,
    );
  }
  if (changes.droppedOut.length > 0) {
    lines.push(
      `*Dropped out*: ${list(changes.droppedOut, (a) => `${handle(a.screenName)} (was #${a.rank})`)}`,
    );
  }
  const body =
    lines.length > 0 ? lines.join('\n') : 'No change in the ranking since the previous run.';
  return section(truncateMrkdwn(`*Since the previous run*\n${body}`, blockKitLimits.sectionText));
}

export interface DigestPausedOptions {
  readonly botUserId?: string;
  readonly command?: string;
}

/**
 * The direct message to a digest's creator when the engine paused it: which digest, why, what to
 * fix and how to resume. Its first two parameters are the engine's `RenderPauseNotice`; without a
 * reason it words the digest's own.
 */
export function renderDigestPaused(
  digest: Digest,
  reason?: PauseReason,
  options: DigestPausedOptions = {},
): SlackMessage {
  const cmd = commandMrkdwn(options.command);
  const resume = `\`${cmd} digest resume ${escapeMrkdwn(digest.id)}\``;
  const given = reason ?? digest.pauseReason;
  const { why, fix } =
    given === undefined
      ? { why: 'its runs kept failing', fix: undefined }
      : pauseWords(given, options.botUserId);
  const lines = [
    `:double_vertical_bar: Your digest *${escapeMrkdwn(digest.id)}* (${digestSubject(digest)}, ${escapeMrkdwn(scheduleWords(digest))}) was paused: ${why}.`,
    `${fix === undefined ? 'Once the cause is fixed,' : `${fix}, then`} resume it with ${resume}.`,
  ];
  const blocks: KnownBlock[] = [
    section(truncateMrkdwn(lines.join('\n'), blockKitLimits.sectionText)),
  ];
  blocks.push(context(`Or remove it with \`${cmd} digest remove ${escapeMrkdwn(digest.id)}\`.`));
  const text = truncateMrkdwn(
    `Your digest ${escapeMrkdwn(digest.id)} was paused: ${why}. Resume it with ${cmd} digest resume ${escapeMrkdwn(digest.id)}`,
    blockKitLimits.fallbackText,
  );
  return checked({ text, blocks });
}
