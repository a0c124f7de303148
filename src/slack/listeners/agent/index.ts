/**
 * Agent messaging (the app's Messages tab, Slack's successor to the assistant pane): the tab
 * opening offers prompts, each question is answered as a streamed reply in its thread, Stop
 * cancels the lookup, and a follow-up in a thread keeps the thread's window and options. A DM
 * whose tab this instance has not seen open is answered as DMs always were.
 */
import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  App,
  Middleware,
  SlackEventMiddlewareArgs,
} from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { type CsvFile, type LookupPlan, stoppedByPerson } from '../../../flows/lookup/index.ts';
import type { LookupRequest } from '../../../model/lookup.ts';
import type { SlackMessage } from '../../../model/message.ts';
import { renderUnderstood } from '../../../render/agent.ts';
import { renderAssistantPrompts } from '../../../render/assistant.ts';
import { sendExport } from '../../delivery/exports.ts';
import { deliverLookup, postAnswer } from '../../delivery/lookup-delivery.ts';
import type { SlackDeps } from '../../deps.ts';
import { requestTeamId } from '../../middleware/team-guard.ts';
import { slackFailure } from '../../web-api/client.ts';
import type { Conversation } from '../../web-api/conversation.ts';
import { typedText } from '../text.ts';
import { AgentConversations } from './conversations.ts';
import { AgentSession, bestEffort, restingStatus, setSessionStatus } from './session.ts';
import { StreamedReply, streamingRefusal } from './stream.ts';

/** A person's message in an agent conversation, as the answer needs it. */
interface AgentMessage {
  readonly channel: string;
  readonly user: string;
  readonly text: string;
  readonly ts: string;
  readonly threadTs: string | undefined;
  readonly teamId: string | undefined;
}

/**
 * The Messages tab opened: the DM is an agent conversation from now on, and it offers up to four
 * prompts, the databases of the person's digests first. Without `thread_ts`: for an agent app
 * Slack ignores prompts set on a thread, silently.
 */
function messagesTabOpened(deps: SlackDeps, conversations: AgentConversations) {
  return async ({
    event,
    body,
    client,
    context,
  }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    if (event.tab !== 'messages') return;
    conversations.tabOpened(event.channel);
    if (!(await deps.seen.firstEvent(body.event_id))) return;
    const teamId = requestTeamId(body) ?? context.teamId;
    const databases = await digestDatabases(deps, teamId, event.user);
    const { title, prompts } = renderAssistantPrompts(databases);
    await bestEffort(deps.logger, 'assistant.threads.setSuggestedPrompts', () =>
      client.assistant.threads.setSuggestedPrompts({
        channel_id: event.channel,
        title,
        prompts: [...prompts],
      }),
    );
  };
}

/** The databases of the person's digests, for the prompts; none when they cannot be read. */
async function digestDatabases(
  deps: SlackDeps,
  teamId: string | undefined,
  userId: string,
): Promise<(readonly string[])[]> {
  if (teamId === undefined) return [];
  try {
    const digests = await deps.digests.manager.listForCreator(teamId, userId);
    return digests.map((digest) => digest.databases);
  } catch (error) {
    deps.logger.warn({ err: error }, "could not read the person's digests for the prompts");
    return [];
  }
}

/**
 * The Stop button: the thread's lookup is cancelled (its service calls stop unless another
 * lookup shares them) and its answer says so, which also moves the session out of `processing`.
 * Slack does not move it by itself: with no lookup running here (one this instance forgot),
 * the session is moved at once.
 */
function sessionStopped(deps: SlackDeps, conversations: AgentConversations) {
  return async ({
    event,
    body,
    client,
  }: SlackEventMiddlewareArgs<'agent_session_stopped'> & AllMiddlewareArgs): Promise<void> => {
    if (!(await deps.seen.firstEvent(body.event_id))) return;
    const stopped = conversations.stop(event.channel, event.thread_ts, stoppedByPerson);
    deps.logger.info(
      { channel: event.channel, running: stopped },
      stopped ? 'stopping a lookup at the person’s request' : 'Stop pressed with no lookup running',
    );
    if (stopped || conversations.sessionsRefused(event.channel)) return;
    await setSessionStatus(
      client,
      deps.logger,
      { channel: event.channel, threadTs: event.thread_ts },
      restingStatus,
    );
  };
}

/**
 * Every message typed in an agent conversation is answered here, before Bolt's assistant and the
 * DM listener see it; anything else (another DM, edits, bot posts) goes on to them.
 */
function agentMessages(
  deps: SlackDeps,
  conversations: AgentConversations,
): Middleware<AnyMiddlewareArgs> {
  return async (args: AnyMiddlewareArgs & AllMiddlewareArgs) => {
    const message = agentMessageOf(args.body, conversations);
    if (message === undefined) {
      await args.next();
      return;
    }
    const eventId = (args.body as { event_id?: unknown }).event_id;
    if (!(await deps.seen.firstEvent(typeof eventId === 'string' ? eventId : undefined))) return;
    const teamId = message.teamId ?? args.context.teamId;
    try {
      await answerAgentMessage(deps, conversations, args.client, { ...message, teamId });
    } catch (error) {
      deps.logger.error(
        { err: error, channel: message.channel },
        'could not answer in an agent conversation',
      );
    }
  };
}

