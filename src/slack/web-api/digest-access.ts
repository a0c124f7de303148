/**
 * The Slack facts digest rules depend on: whether the bot can post in a channel (asked once, at
 * creation) and whether a person is a workspace admin or owner (cached, since every button press
 * by a non-creator asks).
 */
import type { WebClient } from '@slack/web-api';
import { ChannelUnreachableError } from '../../errors.ts';
import type { DigestAccess, DigestCaller } from '../../flows/digest-manager.ts';
import type { Logger } from '../../logger.ts';
import { slackErrorString, slackFailure } from './client.ts';
import { UserDirectory } from './user-directory.ts';

/** Roles change rarely; ten minutes keeps users.info calls rare and a demotion effective soon. */

/** What the command payload says about where it was typed (`channel_name`). */
export interface ChannelHint {
  readonly id: string;
  /** `directmessage` for DMs, `mpdm-…` for group DMs, the channel's name otherwise. */
  readonly name?: string;
}

/** Digests are posted by the app: a DM between people is out of its reach, whatever the scopes. */
function isDirectMessage(channel: ChannelHint): boolean {
  return channel.id.startsWith('D') || channel.name === 'directmessage';
}

function isGroupMessage(channel: ChannelHint): boolean {
  return channel.name?.startsWith('mpdm-') === true;
}

interface ConversationFacts {
  readonly is_archived?: boolean;
  readonly is_im?: boolean;
  readonly is_mpim?: boolean;
  readonly is_private?: boolean;
  readonly is_group?: boolean;
  readonly is_member?: boolean;
}

/**
 * Throws when the bot could never post a digest in `channel`: archived; a private channel or a
 * group DM without the bot (conversations.info cannot even see those: `channel_not_found`); a DM
 * between people. A public channel without the bot is fine: the poster joins it.
 */
export async function assertBotCanPost(
  client: WebClient,
  channel: ChannelHint,
  logger: Logger,
): Promise<void> {
  let facts: ConversationFacts | undefined;
  try {
    const info = await client.conversations.info({ channel: channel.id });
    facts = info.channel as ConversationFacts | undefined;
  } catch (error) {
    const reason = slackErrorString(error);
    if (reason === 'channel_not_found') {
      if (isDirectMessage(channel) || isGroupMessage(channel)) {
        throw new ChannelUnreachableError(channel.id, 'direct_message', { cause: error });
      }
      throw new ChannelUnreachableError(channel.id, 'not_in_channel', { cause: error });
    }
    if (reason === 'missing_scope') {
      // Installed before digests existed: the post itself will tell, but do not block creation.
      logger.warn(
        { channelId: channel.id },
        'conversations.info lacks a scope; reinstall the app from manifest.yml to check channels at digest creation',
      );
      return;
    }
    throw error;
  }
  if (facts === undefined) return;
  if (facts.is_archived === true) throw new ChannelUnreachableError(channel.id, 'archived');
  if (facts.is_im === true) return;
  if (facts.is_mpim === true) {
    if (facts.is_member === false) throw new ChannelUnreachableError(channel.id, 'direct_message');
    return;
  }
  const isPrivate = facts.is_private === true || facts.is_group === true;
  if (isPrivate && facts.is_member !== true) {
    throw new ChannelUnreachableError(channel.id, 'not_in_channel');
  }
}

export interface AdminDirectoryOptions {
  readonly logger: Logger;
  /** The shared users.info cache; a private one when not given. */
  readonly directory?: UserDirectory;
}

/** users.info `is_admin` / `is_owner`, through the shared users.info cache. */
export class AdminDirectory {
  readonly #directory: UserDirectory;
  readonly #logger: Logger;

  constructor(options: AdminDirectoryOptions) {
    this.#logger = options.logger;
    this.#directory = options.directory ?? new UserDirectory();
  }

  /** False when Slack cannot say: the refusal is safer than a wrong permission. */
  async isAdmin(client: WebClient, caller: DigestCaller): Promise<boolean> {
    try {
      return (await this.#directory.get(client, caller.userId)).isAdmin;
    } catch (error) {
      this.#logger.warn(
        { ...slackFailure(error, 'users.info'), userId: caller.userId },
        'users.info failed; not an admin',
      );
      return false;
    }
  }
}

/** The rules' view of Slack for one request, through that request's client. */
export function slackDigestAccess(
  client: WebClient,
  admins: AdminDirectory,
  channel: ChannelHint | undefined,
  logger: Logger,
): DigestAccess {
  return {
    assertCanPost: async (channelId) =>
      assertBotCanPost(client, channel?.id === channelId ? channel : { id: channelId }, logger),
    isAdmin: (caller) => admins.isAdmin(client, caller),
  };
}
