/**
 * `/influencers conference …`. The ack carries only what needs nothing slow (the help, a grammar
 * error); everything that reads the store or asks Slack answers after it through response_url,
 * ephemerally.
 */
import { ParseError } from '../../../errors.ts';
import { answerConferenceCommand } from '../../../flows/conference-commands.ts';
import { defined } from '../../../model/defined.ts';
import {
  type ConferenceCommand,
  createsConference,
  parseConferenceCommand,
} from '../../../parsing/conference.ts';
import { renderError } from '../../../render/errors.ts';
import { renderConferenceHelp } from '../../../render/management/conference-management.ts';
import type { SlackDeps } from '../../deps.ts';
import { slackDigestAccess } from '../../web-api/digest-access.ts';
import { ResponseUrl } from '../../web-api/response-url.ts';
import type { CommandArgs } from './digest.ts';

/** Conferences need the store; until it opens they are not offered. */
const notReady = 'Conferences are not available right now; try again in a minute.';

export function conferenceCommand(deps: SlackDeps) {
  return async ({ command, ack, client, context }: CommandArgs, text: string): Promise<void> => {
    const zone = createsConference(text)
      ? await deps.zones.zoneOf(client, command.user_id)
      : { zone: 'UTC', fallback: false };
    const parsed = parseConferenceCommand(text, { now: deps.digests.now(), zone: zone.zone });
    if (parsed instanceof ParseError) {
      await ack({ response_type: 'ephemeral', ...renderError(parsed) });
      return;
    }
    if (parsed.kind === 'help') {
      await ack({ response_type: 'ephemeral', ...renderConferenceHelp(command.command) });
      return;
    }
    const manager = deps.digests.conferences;
    if (manager === undefined) {
      await ack({ response_type: 'ephemeral', text: notReady });
      return;
    }
    await ack();
    const reply = new ResponseUrl(command.response_url, deps.slack.fetch, deps.logger);
    const { logger, now } = deps.digests;
    const answer = async () =>
      answerConferenceCommand(
        {
          manager,
          logger,
          now,
          caller: { teamId: command.team_id, userId: command.user_id },
          channelId: command.channel_id,
          access: slackDigestAccess(
            client,
            deps.admins,
            { id: command.channel_id, name: command.channel_name },
            logger,
          ),
          commandName: command.command,
          ...defined({ botUserId: context.botUserId }),
        },
        zone.fallback
          ? await secondZoneChance(deps, client, command.user_id, text, parsed)
          : parsed,
        (message) => reply.send({ response_type: 'ephemeral', ...message }),
      );
    await deps.inFlight.track(answer());
  };
}

/**
 * The ack could not wait longer for users.info, so the days were read in UTC; after the ack there
 * is time to ask again and read them in the person's zone (a zone the text names wins either way).
 */
async function secondZoneChance(
  deps: SlackDeps,
  client: CommandArgs['client'],
  userId: string,
  text: string,
  parsed: ConferenceCommand,
): Promise<ConferenceCommand> {
  const zone = await deps.zones.zoneOf(client, userId);
  if (zone.fallback) return parsed;
  const again = parseConferenceCommand(text, { now: deps.digests.now(), zone: zone.zone });
  return again instanceof ParseError ? parsed : again;
}
