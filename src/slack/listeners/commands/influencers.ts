import { subcommandOf } from '../../../parsing/subcommands.ts';
import { answerLater, planFor } from '../../delivery/lookup-delivery.ts';
import type { SlackDeps } from '../../deps.ts';
import { typedText } from '../text.ts';
import { conferenceCommand } from './conference.ts';
import { type CommandArgs, digestCommand } from './digest.ts';

/**
 * `/influencers ...`: acks within Slack's 3 s with what is being looked up (or the usage, or the
 * parse error, ephemerally), then replaces that message through response_url with the answer; the
 * lookup goes on after the listener has returned (see {@link answerLater}). An export's CSV file
 * goes to the person's DM with the app.
 * `digest …`, `digests` and `watch …` are digest commands; `conference …` a conference command
 * (the words of `subcommands.ts`); help and the rest get the usage from the lookup flow.
 */
export function influencersCommand(deps: SlackDeps) {
  const digest = digestCommand(deps);
  const conference = conferenceCommand(deps);
  return async (args: CommandArgs): Promise<void> => {
    const { command, ack, client } = args;
    const text = typedText(command.text);
    const subcommand = subcommandOf(text);
    if (subcommand === 'conference') {
      await conference(args, text);
      return;
    }
    if (subcommand === 'digest') {
      await digest(args, text);
      return;
    }

    const plan = await planFor(deps, client, command.user_id, text, command.command);
    if (plan.kind !== 'lookup') {
      await ack({ response_type: 'ephemeral', ...plan.message });
      return;
    }
    await ack({ response_type: 'ephemeral', ...plan.pending });
    const { request, note } = plan;
    void answerLater(deps, {
      responseUrl: command.response_url,
      userId: command.user_id,
      teamId: command.team_id,
      request,
      note,
    });
  };
}
