/**
 * A lookup as a Slack listener runs it: the plan read in the person's Slack zone, then the pending
 * post replaced by the answer. Shared by the slash command, DMs, mentions and the lookup modal.
 */
import type { WebClient } from '@slack/web-api';
import type { CsvFile, LookupPlan } from '../../flows/lookup.ts';
import { defined } from '../../model/defined.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import type { SlackDeps } from '../deps.ts';
import { slackFailure } from '../web-api/client.ts';
import {
  type Conversation,
  mayHaveLanded,
  postInConversation,
  updateInConversation,
} from '../web-api/conversation.ts';
import { sendExport } from './exports.ts';

/**
 * What `text` asks for, read in the person's Slack zone. Usage requests need no zone, so they do
 * not wait on users.info.
 */
export async function planFor(
  deps: SlackDeps,
  client: WebClient,
  userId: string,
  text: string,
  command?: string,
): Promise<LookupPlan> {
  const zone = deps.flow.asksForUsage(text)
    ? { zone: 'UTC', fallback: false }
    : await deps.zones.zoneOf(client, userId);
  return deps.flow.plan(text, {
    zone: zone.zone,
    zoneFallback: zone.fallback,
    ...defined({ command }),
  });
}

/**
 * Posts `pending` where the person will read the answer, then replaces it with the answer. Used by
 * DMs, mentions and the Home tab's modal (whose answer arrives as a DM). A lookup that asks for
 * an export sends its CSV file to the same place afterwards (a mention's into its thread). Posts go through the
 * client without automatic retries: a post retried after a timeout or a 5xx may appear twice.
 * When the pending post's fate is unknown, or the answer cannot replace it (deleted, too long,
 * Slack failing), the answer is posted as a new message, once.
 */
export async function deliverLookup(
  deps: SlackDeps,
  where: Conversation,
  request: LookupRequest,
  pendingMessage: SlackMessage,
  note: string | undefined,
): Promise<void> {
  const post = (message: SlackMessage) =>
    postInConversation(deps.chat, where, message, deps.logger);
  let ts: string | undefined;
  try {
    ts = (await post(pendingMessage)).ts;
  } catch (error) {
    if (!mayHaveLanded(error)) throw error;
    deps.logger.warn(
      slackFailure(error, 'chat.postMessage'),
      'the pending post may not have reached Slack; the answer will come as a new message',
    );
  }
  const update = (at: string, message: SlackMessage) =>
    updateInConversation(deps.chat, where, at, message, deps.logger);
  const progress = async (message: SlackMessage) => {
    if (ts !== undefined) await update(ts, message);
  };
  const finish = async (message: SlackMessage) => {
    if (ts !== undefined) {
      try {
        await update(ts, message);
        return;
      } catch (error) {
        deps.logger.warn(
          slackFailure(error, 'chat.update'),
          'could not replace the pending post; posting the answer as a new message',
        );
      }
    }
    await post(message);
  };
  const sink = {
    progress,
    finish,
    saveExport: (file: CsvFile) => sendExport(deps, where, file),
    notice: async (message: SlackMessage) => {
      await post(message);
    },
  };
  await deps.inFlight.run((signal) => deps.flow.run(request, sink, { note, signal }));
}
