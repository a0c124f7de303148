/**
 * Every error in the words a person reads, from one exhaustive switch on its `code`.
 * Each says what happened and what the person can do; anything that is not an AppError gets
 * {@link genericErrorText}, and the caller logs it with its cause.
 */
import {
  AccessDeniedError,
  BadRequestError,
  ChannelUnreachableError,
  DigestNotFoundError,
  DigestPermissionError,
  ExportFailedError,
  isAppError,
  RateLimitedError,
  ResponseTooLargeError,
  SlackBlocksRefusedError,
  SlackRateLimitedError,
  UnknownDatabaseError,
} from '../errors.ts';
import { slashCommand } from '../model/commands.ts';
import type { SlackMessage } from '../model/message.ts';
import { section } from './blocks.ts';
import {
  cleanText,
  escapeMrkdwn,
  formatDuration,
  neutralizeMrkdwn,
  truncate,
  truncateMrkdwn,
} from './format.ts';
import { blockKitLimits, checked } from './limits.ts';
import { channelMention, isSlackId } from './mentions.ts';
import { unhandled } from './unhandled.ts';

export interface ErrorTextOptions {
  /** The bot's user id (`U…`), so "invite me" can name the bot as a mention Slack renders. */
  readonly botUserId?: string;
  /** What the command was about, so its warnings name it: digests unless told. */
  readonly subject?: 'digest' | 'conference';
}

/**
 * A name that would be a hashtag with its `#` (`hcsm`): one word of letters, digits or `_`, with
 * a letter (a number is an ID).
 */
const bareHashtag = /^(?=.*\p{L})[\p{L}\p{M}\p{N}_]{1,100}$/u;

/** What a user reads for any failure that is not one of the app's own errors. */
export const genericErrorText =
  'Something went wrong on our side while answering. Try again in a moment; if it keeps ' +
  'happening, tell an admin (the details are in the app logs).';

/**
 * The words a Slack user sees for `error`: what happened and what they can do about it. This is the
 * only place an error becomes user text; anything that is not an AppError gets
 * {@link genericErrorText} and the caller logs it with its cause. The result is mrkdwn-ready: names
 * that came from users or the service are escaped here.
 */
export function errorText(error: unknown, options: ErrorTextOptions = {}): string {
  if (!isAppError(error)) return genericErrorText;
  const code = error.code;
  switch (code) {
    case 'parse_error':
      return escapeMrkdwn(error.message);
    case 'unknown_database': {
      const database = error instanceof UnknownDatabaseError ? error.database : undefined;
      if (database !== undefined && bareHashtag.test(database)) {
        return (
          `There is no database called ${quoteLiteral(database)}. Did you mean the hashtag ` +
          `\`#${escapeMrkdwn(database)}\`? Hashtags keep their \`#\`.`
        );
      }
      return database
        ? `There is no database called ${quoteLiteral(database)}. Check the spelling: hashtags keep their ` +
            '`#`, phrases go in quotes, groups are written `group:Name`.'
        : 'One of the databases you asked for does not exist. Check the spelling: hashtags keep ' +
            'their `#`, phrases go in quotes, groups are written `group:Name`.';
    }
    case 'access_denied': {
      const database = error instanceof AccessDeniedError ? error.database : undefined;
      return database
        ? `This app's analytics account has no access to ${quoteLiteral(database)}. Ask an admin to ` +
            'request access, or try another database.'
        : "This app's analytics account has no access to a database you asked for. Ask an admin " +
            'to request access, or try another database.';
    }
    case 'credentials_rejected':
      return (
        "The analytics service rejected this app's credentials, so no lookup can run right now. " +
        "An admin must check the bot's analytics credentials."
      );
    case 'unauthorized':
      return (
        "The analytics service refused this app's access, so no lookup can run right now. An " +
        "admin must check the bot's analytics credentials and what they are allowed to read."
      );
    case 'bad_request': {
      const detail = error instanceof BadRequestError ? error.serviceMessage : undefined;
      const reason = detail ? ` It said: ${quoteLiteral(truncate(detail, 300))}.` : '';
      return (
        `The analytics service did not accept this request.${reason} Check the databases and ` +
        'the window, then try again.'
      );
    }
    case 'rate_limited': {
      const wait = error instanceof RateLimitedError ? error.retryAfterMs : undefined;
      return wait === undefined
        ? 'The analytics service is getting too many requests right now. Try again in a minute.'
        : `The analytics service is getting too many requests right now. Try again in ${formatDuration(wait)}.`;
    }
    case 'service_unavailable':
      return 'The analytics service is having trouble right now. Try again in a few minutes.';
    case 'timeout':
      return (
        'The analytics service took too long to answer. Try again in a few minutes, or ask for a ' +
        'shorter window (for example `last 24 hours`) or fewer databases.'
      );
    case 'network':
      return (
        'The analytics service could not be reached. Try again in a few minutes; if it keeps ' +
        "happening, an admin should check the app's connection to the service."
      );
    case 'invalid_response':
      return (
        'The analytics service sent an answer this app could not read. Try again later; if it ' +
        'keeps happening, tell an admin (the details are in the app logs).'
      );
    case 'response_too_large': {
      const cap = error instanceof ResponseTooLargeError ? error.capBytes : undefined;
      return (
        `The analytics service sent an answer far larger than any ranking${cap === undefined ? '' : ` (over ${sizeWords(cap)})`}, ` +
        'so it was not read. Try again later; if it keeps happening, tell an admin (the details ' +
        'are in the app logs).'
      );
    }
    case 'team_not_allowed':
      return (
        'This app is not enabled for this workspace. Ask the person who runs it to add your ' +
        'workspace.'
      );
    case 'digest_not_found': {
      const id = error instanceof DigestNotFoundError ? error.digestId : undefined;
      return (
        `There is no digest ${id ? `with id ${quoteLiteral(id)} ` : 'with that id '}here. ` +
        `Use \`${slashCommand} digests\` to list the digests of this channel.`
      );
    }
    case 'digest_permission_denied': {
      const creator = error instanceof DigestPermissionError ? error.creatorId : undefined;
      const who = isSlackId(creator) ? ` (<@${creator}>)` : '';
      return `Only the digest's creator${who} or a workspace admin can change this digest.`;
    }
    case 'channel_unreachable':
      return channelText(error instanceof ChannelUnreachableError ? error : undefined, options);
    case 'slack_call_failed':
      return 'Slack could not be reached or did not accept the request. Try again in a minute.';
    case 'slack_rate_limited': {
      const wait = error instanceof SlackRateLimitedError ? error.retryAfterMs : undefined;
      return wait === undefined
        ? 'Slack is limiting how fast this app may post right now. Try again in a minute.'
        : `Slack is limiting how fast this app may post right now. Try again in ${formatDuration(wait)}.`;
    }
    case 'slack_blocks_refused': {
      const type = error instanceof SlackBlocksRefusedError ? error.blockType : undefined;
      return `Slack refused ${type ? `a ${quoteLiteral(type)} block of ` : ''}this message, so nothing was posted. Tell an admin (the details are in the app logs).`;
    }
    case 'export_failed':
      return exportText(error instanceof ExportFailedError ? error : undefined, options);
    case 'store_unavailable':
      return (
        `The app's ${options.subject === 'conference' ? 'store' : 'digest store'} is not answering right now, so ${options.subject ?? 'digest'}s can't be created, listed ` +
        'or changed. Lookups still work. Try again in a few minutes; if it lasts, tell an admin ' +
        '(the app logs say what failed).'
      );
    case 'config_invalid':
      return (
        'This app is not configured correctly, so it cannot answer right now. An admin must fix ' +
        'its configuration (the app logs say what is wrong).'
      );
    default:
      return unhandled(code, genericErrorText);
  }
}

