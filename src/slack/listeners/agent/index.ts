/**
 * Agent messaging (the app's Messages tab, Slack's successor to the assistant pane): the tab
 * opening offers prompts, each question is answered as a streamed reply in its thread, Stop
 * cancels the lookup whichever instance runs it, and a follow-up in a thread keeps the thread's
 * window and options. A DM whose tab no instance sharing the store has seen open is answered as
 * DMs always were.
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
import { renderUnderstood } from '../../../render/lookups/agent.ts';
import { renderAssistantPrompts } from '../../../render/lookups/assistant.ts';
import { sendExport } from '../../delivery/exports.ts';
import { deliverLookup, postAnswer } from '../../delivery/lookup-delivery.ts';
import type { SlackDeps } from '../../deps.ts';
import { requestTeamId } from '../../middleware/team-guard.ts';
import { slackFailure } from '../../web-api/client.ts';
import type { Reply } from '../../web-api/conversation.ts';
import { typedText } from '../text.ts';
import { AgentConversations } from './conversations.ts';
import { AgentLookups } from './lookups.ts';
import { AgentSession, bestEffort, restingStatus, setSessionStatus } from './session.ts';
import { StreamedReply, streamingRefusal, streamStoppedBySlack } from './stream.ts';

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
    await conversations.tabOpened(event.channel);
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

/** What the Stop listener logs for where it found the lookup. */
const stopLogs = {
  here: 'stopping a lookup at the person’s request',
  elsewhere: 'passing Stop on to the instance running the lookup',
  none: 'Stop pressed with no lookup running',
} as const;

/**
 * The Stop button: the thread's lookup is cancelled, here or on the instance running it (its
 * service calls stop unless another lookup shares them), and its answer says so, which also moves
 * the session out of `processing`. Slack does not move it by itself: with no lookup running on
 * any instance (one of an instance that died), the session is moved at once.
 */
function sessionStopped(deps: SlackDeps, conversations: AgentConversations, lookups: AgentLookups) {
  return async ({
    event,
    body,
    client,
  }: SlackEventMiddlewareArgs<'agent_session_stopped'> & AllMiddlewareArgs): Promise<void> => {
    if (!(await deps.seen.firstEvent(body.event_id))) return;
    const reach = await lookups.stop(event.channel, event.thread_ts);
    deps.logger.info({ channel: event.channel, running: reach }, stopLogs[reach]);
    const workspace = requestTeamId(body) ?? event.channel;
    if (reach !== 'none' || conversations.sessionsRefused(workspace)) return;
    await setSessionStatus(
      client,
      deps.logger,
      { channel: event.channel, threadTs: event.thread_ts },
      restingStatus,
    );
  };
}

/**
 * The person renamed a thread's session in Slack: the thread counts as titled from now on, on
 * every instance and after a restart, so no later lookup renames it back to the app's title.
 */
function sessionRenamed(deps: SlackDeps, conversations: AgentConversations) {
  return async ({
    event,
    body,
  }: SlackEventMiddlewareArgs<'agent_session_title_changed'> &
    AllMiddlewareArgs): Promise<void> => {
    if (!(await deps.seen.firstEvent(body.event_id))) return;
    await conversations.titled(event.channel, event.thread_ts);
  };
}

/**
 * Every message typed in an agent conversation is answered here, before Bolt's assistant and the
 * DM listener see it; anything else (another DM, edits, bot posts) goes on to them.
 */
function agentMessages(
  deps: SlackDeps,
  conversations: AgentConversations,
  lookups: AgentLookups,
): Middleware<AnyMiddlewareArgs> {
  return async (args: AnyMiddlewareArgs & AllMiddlewareArgs) => {
    const message = directMessageOf(args.body);
    if (message === undefined || !(await conversations.isAgentConversation(message.channel))) {
      await args.next();
      return;
    }
    const eventId = (args.body as { event_id?: unknown }).event_id;
    if (!(await deps.seen.firstEvent(typeof eventId === 'string' ? eventId : undefined))) return;
    const teamId = message.teamId ?? args.context.teamId;
    try {
      await answerAgentMessage(deps, { conversations, lookups }, args.client, {
        ...message,
        teamId,
      });
    } catch (error) {
      deps.logger.error(
        { err: error, channel: message.channel },
        'could not answer in an agent conversation',
      );
    }
  };
}

/** The message a person typed in a DM, when `body` delivers one. */
function directMessageOf(body: unknown): AgentMessage | undefined {
  const { type, event } = body as { type?: unknown; event?: Record<string, unknown> };
  if (type !== 'event_callback' || event?.type !== 'message') return undefined;
  if (event.channel_type !== 'im' || event.subtype !== undefined || event.bot_id !== undefined) {
    return undefined;
  }
  const { channel, user, text, ts, thread_ts: threadTs } = event;
  if (typeof channel !== 'string' || typeof user !== 'string' || typeof ts !== 'string') {
    return undefined;
  }
  if (typeof text !== 'string') return undefined;
  return {
    channel,
    user,
    text: typedText(text),
    ts,
    threadTs: typeof threadTs === 'string' ? threadTs : undefined,
    teamId: requestTeamId(body),
  };
}

/** What the text asks for, in the person's zone and locale, a follow-up reading the thread's last lookup. */
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
    ...(zone.locale === undefined ? {} : { locale: zone.locale }),
  });
}

