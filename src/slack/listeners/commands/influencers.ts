import type { AllMiddlewareArgs, App, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { slashCommand } from '../../../model/commands.ts';
import type { SlackMessage } from '../../../model/message.ts';
import type { SlackDeps } from '../../deps.ts';
import { firstWord, typedText } from '../../support/text.ts';
import { ResponseUrl } from '../../web-api/response-url.ts';
import { planFor } from '../events/messages.ts';

/**
 * `/influencers ...`: acks within Slack's 3 s with what is being looked up (or the usage, or the
 * parse error, ephemerally), then replaces that message through response_url with the answer.
 * Verbs registered by other modules (`digest`, `digests`) are routed to them first.
 */
export function influencersCommand(deps: SlackDeps) {
  return async (args: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    const { command, ack, client } = args;
    const text = typedText(command.text);
    const { word, rest } = firstWord(text);
    const subcommand = deps.extensions.subcommands.get(word.toLowerCase());
    if (subcommand !== undefined) {
      await subcommand(args, rest);
      return;
    }

    const plan = await planFor(deps, client, command.user_id, text, command.command);
    if (plan.kind !== 'lookup') {
      await ack({ response_type: 'ephemeral', ...plan.message });
      return;
    }
    await ack({ response_type: 'ephemeral', ...plan.pending });

    const channel = new ResponseUrl(command.response_url, deps.fetch, deps.logger);
    const replace = async (message: SlackMessage) => {
      await channel.send({ response_type: 'ephemeral', replace_original: true, ...message });
    };
    await deps.inFlight.track(
      deps.flow.run(
        plan.request,
        { progress: replace, finish: replace },
        { shareable: true, note: plan.note, signal: deps.inFlight.signal },
      ),
    );
  };
}

export function register(app: App, deps: SlackDeps): void {
  app.command(slashCommand, influencersCommand(deps));
}