/** An error as a message: the same words as {@link errorText}, marked as a problem. */
export function renderError(error: unknown, options: ErrorTextOptions = {}): SlackMessage {
  const text = truncateMrkdwn(errorText(error, options), blockKitLimits.fallbackText - 20);
  return checked({ text, blocks: [section(`:warning: ${text}`)] });
}

function channelText(
  error: ChannelUnreachableError | undefined,
  options: ErrorTextOptions,
): string {
  const channel = channelMention(error?.channelId, 'that channel');
  const invite = isSlackId(options.botUserId)
    ? `/invite <@${options.botUserId}>`
    : '`/invite @` followed by this app’s name';
  const problem = error?.problem;
  switch (problem) {
    case 'not_in_channel':
      return `I can't post in ${channel} because I'm not a member of it. If it is a private channel, invite me there with ${invite}, then try again.`;
    case 'archived':
      return `${channel === 'that channel' ? 'That channel' : channel} is archived, so I can't post there. Unarchive it or choose another channel.`;
    case 'not_found':
      return `I can't find ${channel}. It may have been deleted, or it is a private channel I'm not in: invite me there with ${invite}, then try again.`;
    case 'restricted':
      return `I'm not allowed to post in ${channel}: posting there is restricted. Ask a channel manager to allow it, or choose another channel.`;
    case 'direct_message':
      return options.subject === 'conference'
        ? "I can't post a conference leaderboard in a direct message between people, or in a group DM I'm not part of. Start the conference in a channel."
        : "I can't post digests in a direct message between people, or in a group DM I'm not part of. Create the digest in a channel, or in my Messages tab to get it as a DM.";
    case undefined:
      return `I can't post in ${channel}. Check that the channel exists and that I'm a member of it (${invite}).`;
    default:
      return unhandled(problem, genericErrorText);
  }
}

function exportText(error: ExportFailedError | undefined, options: ErrorTextOptions): string {
  const problem = error?.problem;
  switch (problem) {
    case 'missing_scope':
      return (
        'I could not send the CSV file: this app was installed without permission to upload ' +
        'files. An admin must reinstall it from manifest.yml (it asks for files:write and ' +
        'im:write), then try again.'
      );
    case 'not_in_channel': {
      const channel = channelMention(error?.channelId, 'that channel');
      const invite = isSlackId(options.botUserId)
        ? `/invite <@${options.botUserId}>`
        : '`/invite @` followed by this app’s name';
      return `I could not send the CSV file to ${channel} because I'm not a member of it. Invite me with ${invite}, or export from my Messages tab.`;
    }
    case 'refused':
    case undefined:
      return 'Slack did not accept the CSV file, so nothing was sent. Try again in a minute; if it keeps happening, tell an admin (the details are in the app logs).';
    default:
      return unhandled(problem, genericErrorText);
  }
}

/** A byte count as people say it: `4 MB`, `512 KB`. */
function sizeWords(bytes: number): string {
  return bytes >= 1_048_576
    ? `${Math.round(bytes / 1_048_576)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * A name a user or the service supplied, shown literally inside these words: cleaned to one line,
 * cut to 200 characters and neutralized so no markup or mention in it takes effect, then put in
 * typographic quotes. parsing/messages.ts's `quote` only adds the quotes: a parse error's message
 * is escaped as a whole when it is shown (the `parse_error` case above), so its fragments must not
 * be escaped twice.
 */
function quoteLiteral(name: string): string {
  return `“${neutralizeMrkdwn(truncate(cleanText(name), 200))}”`;
}
