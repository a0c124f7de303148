/**
 * A workspace's digests held or resumed as a whole, in words.
 * Why they are on hold for an outage (the DM its admins get once, the list's line, the skipped
 * runs it shows), and the DM a creator gets when they run again (the app works in the workspace
 * again, or the outage is over), with the runs each skipped. The engine stores only codes.
 */
import type { ActionsBlock, KnownBlock } from '@slack/types';
import type { SkippedSlots } from '../../digests/resumed.ts';
import type { Digest, OutageCause } from '../../model/digest.ts';
import type { SlackMessage } from '../../model/message.ts';
import { context, section } from '../blocks.ts';
import { escapeMrkdwn, truncateMrkdwn } from '../format.ts';
import { digestActionIds, digestNoticeBlockId } from '../ids.ts';
import { blockKitLimits, checked } from '../limits.ts';
import { commandMrkdwn } from '../lookups/help.ts';
import { unhandled } from '../unhandled.ts';
import { digestSubject, runTime, scheduleWords, zonedTime } from './digest-words.ts';

/** What happened, as the second half of "Digests are on hold: …". */
export function outageWords(cause: OutageCause): string {
  switch (cause) {
    case 'slack_token_rejected':
      return "Slack refused this app's bot token";
    case 'slack_rate_limited':
      return 'Slack kept limiting how fast this app may post';
    case 'slack_unreachable':
      return 'Slack could not be reached';
    case 'analytics_credentials_rejected':
      return "the analytics service rejected this app's credentials";
    case 'analytics_rate_limited':
      return "the analytics service kept limiting this app's requests";
    case 'analytics_unavailable':
      return 'the analytics service was unavailable or could not be reached';
    default:
      return unhandled(cause, 'the app could not run them');
  }
}

/** What an admin can do, as a sentence; undefined when only waiting helps. */
export function outageFixWords(cause: OutageCause): string | undefined {
  switch (cause) {
    case 'slack_token_rejected':
      return 'An admin must reinstall the app from manifest.yml or update SLACK_BOT_TOKEN.';
    case 'analytics_credentials_rejected':
      return 'An admin must check ANALYTICS_CLIENT_ID and ANALYTICS_CLIENT_SECRET with the analytics provider.';
    case 'slack_unreachable':
      return "If it lasts, an admin should check the app's connection to Slack.";
    case 'analytics_unavailable':
      return "If it lasts, an admin should check the app's connection to the analytics service.";
    default:
      return undefined;
  }
}

const resumesWords =
  'They resume by themselves once it works again; slots missed meanwhile are skipped and shown in the digest list. No digest was paused.';

export interface OutageNoticeOptions {
  readonly command?: string;
}

/**
 * The direct message to a workspace's admins who created digests, once, when its digests go on
 * hold: what happened, what to do, and that nothing needs resuming. Its first two parameters are
 * the engine's `RenderOutageNotice`.
 */
export function renderOutageNotice(
  _teamId: string,
  cause: OutageCause,
  options: OutageNoticeOptions = {},
): SlackMessage {
  const fix = outageFixWords(cause);
  const what = `Scheduled digests in this workspace are on hold: ${outageWords(cause)}.`;
  const blocks: KnownBlock[] = [
    section(`:double_vertical_bar: *${what}*${fix === undefined ? '' : `\n${fix}`}`),
    context(
      `${resumesWords} \`${commandMrkdwn(options.command)} digests\` lists a channel's digests.`,
    ),
  ];
  const text = `${what} ${fix ?? ''} ${resumesWords}`.replace(/\s+/g, ' ').trim();
  return checked({ text: text.slice(0, blockKitLimits.fallbackText), blocks });
}

export interface DigestsResumedOptions {
  readonly now: Date;
  readonly command?: string;
  /** The outage that held them; absent when the app had left the workspace. */
  readonly cause?: OutageCause;
  /** Nothing held them: the app came to their runs too late (it was not running, or fell behind). */
  readonly late?: boolean;
  /** What each digest skipped meanwhile, by digest id. */
  readonly skipped?: ReadonlyMap<string, SkippedSlots>;
}

