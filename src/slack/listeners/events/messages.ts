import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { subcommandOf } from '../../../parsing/subcommands.ts';
import { deliverLookup, planFor, postAnswer } from '../../delivery/lookup-delivery.ts';
import type { SlackDeps } from '../../deps.ts';
import type { Reply } from '../../web-api/conversation.ts';
import { planInDirectMessage } from '../follow-ups.ts';
import { typedText } from '../text.ts';
import { answerDigestInDirectMessage } from './digest-dm.ts';

/**
 * Answers `text` in a conversation the bot can post to: posts what is being looked up, then
 * replaces that post with the answer (chat.update), so the person sees one message evolve. In a
 * DM (`direct`), a follow-up keeps the DM's last question.
 */
export async function answerInConversation(
  deps: SlackDeps,
  client: WebClient,
  where: Reply,
  userId: string,
  text: string,
  direct = false,
): Promise<void> {
  const plan = direct
    ? await planInDirectMessage(deps, client, where.channel, userId, text)
    : await planFor(deps, client, userId, text);
  if (plan.kind !== 'lookup') {
    await postAnswer(deps, where, plan.message);
    return;
  }
  await deliverLookup(deps, where, plan.request, plan.pending, plan.note);
}

/**
 * A message in the bot's DM: the same text as after `/influencers`, a follow-up (`how about
 * #lcsm?`) keeping the DM's last question for half an hour; a digest command is answered
 * there too, and a digest created there is delivered there. Only plain messages a person
 * typed are answered: edits, deletions, bot posts, other subtypes and messages whose `text` is not
 * a string are ignored, and Slack's redeliveries of one event are answered once.
 */
export function directMessage(deps: SlackDeps) {
  return async ({
    event,
    body,
    client,
  }: SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs): Promise<void> => {
    if (event.channel_type !== 'im' || event.subtype !== undefined) return;
    if (event.bot_id !== undefined || event.user === undefined) return;
    if (typeof event.text !== 'string') return;
    if (!(await deps.seen.firstEvent(body.event_id))) return;
    try {
      const thread = event.thread_ts === undefined ? {} : { threadTs: event.thread_ts };
      const teamId = typeof body.team_id === 'string' ? body.team_id : undefined;
      const where = { teamId, channel: event.channel, ...thread };
      const text = typedText(event.text);
      if (subcommandOf(text, { conversation: true }) === 'digest' && typeof teamId === 'string') {
        await answerDigestInDirectMessage(
          deps,
          client,
          where,
          { teamId, userId: event.user },
          text,
        );
        return;
      }
      await answerInConversation(deps, client, where, event.user, text, true);
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
    if (typeof event.text !== 'string') return;
    if (!(await deps.seen.firstEvent(body.event_id))) return;
    const text = typedText(event.text, context.botUserId);
    try {
      await answerInConversation(
        deps,
        client,
        {
          teamId: context.teamId,
          channel: event.channel,
          threadTs: event.thread_ts ?? event.ts,
        },
        event.user,
        text,
      );
    } catch (error) {
      deps.logger.error({ err: error, channel: event.channel }, 'could not answer a mention');
    }
  };
}
