import {
  type App,
  Assistant,
  type AssistantThreadContextChangedMiddleware,
  type AssistantThreadStartedMiddleware,
  type AssistantUserMessageMiddleware,
} from '@slack/bolt';
import type { CsvFile } from '../../../flows/lookup/index.ts';
import type { SlackMessage } from '../../../model/message.ts';
import {
  renderAssistantPrompts,
  renderAssistantStatus,
  renderAssistantTitle,
} from '../../../render/lookups/assistant.ts';
import { sendExport } from '../../delivery/exports.ts';
import { postAnswer } from '../../delivery/lookup-delivery.ts';
import type { SlackDeps } from '../../deps.ts';
import { slackFailure } from '../../web-api/client.ts';
import type { Reply } from '../../web-api/conversation.ts';
import { answerInConversation } from '../events/messages.ts';
import { planInDirectMessage } from '../follow-ups.ts';
import { typedText } from '../text.ts';
import { AssistantThreads } from './threads.ts';

/** The databases of each digest of `channelId`, for the prompts; none when they cannot be read. */
async function digestDatabases(
  deps: SlackDeps,
  teamId: string | undefined,
  channelId: string | undefined,
): Promise<(readonly string[])[]> {
  if (teamId === undefined || channelId === undefined) return [];
  try {
    const digests = await deps.digests.manager.listForChannel(teamId, channelId);
    return digests.map((digest) => digest.databases);
  } catch (error) {
    deps.logger.warn({ err: error }, "could not read the channel's digests for the prompts");
    return [];
  }
}

/**
 * A new thread in the assistant pane: its context remembered, then up to four prompts, the
 * digests' databases first when the pane was opened beside a channel that has digests.
 */
function threadStarted(deps: SlackDeps): AssistantThreadStartedMiddleware {
  return async ({ event, body, context, saveThreadContext, setSuggestedPrompts }) => {
    if (!(await deps.seen.firstEvent(body.event_id))) return;
    const opened = event.assistant_thread.context;
    try {
      await saveThreadContext();
      const databases = await digestDatabases(
        deps,
        opened.team_id ?? context.teamId,
        opened.channel_id,
      );
      const { title, prompts } = renderAssistantPrompts(databases);
      await setSuggestedPrompts({ title, prompts: [...prompts] });
    } catch (error) {
      deps.logger.warn(
        slackFailure(error, 'assistant.threads.setSuggestedPrompts'),
        'could not offer prompts in a new assistant thread',
      );
    }
  };
}

/** The person moved to another channel with the pane open: the thread's context follows. */
function threadContextChanged(deps: SlackDeps): AssistantThreadContextChangedMiddleware {
  return async ({ saveThreadContext }) => {
    try {
      await saveThreadContext();
    } catch (error) {
      deps.logger.warn({ err: error }, 'could not keep an assistant thread’s context');
    }
  };
}

/**
 * A message in a thread of the app's DM. Bolt hands every one to the assistant, so a thread this
 * instance did not see open in the pane is answered as a DM thread always was. A question typed
 * in an assistant thread is read as in a DM, in the person's zone. While the
 * service works the thread shows Slack's own status line (no "still looking" post); the answer,
 * with its buttons, is posted in the thread and clears it. The thread is titled after its first
 * lookup. Slack's redeliveries of one message are answered once.
 */
function userMessage(deps: SlackDeps, threads: AssistantThreads): AssistantUserMessageMiddleware {
  return async ({ message, body, client, setStatus, setTitle }) => {
    if (message.subtype !== undefined || message.bot_id !== undefined) return;
    if (message.user === undefined || message.thread_ts === undefined) return;
    if (typeof message.text !== 'string') return;
    if (!(await deps.seen.firstEvent(body.event_id))) return;
    const where: Reply = {
      teamId: typeof body.team_id === 'string' ? body.team_id : undefined,
      channel: message.channel,
      threadTs: message.thread_ts,
    };
    const post = (answer: SlackMessage) => postAnswer(deps, where, answer);
    try {
      const text = typedText(message.text);
      if (!threads.has(where.channel, message.thread_ts)) {
        await answerInConversation(deps, client, where, message.user, text, true);
        return;
      }
      // Each thread of the pane is a conversation of its own, as in the Messages tab.
      const conversation = `${where.channel}:${message.thread_ts}`;
      const plan = await planInDirectMessage(deps, client, conversation, message.user, text);
      if (plan.kind !== 'lookup') {
        await post(plan.message);
        return;
      }
      const status = renderAssistantStatus(plan.request);
      await bestEffort(deps, 'assistant.threads.setStatus', () => setStatus(status));
      if (threads.firstTitle(where.channel, message.thread_ts)) {
        const title = renderAssistantTitle(plan.request, deps.flow.now());
        await bestEffort(deps, 'assistant.threads.setTitle', () => setTitle(title));
      }
      const sink = {
        // The status line already says the lookup runs; Slack keeps it until the answer.
        progress: async () => {},
        finish: async (answer: SlackMessage) => {
          await post(answer);
        },
        saveExport: (file: CsvFile) => sendExport(deps, where, file),
        notice: async (notice: SlackMessage) => {
          await post(notice);
        },
      };
      await deps.inFlight.run((signal) =>
        deps.flow.run(plan.request, sink, { note: plan.note, signal }),
      );
    } catch (error) {
      deps.logger.error(
        { err: error, channel: message.channel },
        'could not answer in an assistant thread',
      );
    }
  };
}

/** A call that decorates the thread: its failure is logged and the answer still comes. */
async function bestEffort(
  deps: SlackDeps,
  method: string,
  call: () => Promise<unknown>,
): Promise<void> {
  try {
    await call();
  } catch (error) {
    deps.logger.warn(slackFailure(error, method), `could not call ${method}`);
  }
}

/**
 * The assistant pane (paid plans): Bolt's Assistant runs as middleware, so messages in its
 * threads reach it and not the DM listener.
 */
export function register(app: App, deps: SlackDeps): void {
  const threads = new AssistantThreads();
  app.assistant(
    new Assistant({
      threadContextStore: threads,
      threadStarted: threadStarted(deps),
      threadContextChanged: threadContextChanged(deps),
      userMessage: userMessage(deps, threads),
    }),
  );
}
