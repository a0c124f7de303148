import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { LookupPlan } from '../../../flows/lookup.ts';
import { defined } from '../../../model/defined.ts';
import type { LookupRequest } from '../../../model/lookup.ts';
import type { SlackMessage } from '../../../model/message.ts';
import type { SlackDeps } from '../../deps.ts';
import { typedText } from '../../support/text.ts';
import { withRateLimitRetry } from '../../web-api/client.ts';

export interface Conversation {
  readonly channel: string;
  /**
   * Set for mentions and for DMs typed in a thread: every message of the answer goes into that
   * thread.
   */
  readonly threadTs?: string;
}

/**
 * chat.postMessage for someone waiting on the answer: a 429 (Slack's per-channel pace) is waited
 * out once, briefly; a second one is thrown for the caller to log.
 */
export function postInConversation(
  client: WebClient,
  where: Conversation,
  message: SlackMessage,
): Promise<{ ts?: string | undefined }> {
  const thread = where.threadTs === undefined ? {} : { thread_ts: where.threadTs };
  return withRateLimitRetry(() =>
    client.chat.postMessage({ channel: where.channel, ...thread, ...message }),
  );
}

/**
 * Answers `text` in a conversation the bot can post to: posts what is being looked up, then
 * replaces that post with the answer (chat.update), so the person sees one message evolve.
 */
async function answerInConversation(
  deps: SlackDeps,
  client: WebClient,
  where: Conversation,
  userId: string,
  text: string,
): Promise<void> {
  const plan = await planFor(deps, client, userId, text);
  if (plan.kind !== 'lookup') {
    await postInConversation(client, where, plan.message);
    return;
  }
  await deliverLookup(deps, client, where, plan.request, plan.pending, plan.note);
}

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

/**
 * A message in the bot's DM: the same text as after `/influencers`. Only plain messages a person
 * typed are answered: edits, deletions, bot posts and other subtypes are ignored, and Slack's
 * redeliveries of one event are answered once.
 */
export function directMessage(deps: SlackDeps) {
  return async ({
    event,
    body,
    client,
  }: SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs): Promise<void> => {
    if (event.channel_type !== 'im' || event.subtype !== undefined) return;
    if (event.bot_id !== undefined || event.user === undefined) return;
    if (!deps.seenEvents.firstTime(body.event_id)) return;
    try {
      const thread = event.thread_ts === undefined ? {} : { threadTs: event.thread_ts };
      await answerInConversation(
        deps,
        client,
        { channel: event.channel, ...thread },
        event.user,
        typedText(event.text),
      );
    } catch (error) {
      deps.logger.error(
        { err: error, channel: event.channel },
        'could not answer a direct message',
      );
    }
  };
}

/** `@bot #hcsm yesterday` in a channel: answered in a thread under the mention, visible to all. */
export function appMention(deps: SlackDeps) {
  return async ({
    event,
    body,
    client,
    context,
  }: SlackEventMiddlewareArgs<'app_mention'> & AllMiddlewareArgs): Promise<void> => {
    if (event.subtype !== undefined || event.bot_id !== undefined || event.user === undefined)
      return;
    if (!deps.seenEvents.firstTime(body.event_id)) return;
    const text = typedText(event.text, context.botUserId);
    try {
      await answerInConversation(
        deps,
        client,
        { channel: event.channel, threadTs: event.thread_ts ?? event.ts },
        event.user,
        text,
      );
    } catch (error) {
      deps.logger.error({ err: error, channel: event.channel }, 'could not answer a mention');
    }
  };
}

export function register(app: App, deps: SlackDeps): void {
  app.event('message', directMessage(deps));
  app.event('app_mention', appMention(deps));
}
