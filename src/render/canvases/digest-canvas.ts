/**
 * A digest's channel canvas, and the words of a canvas that could not be written.
 * The run just posted becomes a `CanvasReport` (see canvas.ts); why a canvas could not be written
 * is said in the list and in the DM its creator gets, once per reason.
 */
import type { KnownBlock } from '@slack/types';
import type { InfluencersQuery, InfluencersResult } from '../../analytics/types.ts';
import type { CanvasDocument, CanvasProblem, DigestCanvas } from '../../model/canvas.ts';
import type { Digest, RankedAccount } from '../../model/digest.ts';
import type { SlackMessage } from '../../model/message.ts';
import { defaultMetric } from '../../model/metrics.ts';
import type { RankChanges } from '../../model/rank-changes.ts';
import { context, section } from '../blocks.ts';
import { digestSubject, postWhenWords, scheduleWords } from '../digests/digest-words.ts';
import {
  cleanText,
  compactNumber,
  escapeMrkdwn,
  formatDatabases,
  truncate,
  truncateMrkdwn,
} from '../format.ts';
import { blockKitLimits, checked } from '../limits.ts';
import { commandMrkdwn } from '../lookups/help.ts';
import { metricHeading, metricValue, rankedByWords } from '../lookups/metric-words.ts';
import {
  type CanvasAccount,
  type CanvasHistoryEntry,
  type CanvasRow,
  canvasTableMaxRows,
  renderCanvasReport,
} from './canvas.ts';

/** The canvas's title, which Slack shows as its heading and its tab's name. */
export function digestCanvasTitle(digest: Pick<Digest, 'databases' | 'top'>): string {
  return truncate(`Top ${digest.top} of ${cleanText(formatDatabases(digest.databases))}`, 120);
}

/**
 * The canvas after a posted run: `result` answered `query`, `changes` compares it with the run
 * before, `history` holds the earlier runs, newest first.
 */
export function renderDigestCanvas(
  digest: Digest,
  query: InfluencersQuery,
  result: InfluencersResult,
  changes: RankChanges,
  history: readonly CanvasHistoryEntry[],
  now: Date,
): CanvasDocument {
  const metric = digest.metric ?? defaultMetric;
  const top = result.influencers.slice(0, Math.min(digest.top, canvasTableMaxRows));
  const names = new Map(
    result.influencers.map((influencer) => [
      influencer.screenName.toLowerCase(),
      influencer.displayName,
    ]),
  );
  const person = (ranked: Pick<RankedAccount, 'screenName'>): CanvasAccount => {
    const name = names.get(ranked.screenName.toLowerCase());
    return name === undefined ? { handle: ranked.screenName } : { handle: ranked.screenName, name };
  };
  const newcomers = new Set(changes.newEntrants.map((entry) => entry.screenName.toLowerCase()));
  const moved = new Map(
    [...changes.movedUp, ...changes.movedDown].map((move) => [
      move.screenName.toLowerCase(),
      move.delta,
    ]),
  );
  const rows: CanvasRow[] = top.map((influencer) => {
    const key = influencer.screenName.toLowerCase();
    const delta = moved.get(key);
    const value = metricValue(influencer, metric);
    const move = newcomers.has(key)
      ? 'new'
      : delta === undefined
        ? undefined
        : delta > 0
          ? `▲${delta}`
          : `▼${-delta}`;
    return {
      rank: influencer.rank,
      handle: influencer.screenName,
      ...(influencer.displayName === undefined ? {} : { name: influencer.displayName }),
      values: [value === undefined ? undefined : compactNumber(value), move ?? ''],
    };
  });
  const when = postWhenWords(digest);
  const markdown = renderCanvasReport({
    question: `Top ${digest.top} of ${formatDatabases(digest.databases)}, ${rankedByWords(metric)}`,
    window: { start: new Date(query.start), end: new Date(query.end), zone: digest.schedule.zone },
    details: [
      `${scheduleWords(digest)}${when === undefined ? '' : `, posts ${when}`}; digest ${digest.id}`,
    ],
    channelId: digest.channelId,
    creatorId: digest.creatorId,
    columns: [metricHeading(metric), 'Move'],
    rows,
    moves: {
      firstRun: changes.firstRun,
      newcomers: changes.newEntrants.map(person),
      up: changes.movedUp.map((move) => ({
        account: person(move),
        from: move.previousRank,
        to: move.rank,
      })),
      down: changes.movedDown.map((move) => ({
        account: person(move),
        from: move.previousRank,
        to: move.rank,
      })),
      left: changes.droppedOut.map((account) => ({ handle: account.screenName })),
    },
    history,
    updatedAt: now,
  });
  return { title: digestCanvasTitle(digest), markdown };
}

