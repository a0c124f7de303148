/**
 * A digest's failures in words: what went wrong, and what its creator can do about it.
 * They show in the list, the run answer and the pause notice. The runner stores only codes and
 * data; the words are made here, when they are shown.
 */
import type { ChannelProblem, ErrorCode } from '../../errors.ts';
import type { PauseReason, WorkspaceGone } from '../../model/digest.ts';
import { cleanText, neutralizeMrkdwn, truncate } from '../format.ts';
import { userMention } from '../mentions.ts';
import { unhandled } from '../unhandled.ts';

/** A failure as the renderer words it: its code and, where the code needs one, its detail. */
export interface FailureFacts {
  readonly code: ErrorCode | 'unknown';
  /** The channel problem of `channel_unreachable`. */
  readonly detail?: string;
}

const channelProblems: ReadonlySet<string> = new Set<ChannelProblem>([
  'not_in_channel',
  'archived',
  'not_found',
  'restricted',
  'direct_message',
]);

/** A stored detail read as a channel problem; anything else (a newer version's) as none. */
function channelProblemOf(detail: string | undefined): ChannelProblem | undefined {
  return detail !== undefined && channelProblems.has(detail)
    ? (detail as ChannelProblem)
    : undefined;
}

/** Codes with nothing a person can do about them; the logs say more. */
const unexpectedFailure = 'an unexpected error (the details are in the app logs)';

/**
 * A failed run's stored code in words short enough for one line: the list's last run, the answer
 * to Run now and the pause notice all say it alike.
 */
export function failureWords(code: ErrorCode | 'unknown', detail?: string): string {
  switch (code) {
    case 'channel_unreachable':
      return channelProblemWords(channelProblemOf(detail));
    case 'credentials_rejected':
    case 'unauthorized':
      return "the analytics service rejected this app's credentials; an admin must check them";
    case 'access_denied':
      return "a database in it is not accessible to this app's analytics account";
    case 'unknown_database':
      return 'a database in it no longer exists';
    case 'bad_request':
      return 'the analytics service did not accept its question';
    case 'rate_limited':
      return 'the analytics service was too busy';
    case 'service_unavailable':
      return 'the analytics service was unavailable';
    case 'timeout':
      return 'the analytics service took too long to answer';
    case 'network':
      return 'the analytics service could not be reached';
    case 'invalid_response':
      return 'the analytics service sent an answer this app could not read';
    case 'response_too_large':
      return 'the analytics service sent an answer far larger than any ranking';
    case 'team_not_allowed':
      return 'this workspace is no longer enabled for the app';
    case 'slack_call_failed':
      return 'Slack could not be reached or did not accept the post';
    case 'slack_rate_limited':
      return 'Slack was limiting how fast this app may post';
    case 'slack_blocks_refused':
      return detail === undefined
        ? 'Slack refused a block of the message'
        : `Slack refused a ${neutralizeMrkdwn(truncate(cleanText(detail), 40))} block of the message`;
    case 'config_invalid':
      return "Slack or the analytics service refused this app's configuration; an admin must check its tokens";
    case 'store_unavailable':
      return "the app's digest store did not answer";
    case 'parse_error':
    case 'digest_not_found':
    case 'digest_permission_denied':
    case 'export_failed':
    case 'unknown':
      return unexpectedFailure;
    default:
      return unhandled(code, unexpectedFailure);
  }
}

function channelProblemWords(problem: ChannelProblem | undefined): string {
  switch (problem) {
    case 'archived':
      return 'the channel was archived';
    case 'not_in_channel':
      return 'I am no longer a member of the channel';
    case 'not_found':
      return 'the channel no longer exists, or I can no longer see it';
    case 'restricted':
      return 'posting in the channel is restricted';
    case 'direct_message':
      return 'I cannot post in that conversation';
    case undefined:
      return 'I could not post in the channel';
    default:
      return unhandled(problem, unexpectedFailure);
  }
}

/**
 * What the creator can do about a failure that paused their digest, as the first half of a
 * sentence ("Invite <@U1> back to the channel with `/invite`"); undefined when nothing in
 * particular helps (a busy or unreachable service), so the notice only says to resume later.
 */
export function fixWords(cause: FailureFacts, botUserId: string | undefined): string | undefined {
  const me = userMention(botUserId, 'me');
  switch (cause.code) {
    case 'channel_unreachable':
      switch (channelProblemOf(cause.detail)) {
        case 'archived':
          return 'Unarchive the channel (or remove this digest and create it in another channel)';
        case 'not_in_channel':
        case 'not_found':
          return `Invite ${me} back to the channel with \`/invite\``;
        case 'restricted':
          return 'Ask a channel manager to let me post there';
        default:
          return `Check that the channel exists and that ${me} can post there`;
      }
    case 'access_denied':
    case 'unknown_database':
      return 'Check its databases (remove this digest and create it again without the one that is gone)';
    case 'credentials_rejected':
    case 'unauthorized':
      return "Ask an admin to check this app's analytics credentials";
    case 'bad_request':
      return 'Check its databases and window (remove this digest and create it again if one is wrong)';
    case 'slack_blocks_refused':
    case 'slack_call_failed':
    case 'invalid_response':
    case 'response_too_large':
    case 'unknown':
      return 'Tell an admin, who will find the details in the app logs';
    default:
      return undefined;
  }
}

/** Why a digest is paused, for its lists: "the channel was archived (3 failed runs in a row)". */
export function pauseReasonWords(reason: PauseReason): string {
  if (reason.kind !== 'failures')
    return `${goneWords(reason.kind)}; it resumes by itself once the app works here again`;
  return `${failureWords(reason.code, reason.detail)} (${reason.failures} failed runs in a row)`;
}

/** What happened to the app, for a digest paused because it left the workspace. */
export function goneWords(kind: WorkspaceGone): string {
  switch (kind) {
    case 'app_uninstalled':
      return 'the app was uninstalled from this workspace';
    case 'tokens_revoked':
      return "the app's bot token was revoked";
    default:
      return unhandled(kind, 'the app stopped working in this workspace');
  }
}

/**
 * Why a paused digest stopped and what to do, as the pause notice says it: the failure's words
 * and fix, or that the app left the workspace and must be reinstalled.
 */
export function pauseWords(
  reason: PauseReason,
  botUserId: string | undefined,
): { readonly why: string; readonly fix: string | undefined } {
  if (reason.kind !== 'failures') {
    return { why: goneWords(reason.kind), fix: 'Reinstall the app (or ask an admin to)' };
  }
  return {
    why: failureWords(reason.code, reason.detail),
    fix: fixWords(reason, botUserId),
  };
}
