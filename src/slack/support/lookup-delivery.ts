/**
 * A lookup as a Slack listener runs it: the plan read in the person's Slack zone, then the pending
 * post replaced by the answer. Shared by the slash command, DMs, mentions and the lookup modal.
 */
import type { WebClient } from '@slack/web-api';
import type { LookupPlan } from '../../flows/lookup.ts';
import { defined } from '../../model/defined.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import type { SlackDeps } from '../deps.ts';
import { withRateLimitRetry } from '../web-api/client.ts';
import { type Conversation, postInConversation } from '../web-api/conversation.ts';

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
 * DMs, mentions and the Home tab's modal (whose answer arrives as a DM).
 */
export async function deliverLookup(
  deps: SlackDeps,
  client: WebClient,
  where: Conversation,
  request: LookupRequest,
  pendingMessage: SlackMessage,
  note: string | undefined,
): Promise<void> {
  const post = (message: SlackMessage) => postInConversation(client, where, message);
  const pending = await post(pendingMessage);
  const ts = pending.ts;
  const update = async (message: SlackMessage) => {
    if (ts === undefined) await post(message);
    else
      await withRateLimitRetry(() =>
        client.chat.update({ channel: where.channel, ts, ...message }),
      );
  };
  await deps.inFlight.track(
    deps.flow.run(
      request,
      { progress: update, finish: update },
      { note, signal: deps.inFlight.signal },
    ),
  );
}
