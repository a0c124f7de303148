/**
 * A digest command typed in the app's DM (`digest #hcsm every monday at 9am`, `digests`,
 * `digest history 7K3M9Q`): answered there, and a digest created there is delivered there, to
 * the person, with no channel to check. Its answers are posts in the DM, since a message event
 * has no response_url.
 */
import type { WebClient } from '@slack/web-api';
import { ParseError } from '../../../errors.ts';
import { answerDigestCommand } from '../../../flows/digest-commands.ts';
import { slashCommand } from '../../../model/commands.ts';
import { createsDigest, parseDigestCommand } from '../../../parsing/digest.ts';
import { renderError } from '../../../render/errors.ts';
import { renderDigestHelp } from '../../../render/management/digest-help.ts';
import { postAnswer } from '../../delivery/lookup-delivery.ts';
import type { SlackDeps } from '../../deps.ts';
import type { Reply } from '../../web-api/conversation.ts';
import { slackDigestAccess } from '../../web-api/digest-access.ts';

export async function answerDigestInDirectMessage(
  deps: SlackDeps,
  client: WebClient,
  where: Reply,
  caller: { readonly teamId: string; readonly userId: string },
  text: string,
): Promise<void> {
  const trimmed = text.trim();
  const zone = createsDigest(trimmed)
    ? await deps.zones.zoneOf(client, caller.userId)
    : { zone: 'UTC', fallback: false };
  const parsed = parseDigestCommand(trimmed, { now: deps.digests.now(), zone: zone.zone });
  if (parsed instanceof ParseError) {
    await postAnswer(deps, where, renderError(parsed));
    return;
  }
  if (parsed.kind === 'help') {
    await postAnswer(deps, where, renderDigestHelp({ command: slashCommand }));
    return;
  }
  const { manager, logger, now } = deps.digests;
  await answerDigestCommand(
    {
      manager,
      logger,
      now,
      caller,
      channelId: where.channel,
      directMessage: async () => where.channel,
      inDirectMessage: true,
      access: slackDigestAccess(
        client,
        deps.admins,
        { id: where.channel, name: 'directmessage' },
        logger,
      ),
      commandName: slashCommand,
    },
    parsed,
    async (message) => {
      await postAnswer(deps, where, message);
      return true;
    },
  );
}