/** The message a person typed in an agent conversation, when `body` delivers one. */
function agentMessageOf(
  body: unknown,
  conversations: AgentConversations,
): AgentMessage | undefined {
  const { type, event } = body as { type?: unknown; event?: Record<string, unknown> };
  if (type !== 'event_callback' || event?.type !== 'message') return undefined;
  if (event.channel_type !== 'im' || event.subtype !== undefined || event.bot_id !== undefined) {
    return undefined;
  }
  const { channel, user, text, ts, thread_ts: threadTs } = event;
  if (typeof channel !== 'string' || typeof user !== 'string' || typeof ts !== 'string') {
    return undefined;
  }
  if (typeof text !== 'string' || !conversations.isAgentConversation(channel)) return undefined;
  return {
    channel,
    user,
    text: typedText(text),
    ts,
    threadTs: typeof threadTs === 'string' ? threadTs : undefined,
    teamId: requestTeamId(body),
  };
}

/** What the text asks for, in the person's zone, a follow-up reading the thread's last lookup. */
async function planInThread(
  deps: SlackDeps,
  client: WebClient,
  message: AgentMessage,
  previous: LookupRequest | undefined,
): Promise<LookupPlan> {
  const zone = await deps.zones.zoneOf(client, message.user);
  return deps.flow.plan(message.text, {
    zone: zone.zone,
    zoneFallback: zone.fallback,
    ...(previous === undefined ? {} : { previous }),
  });
}

/**
 * A question in an agent conversation: answered in its thread (a new message starts one). Usage
 * and refusals are posted; a lookup is streamed, or, where Slack refuses to stream, delivered as
 * DMs always are (a pending post replaced by the answer), the refusal logged once. While a
 * streamed lookup works, the thread's agent session is `processing` (Slack's Stop button shows);
 * the answer, whatever it says, moves it back to `active`.
 */
async function answerAgentMessage(
  deps: SlackDeps,
  conversations: AgentConversations,
  client: WebClient,
  message: AgentMessage,
): Promise<void> {
  const threadTs = message.threadTs ?? message.ts;
  const where: Conversation = { channel: message.channel, threadTs };
  const memory = conversations.thread(message.channel, threadTs);
  const plan = await planInThread(deps, client, message, memory.previous);
  if (plan.kind !== 'lookup') {
    await postAnswer(deps, where, plan.message);
    return;
  }
  const { request, note } = plan;
  conversations.remember(message.channel, threadTs, { previous: request, titled: true });
  const asToday: Conversation = {
    channel: message.channel,
    ...(message.threadTs === undefined ? {} : { threadTs: message.threadTs }),
  };
  if (conversations.streamingRefused(message.channel)) {
    await deliverLookup(deps, asToday, request, plan.pending, note);
    return;
  }
  const session = await AgentSession.begin(
    client,
    deps.logger,
    conversations,
    { channel: message.channel, threadTs, titled: memory.titled },
    request,
    deps.flow.now(),
  );
  const target = {
    channel: message.channel,
    threadTs,
    userId: message.user,
    teamId: message.teamId,
  };
  let reply: StreamedReply;
  try {
    reply = await StreamedReply.open(
      deps.chat,
      target,
      renderUnderstood(request, deps.flow.now(), note),
      deps.logger,
    );
  } catch (error) {
    const refusal = streamingRefusal(error);
    if (refusal !== undefined) {
      conversations.refuseStreaming(message.channel, refusal);
      deps.logger.warn(
        { method: 'chat.startStream', reason: refusal, channel: message.channel },
        'Slack does not stream answers here; answering with plain posts',
      );
    } else {
      deps.logger.warn(
        slackFailure(error, 'chat.startStream'),
        'could not start a streamed answer; answering with a plain post',
      );
    }
    await session.end();
    await deliverLookup(deps, asToday, request, plan.pending, note);
    return;
  }
  const sink = {
    progress: async () => {},
    finish: async (answer: SlackMessage) => {
      try {
        await reply.finish(answer, session.stopArguments());
        session.endedWithStream();
      } catch (error) {
        deps.logger.warn(
          slackFailure(error, 'chat.stopStream'),
          'could not end a streamed answer; posting the answer instead',
        );
        await postAnswer(deps, where, answer);
        await session.end();
      }
    },
    saveExport: (file: CsvFile) => sendExport(deps, where, file),
    notice: (notice: SlackMessage) => postAnswer(deps, where, notice),
  };
  const running = conversations.start(message.channel, threadTs);
  try {
    await deps.inFlight.run((shutdown) =>
      deps.flow.run(request, sink, {
        note,
        signal: AbortSignal.any([shutdown, running.signal]),
        watch: reply.watch(deps.flow.now()),
      }),
    );
  } finally {
    running.release();
    await session.end();
  }
}

/**
 * Registers the agent conversation's middleware (before the assistant pane's, so its messages
 * reach it first), the Messages tab opening and the Stop button.
 */
export function register(app: App, deps: SlackDeps): void {
  const conversations = new AgentConversations();
  app.use(agentMessages(deps, conversations));
  app.event('app_home_opened', messagesTabOpened(deps, conversations));
  app.event('agent_session_stopped', sessionStopped(deps, conversations));
}