/** Logged when the person's Stop ended a streamed answer on Slack's side. */
const stoppedBySlackLog =
  'Slack stopped the streamed answer at the person’s Stop; nothing more is sent';

/** The parts of the agent conversation `register` builds once. */
interface Agent {
  readonly conversations: AgentConversations;
  readonly lookups: AgentLookups;
}

/** A lookup to stream in an agent thread, and how to answer it where streaming fails. */
interface ThreadLookup {
  readonly message: AgentMessage;
  readonly threadTs: string;
  readonly titled: boolean;
  readonly request: LookupRequest;
  readonly note: string | undefined;
  readonly pending: SlackMessage;
  /** Where the answer goes as DMs always got theirs: the message's own thread, if any. */
  readonly asToday: Reply;
}

/**
 * A question in an agent conversation: answered in its thread (a new message starts one). Usage
 * and refusals are posted; a lookup is streamed, or, where Slack refuses to stream, delivered as
 * DMs always are (a pending post replaced by the answer), the refusal logged once. A streamed
 * lookup is recorded for Stop before its session shows Slack's Stop button.
 */
async function answerAgentMessage(
  deps: SlackDeps,
  { conversations, lookups }: Agent,
  client: WebClient,
  message: AgentMessage,
): Promise<void> {
  const threadTs = message.threadTs ?? message.ts;
  const where: Reply = { teamId: message.teamId, channel: message.channel, threadTs };
  const memory = await conversations.thread(message.channel, threadTs);
  const plan = await planInThread(deps, client, message, memory.previous);
  if (plan.kind !== 'lookup') {
    await postAnswer(deps, where, plan.message);
    return;
  }
  const { request, note, pending } = plan;
  await conversations.remember(message.channel, threadTs, { previous: request, titled: true });
  const asToday: Reply = {
    teamId: message.teamId,
    channel: message.channel,
    ...(message.threadTs === undefined ? {} : { threadTs: message.threadTs }),
  };
  if (conversations.streamingRefused(message.channel)) {
    await deliverLookup(deps, asToday, request, pending, note);
    return;
  }
  const running = await lookups.start(message.channel, threadTs);
  try {
    await streamLookup(
      deps,
      conversations,
      client,
      { message, threadTs, titled: memory.titled, request, note, pending, asToday },
      running.signal,
    );
  } finally {
    await running.release();
  }
}

/**
 * Streams the lookup's answer in its thread until it ends or `stopped` aborts. While it works, the
 * thread's agent session is `processing` (Slack's Stop button shows); the answer, whatever it
 * says, moves it back to `active`.
 */
async function streamLookup(
  deps: SlackDeps,
  conversations: AgentConversations,
  client: WebClient,
  lookup: ThreadLookup,
  stopped: AbortSignal,
): Promise<void> {
  const { message, threadTs, request, note } = lookup;
  const where: Reply = { teamId: message.teamId, channel: message.channel, threadTs };
  const session = await AgentSession.begin(
    client,
    deps.logger,
    conversations,
    {
      channel: message.channel,
      threadTs,
      titled: lookup.titled,
      workspace: message.teamId ?? message.channel,
    },
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
      deps.slack.forTeam(message.teamId).chat,
      target,
      renderUnderstood(request, deps.flow.now(), note),
      deps.logger,
      deps.sleep,
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
    await deliverLookup(deps, lookup.asToday, request, lookup.pending, note);
    return;
  }
  const sink = {
    progress: async () => {},
    finish: async (answer: SlackMessage) => {
      try {
        const end = await reply.finish(answer, session.stopArguments());
        if (end === 'closed') {
          session.endedWithStream();
          return;
        }
        deps.logger.info({ channel: message.channel }, stoppedBySlackLog);
      } catch (error) {
        // Slack stopped the stream at the person's Stop: the message stays as it is, and the
        // closing answer is not posted beside it.
        if (stopped.aborted && streamStoppedBySlack(error)) {
          deps.logger.info({ channel: message.channel }, stoppedBySlackLog);
          return;
        }
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
  try {
    await deps.inFlight.run((shutdown) =>
      deps.flow.run(request, sink, {
        note,
        signal: AbortSignal.any([shutdown, stopped]),
        watch: reply.watch(deps.flow.now()),
      }),
    );
  } finally {
    await session.end();
  }
}

/**
 * Registers the agent conversation's middleware (before the assistant pane's, so its messages
 * reach it first), the Messages tab opening, the Stop button and sessions renamed by the person. What makes a DM an agent
 * conversation lives in the digest store, which opens before the app listens.
 */
export function register(app: App, deps: SlackDeps): void {
  const state = () => deps.digests.database.agentState;
  const now = () => deps.flow.now();
  const logger = deps.logger;
  const conversations = new AgentConversations({ state, logger, now });
  const lookups = new AgentLookups({
    state,
    logger,
    now,
    reason: stoppedByPerson,
    ...(deps.stopPoll === undefined ? {} : { poll: deps.stopPoll }),
  });
  app.use(agentMessages(deps, conversations, lookups));
  app.event('app_home_opened', messagesTabOpened(deps, conversations));
  app.event('agent_session_stopped', sessionStopped(deps, conversations, lookups));
  app.event('agent_session_title_changed', sessionRenamed(deps, conversations));
}
