/**
 * `/influencers digest …` and `/influencers digests`. The ack carries only what needs nothing
 * slow (the help, a grammar error); everything that reads the store or asks Slack happens after
 * it and answers through response_url, ephemerally.
 */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { ChannelUnreachableError, ParseError } from '../../../errors.ts';
import { answerDigestCommand } from '../../../flows/digest-commands.ts';
import type { DigestCaller } from '../../../flows/digest-manager.ts';
import { defined } from '../../../model/defined.ts';
import { createsDigest, type DigestCommand, parseDigestCommand } from '../../../parsing/digest.ts';
import { renderError } from '../../../render/errors.ts';
import { digestUtcFallbackNote } from '../../../render/lookups/status.ts';
import { renderDigestHelp } from '../../../render/management/digest-help.ts';
import type { SlackDeps } from '../../deps.ts';
import { slackDigestAccess } from '../../web-api/digest-access.ts';
import { directMessageWith } from '../../web-api/files.ts';
import { ResponseUrl } from '../../web-api/response-url.ts';

/** A word after `/influencers` that another handler answers; it must ack within 3 s itself. */
export type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

export function digestCommand(deps: SlackDeps) {
  return async ({ command, ack, client, context }: CommandArgs, text: string): Promise<void> => {
    // Only a new digest depends on the creator's zone: nothing else waits on users.info.
    const zone = createsDigest(text)
      ? await deps.zones.zoneOf(client, command.user_id)
      : { zone: 'UTC', fallback: false };
    const zoneFallback = zone.fallback;
    const parsed = parseDigestCommand(text, { now: deps.digests.now(), zone: zone.zone });
    if (parsed instanceof ParseError) {
      await ack({ response_type: 'ephemeral', ...renderError(parsed) });
      return;
    }
    if (parsed.kind === 'help') {
      await ack({ response_type: 'ephemeral', ...renderDigestHelp({ command: command.command }) });
      return;
    }
    await ack();

    const reply = new ResponseUrl(command.response_url, deps.slack.fetch, deps.logger);
    const botUserId = context.botUserId;
    const request: CommandRequest = {
      deps,
      args: { command, client },
      reply,
      text,
      zoneFallback,
      caller: { teamId: command.team_id, userId: command.user_id },
      ...defined({ botUserId }),
    };
    await deps.inFlight.track(answer(request, parsed));
  };
}

interface CommandRequest {
  readonly deps: SlackDeps;
  readonly args: Pick<SlackCommandMiddlewareArgs & AllMiddlewareArgs, 'command' | 'client'>;
  readonly reply: ResponseUrl;
  readonly text: string;
  readonly zoneFallback: boolean;
  readonly caller: DigestCaller;
  readonly botUserId?: string;
}

/** Slack's side of a digest command: answers through response_url, ephemerally; never throws. */
async function answer(
  request: CommandRequest,
  parsed: Exclude<DigestCommand, { kind: 'help' }>,
): Promise<void> {
  const { deps, reply, caller, args } = request;
  const { manager, logger, now } = deps.digests;
  const { command, client } = args;
  await answerDigestCommand(
    {
      manager,
      logger,
      now,
      caller,
      channelId: command.channel_id,
      directMessage: () => directMessageFor(client, caller.userId),
      access: slackDigestAccess(
        client,
        deps.admins,
        { id: command.channel_id, name: command.channel_name },
        logger,
      ),
      commandName: command.command,
      ...defined({ botUserId: request.botUserId }),
    },
    parsed,
    (message, replace = false) =>
      reply.send({
        response_type: 'ephemeral',
        ...(replace ? { replace_original: true } : {}),
        ...message,
      }),
    request.zoneFallback ? (created) => secondZoneChance(request, created) : undefined,
  );
}

/**
 * The DM a watch of one account posts to; when Slack will not open it, the words a channel the app
 * cannot post in gets.
 */
async function directMessageFor(client: CommandArgs['client'], userId: string): Promise<string> {
  try {
    return await directMessageWith(client, userId);
  } catch (error) {
    throw new ChannelUnreachableError(userId, 'direct_message', { cause: error });
  }
}

/** The ack could not wait longer for users.info; after it there is time for a second chance. */
async function secondZoneChance(
  request: CommandRequest,
  parsed: Extract<DigestCommand, { kind: 'create' }>,
): Promise<Pick<Extract<DigestCommand, { kind: 'create' }>, 'spec' | 'notes'>> {
  const { deps, args, caller } = request;
  const zone = await deps.zones.zoneOf(args.client, caller.userId);
  const again = zone.fallback
    ? undefined
    : parseDigestCommand(request.text, { now: deps.digests.now(), zone: zone.zone });
  if (again !== undefined && !(again instanceof ParseError) && again.kind === 'create') {
    return { spec: again.spec, notes: again.notes };
  }
  if (parsed.spec.zone === 'UTC' && !/\bin\s+utc\b/i.test(request.text)) {
    return { spec: parsed.spec, notes: [...parsed.notes, digestUtcFallbackNote] };
  }
  return parsed;
}
