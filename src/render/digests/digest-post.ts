/**
 * A digest's post on every run, and the notice its creator gets when repeated failures pause it.
 * Both are injected into the runner as they are (`RenderDigest`, `RenderPauseNotice`), so the
 * engine holds no words.
 */
import type { KnownBlock, SectionBlock } from '@slack/types';
import type { InfluencersQuery, InfluencersResult, Metric } from '../../analytics/types.ts';
import type { Cadence, Digest, PauseReason, RankedAccount } from '../../model/digest.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import { accountMove, type RankChanges } from '../../model/rank-changes.ts';
import { context, section } from '../blocks.ts';
import { escapeMrkdwn, neutralizeMrkdwn, truncate, truncateMrkdwn } from '../format.ts';
import { blockKitLimits, checked } from '../limits.ts';
import { frameAnswer, type PreparedAnswer, prepareAnswer } from '../lookups/answer.ts';
import {
  droppedOutText,
  listWithMore,
  maxMovesShown,
  personLabel,
} from '../lookups/answer-list.ts';
import { commandMrkdwn } from '../lookups/help.ts';
import { metricPhrase } from '../lookups/metric-words.ts';
import { bareHandle } from '../lookups/ranking.ts';
import { pauseWords } from './digest-failures.ts';
import { digestPerson, digestSubject, scheduleWords } from './digest-words.ts';

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
    // The question asks for 500 when the digest keeps some people: it shows its top N.
    top: digest.top,
    ...(digest.metric === undefined ? {} : { metric: digest.metric }),
    presentation: digest.presentation,
    ...(digest.stakeholders === undefined ? {} : { stakeholders: digest.stakeholders }),
    ...(digest.orderBy === undefined ? {} : { orderBy: digest.orderBy }),
  };
  const label = digest.postWhen === 'new' ? 'Watch' : cadenceWords[digest.schedule.cadence];
  const name =
    options.createdByName === undefined
      ? ''
      : neutralizeMrkdwn(truncate(options.createdByName, 80));
  const creator = name.length > 0 ? name : digestPerson(digest.creatorId);
  const line = context(
    `${label} · ${escapeMrkdwn(scheduleWords(digest))} · created by ${creator} · id ${escapeMrkdwn(digest.id)}`,
  );
  const moves = changesBlock(changes);
  const metric = digest.metric ?? newcomerMetric;
  const newcomers =
    digest.account !== undefined && digest.postWhen === 'new'
      ? accountLine(digest.account, changes, result, digest.top, metric)
      : digest.postWhen === 'new'
        ? newcomersLine(changes, result, digest.top, metric)
        : undefined;
  // The answer's own blocks, with the digest's lines in the room it leaves them.
  const answer = frameAnswer(preparedAnswer(request, result), {
    afterWindow: [...(newcomers === undefined ? [] : [section(newcomers.mrkdwn)]), line],
    afterRanking: moves === undefined ? [] : [moves],
    footnote: false,
  });
  const text = truncateMrkdwn(
    `${label}: ${newcomers === undefined ? answer.text : newcomers.text}`,
    blockKitLimits.fallbackText,
  );
  return checked({ text, blocks: answer.blocks });
}

/**
 * Each answer's prepared forms, by the request it is shown for. One answer wakes every digest that
 * asked its question (about twenty each in a large tick); they prepare it once and frame it each.
 * Held as long as the answer itself, so for the tick that asked it.
 */
const prepared = new WeakMap<InfluencersResult, Map<string, PreparedAnswer>>();

/** The answer prepared for `request`, from the ones its earlier digests prepared if any. */
function preparedAnswer(request: LookupRequest, result: InfluencersResult): PreparedAnswer {
  let forResult = prepared.get(result);
  if (forResult === undefined) {
    forResult = new Map();
    prepared.set(result, forResult);
  }
  // Every field of the request changes the answer: all of them make the key.
  const key = JSON.stringify(request);
  let answer = forResult.get(key);
  if (answer === undefined) {
    answer = prepareAnswer(request, result, { audience: 'channel' });
    forResult.set(key, answer);
  }
  return answer;
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
    return `${accountLabel(account)} at #${account.rank}${figure === undefined ? '' : `, ${figure}`}`;
  });
  const list = `${names.join('; ')}${rest > 0 ? `; and ${rest} more` : ''}`;
  const heading = `New in the top ${top}`;
  return {
    mrkdwn: truncateMrkdwn(`:new: *${heading}*: ${list}`, blockKitLimits.sectionText),
    text: `${heading}: ${list}`,
  };
}

/**
 * A watch of one account's news, first in its post: "@drana entered the top 10 at #7, 120
 * mentions", "@drana left the top 10 (was #9)", or where it stands when someone ran the watch by
 * hand and it did neither.
 */
function accountLine(
  account: string,
  changes: RankChanges,
  result: InfluencersResult,
  top: number,
  metric: Metric,
): { readonly mrkdwn: string; readonly text: string } {
  const who = accountLabel({ screenName: account, rank: 0 });
  const move = accountMove(account, changes);
  const key = account.toLowerCase();
  const found = result.influencers
    .slice(0, top)
    .find((influencer) => influencer.screenName.replace(/^@+/u, '').toLowerCase() === key);
  const figure = found === undefined ? undefined : metricPhrase(found, metric);
  const at = (rank: number) => `at #${rank}${figure === undefined ? '' : `, ${figure}`}`;
  const [emoji, news] =
    move?.kind === 'entered'
      ? [':arrow_up:', `${who} entered the top ${top} ${at(move.rank)}`]
      : move?.kind === 'left'
        ? [':arrow_down:', `${who} left the top ${top} (was #${move.rank})`]
        : found === undefined
          ? [':eyes:', `${who} is not in the top ${top}`]
          : [':eyes:', `${who} is in the top ${top} ${at(found.rank)}`];
  return {
    mrkdwn: truncateMrkdwn(`${emoji} *${news}*`, blockKitLimits.sectionText),
    text: news,
  };
}

/** A stored account as the answer's lines name a person. */
function asRow(account: RankedAccount) {
  return { handle: bareHandle(account.screenName), name: '', rank: account.rank };
}

function accountLabel(account: RankedAccount): string {
  return personLabel(asRow(account));
}

/** How the ranking moved, compactly; undefined on a digest's first run. */
function changesBlock(changes: RankChanges): SectionBlock | undefined {
  if (changes.firstRun) return undefined;
  const lines: string[] = [];
  if (changes.newEntrants.length > 0) {
    lines.push(
      `*New*: ${listWithMore(changes.newEntrants, (a) => `${accountLabel(a)} at #${a.rank}`)}`,
    );
  }
  if (changes.movedUp.length > 0) {
    lines.push(
      `*Up*: ${listWithMore(changes.movedUp, (m) => `${accountLabel(m)} +${m.delta} to #${m.rank}`)}`,
    );
  }
  if (changes.movedDown.length > 0) {
    lines.push(
      `*Down*: ${listWithMore(changes.movedDown, (m) => `${accountLabel(m)} −${Math.abs(m.delta)} to #${m.rank}`)}`,
    );
  }
  if (changes.droppedOut.length > 0) {
    lines.push(
      droppedOutText(
        changes.droppedOut.map((a) => ({
          handle: bareHandle(a.screenName),
          name: '',
          rank: a.rank,
        })),
      ),
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