/**
 * A canvas in words for a confirmation and a list: which canvas, when it is written (`timing`:
 * before its first write, and after it), and why the last write failed; undefined when there is
 * none. Digests and conferences say it alike.
 */
export function canvasWords(
  state: DigestCanvas | undefined,
  timing: { readonly first: string; readonly each: string },
): string | undefined {
  if (state === undefined) return undefined;
  if (!state.enabled) {
    return state.canvas === undefined ? undefined : 'off; the canvas stays as it was last written';
  }
  const which =
    state.canvas === undefined
      ? `kept in the channel, ${timing.first}`
      : state.canvas.kind === 'channel'
        ? `the channel's canvas, rewritten ${timing.each}`
        : `a canvas of its own in the channel's tabs (the channel's canvas is someone else's), rewritten ${timing.each}`;
  return state.problem === undefined
    ? which
    : `${which}; the last write failed: ${canvasProblemWords(state.problem)}`;
}

/**
 * A digest's canvas in words for its confirmation and the digest list: which canvas, and why the
 * last write failed; undefined when it keeps none.
 */
export function canvasStateWords(digest: Pick<Digest, 'canvas'>): string | undefined {
  return canvasWords(digest.canvas, {
    first: 'written after the next post',
    each: 'after each post',
  });
}

/** Why the canvas could not be written, and what fixes it, as the digest list and the DM say. */
export function canvasProblemWords(problem: CanvasProblem): string {
  switch (problem) {
    case 'channel_canvas_taken':
      return "the channel's canvas is taken by someone else's, and this workspace's plan gives apps no canvas of their own beside it";
    case 'canvases_unavailable':
      return "this workspace's plan has no channel canvases";
    case 'edits_unavailable':
      return "this workspace's plan does not let apps edit their canvases, so the canvas cannot be brought up to date";
    case 'creation_failed':
      return "Slack could not create the channel's canvas or its tab; the next run tries again";
    case 'canvas_locked':
      return 'someone locked the canvas against edits; it is brought up to date again once it is unlocked';
    case 'canvas_too_large':
      return 'the report is larger than Slack lets a canvas be; fewer databases or a shorter history make it fit';
    case 'editing_failed':
      return 'Slack could not apply the canvas edit; the next run tries again';
    case 'not_allowed':
      return 'Slack does not let the app write a canvas in this channel';
    case 'missing_scope':
      return 'the app was installed before it could write canvases: a workspace admin must reinstall it to grant `canvases:write`';
    case 'creation_unconfirmed':
      return 'Slack did not confirm that it created the canvas; the next run finds it and brings it up to date';
    case 'slack_failed':
      return 'Slack could not be reached to write the canvas; the next run tries again';
  }
}

/** The DM to a digest's creator the first time its canvas fails for `problem`. */
export function renderCanvasProblemNotice(
  digest: Digest,
  problem: CanvasProblem,
  options: { readonly command?: string } = {},
): SlackMessage {
  return canvasProblemNotice(
    {
      noun: 'digest',
      id: digest.id,
      subject: digestSubject(digest),
      goesOn: 'The digest still posts at each run.',
    },
    problem,
    options.command,
  );
}

/**
 * The DM to the creator of a digest or a conference (`noun`) whose canvas failed for `problem`:
 * why, what still posts (`goesOn`), and how to stop keeping a canvas. `subject` is mrkdwn.
 */
export function canvasProblemNotice(
  owner: {
    readonly noun: 'digest' | 'conference';
    readonly id: string;
    readonly subject: string;
    readonly goesOn: string;
  },
  problem: CanvasProblem,
  command: string | undefined,
): SlackMessage {
  const cmd = commandMrkdwn(command);
  const why = escapeMrkdwn(canvasProblemWords(problem));
  const id = escapeMrkdwn(owner.id);
  const blocks: KnownBlock[] = [
    section(
      truncateMrkdwn(
        `:warning: The canvas of your ${owner.noun} *${id}* (${owner.subject}) could not be written: ${why}. ${owner.goesOn}`,
        blockKitLimits.sectionText,
      ),
    ),
    context(
      `You are told once for this reason. To stop keeping a canvas: \`${cmd} ${owner.noun} edit ${id} canvas off\`.`,
    ),
  ];
  const text = truncateMrkdwn(
    `The canvas of your ${owner.noun} ${id} could not be written: ${why}.`,
    blockKitLimits.fallbackText,
  );
  return checked({ text, blocks });
}