/** Digests whose "Run now" a resume notice offers; the others are in the list above them. */
const runNowButtonsShown = 20;

/**
 * The DM to a creator whose digests resumed, because the app works in their workspace again
 * (after it was uninstalled or its token revoked) or an outage that held them is over: which
 * digests, when each runs next, the runs each skipped meanwhile, and "Run now" for each of those.
 */
export function renderDigestsResumed(
  digests: readonly Digest[],
  options: DigestsResumedOptions,
): SlackMessage {
  const skippedOf = (digest: Digest) => options.skipped?.get(digest.id);
  const lines = digests.map((digest) => {
    const line = `• *${escapeMrkdwn(digest.id)}* (${digestSubject(digest)}, ${escapeMrkdwn(scheduleWords(digest))}): next run ${runTime(digest.nextRunAt, digest.schedule.zone, options.now)}`;
    const skipped = skippedOf(digest);
    return skipped === undefined
      ? line
      : `${line}\n      ${skippedWords(digest, skipped, options.now)}`;
  });
  const plural = digests.length === 1 ? '' : 's';
  const verbEnding = digests.length === 1 ? 's' : '';
  const head =
    options.late === true
      ? `:warning: Some runs of your digest${plural} were skipped: the app was not running, or fell behind, when they were due, and a run found that late is not posted. Your digest${plural} run${verbEnding} on schedule again.`
      : options.cause === undefined
        ? `:arrow_forward: The app works in this workspace again, so your digest${plural} run${verbEnding} again.`
        : `:arrow_forward: Your digest${plural} run${verbEnding} again: scheduled digests in this workspace were on hold because ${outageWords(options.cause)}.`;
  const withSkips = digests.filter((digest) => skippedOf(digest) !== undefined);
  const buttons: ActionsBlock[] = withSkips.slice(0, runNowButtonsShown).map((digest) => ({
    type: 'actions',
    block_id: digestNoticeBlockId(digest.id),
    elements: [
      {
        type: 'button',
        action_id: digestActionIds.runNow,
        text: { type: 'plain_text', text: `Run ${digest.id} now` },
        value: digest.id,
      },
    ],
  }));
  const list = `\`${commandMrkdwn(options.command)} digests\` in a channel lists its digests.`;
  const blocks: KnownBlock[] = [
    section(truncateMrkdwn(`${head}\n${lines.join('\n')}`, blockKitLimits.sectionText)),
    ...buttons,
    context(
      withSkips.length === 0
        ? list
        : `Skipped runs are not posted later. *Run now* posts a digest now, covering as long a window as a scheduled run, up to now. ${list}`,
    ),
  ];
  const ids = digests.map((digest) => escapeMrkdwn(digest.id)).join(', ');
  const skippedIds = withSkips.map((digest) => escapeMrkdwn(digest.id)).join(', ');
  const text = truncateMrkdwn(
    options.late === true
      ? `Runs of your digests ${skippedIds} were skipped: the app could not post them on time. Run them now from this message.`
      : options.cause === undefined && withSkips.length === 0
        ? `The app works in this workspace again: your digests ${ids} run again.`
        : `Your digests ${ids} run again.${withSkips.length === 0 ? '' : ` Runs of ${skippedIds} were skipped meanwhile: run them now from this message.`}`,
    blockKitLimits.fallbackText,
  );
  return checked({ text, blocks });
}

/** "skipped 3 runs: Mon Jun 8, 09:00 BST, Tue Jun 9, … and 1 more". */
function skippedWords(digest: Digest, skipped: SkippedSlots, now: Date): string {
  const named = skipped.first.map((slot) => zonedTime(slot, digest.schedule.zone, now));
  const more = skipped.count - named.length;
  const runs = skipped.count === 1 ? 'run' : 'runs';
  return `skipped ${skipped.count} ${runs}: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
