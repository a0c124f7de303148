import type { CsvFile } from '../../../flows/lookup.ts';
import type { SlackMessage } from '../../../model/message.ts';
import type { SlackDeps } from '../../deps.ts';
import { sendExport } from '../../support/exports.ts';
import { planFor } from '../../support/lookup-delivery.ts';
import { firstWord, typedText } from '../../support/text.ts';
import { ResponseUrl } from '../../web-api/response-url.ts';
import { type CommandArgs, digestCommand } from './digest.ts';

/** The first words that make `/influencers …` a digest command rather than a lookup. */
const digestWords: ReadonlySet<string> = new Set(['digest', 'digests', 'watch']);

/**
 * `/influencers ...`: acks within Slack's 3 s with what is being looked up (or the usage, or the
 * parse error, ephemerally), then replaces that message through response_url with the answer; an
 * export's CSV file goes to the person's DM with the app.
 * `digest …`, `digests` and `watch …` are digest commands.
 */
export function influencersCommand(deps: SlackDeps) {
  const digest = digestCommand(deps);
  return async (args: CommandArgs): Promise<void> => {
    const { command, ack, client } = args;
    const text = typedText(command.text);
    if (digestWords.has(firstWord(text).word.toLowerCase())) {
      await digest(args, text);
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
    const sink = {
      progress: replace,
      finish: replace,
      // The answer is ephemeral: its file goes to the person's DM with the app.
      saveExport: (file: CsvFile) => sendExport(deps, { channel: command.user_id }, file),
      notice: async (message: SlackMessage) => {
        await channel.send({ response_type: 'ephemeral', replace_original: false, ...message });
      },
    };
    await deps.inFlight.run((signal) =>
      deps.flow.run(plan.request, sink, { shareable: true, note: plan.note, signal }),
    );
  };
}
