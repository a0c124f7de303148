/**
 * The buttons under every answer. Compare with previous period, Table and Chart change the answer
 * where it stands: an ephemeral one through the action's response_url, one the app posted (a DM,
 * a mention's thread, the Home tab form's answer, a shared answer) with chat.update, or through
 * the response_url when chat.update cannot reach it. Export CSV sends the whole ranking as a file
 * to the person's DM, or into the thread of an answer everyone in the channel sees. Each acks at
 * once; a failure is told to the person who pressed, and the answer stays as it was.
 */
import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { isParseError, type LookupSink, type RunOptions } from '../../../flows/lookup/index.ts';
import type { LookupRequest } from '../../../model/lookup.ts';
import type { SlackMessage } from '../../../model/message.ts';
import type { Presentation } from '../../../model/presentation.ts';
import { renderError } from '../../../render/errors.ts';
import { decodeShareValue, renderShared, sharedByOf } from '../../../render/lookups/answer.ts';
import { sendExport } from '../../delivery/exports.ts';
import type { SlackDeps } from '../../deps.ts';
import { slackFailure } from '../../web-api/client.ts';
import {
  type Conversation,
  postInConversation,
  updateInConversation,
} from '../../web-api/conversation.ts';
import { ResponseUrl } from '../../web-api/response-url.ts';

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/** What a button does to the answer it is under; `asked` asks what the button carries. */
export type AnswerChange = 'compare' | 'table' | 'chart' | 'asked';

/** Where the answer a button sits under is, as the action's payload says. */
export interface AnswerPlace {
  /** Only the person who asked sees it; only its response_url reaches it. */
  readonly ephemeral: boolean;
  readonly channel: string | undefined;
  /** The answer message's ts, when the app posted it where chat.update can reach it. */
  readonly ts: string | undefined;
  /** The thread the answer sits in (a mention's), when it sits in one. */
  readonly threadTs: string | undefined;
  /** Who shared it in the channel, for an answer shared with the Share button. */
  readonly sharedBy: string | undefined;
}

interface ActionBody {
  readonly container?: {
    readonly message_ts?: string;
    readonly channel_id?: string;
    readonly is_ephemeral?: boolean;
    readonly thread_ts?: string;
  };
  readonly message?: { readonly ts?: string; readonly thread_ts?: string; readonly text?: string };
  readonly channel?: { readonly id?: string };
}

export function answerPlace(body: ActionBody): AnswerPlace {
  const container = body.container ?? {};
  const ephemeral = container.is_ephemeral === true;
  return {
    ephemeral,
    channel: body.channel?.id ?? container.channel_id,
    ts: ephemeral ? undefined : (body.message?.ts ?? container.message_ts),
    threadTs: body.message?.thread_ts ?? container.thread_ts,
    sharedBy: sharedByOf(body.message?.text ?? ''),
  };
}

/**
 * Where an export of the answer in `place` goes: the DM of `userId` for an ephemeral answer, the
 * DM itself (in the answer's thread, if any), or the thread of an answer in a channel.
 */
export function exportPlace(place: AnswerPlace, userId: string): Conversation {
  if (place.ephemeral || place.channel === undefined) return { channel: userId };
  const threadTs = place.channel.startsWith('D') ? place.threadTs : (place.threadTs ?? place.ts);
  return { channel: place.channel, ...(threadTs === undefined ? {} : { threadTs }) };
}

const presentations: Readonly<Record<'table' | 'chart', Presentation>> = {
  table: 'table',
  chart: 'chart',
};

/**
 * Compare, Table, Chart or Add as a database: acks at once, then changes the answer where it
 * stands.
 */
export function answerButton(deps: SlackDeps, change: AnswerChange) {
  return async ({ ack, action, body }: ButtonArgs): Promise<void> => {
    await ack();
    const pressed = pressedOn(deps, body);
    const request = await requestOf(deps, action.value, pressed);
    if (request === undefined) return;
    let asked: LookupRequest = request;
    // Only an ephemeral answer can still be shared; the others are where they are read.
    const options: RunOptions = { shareable: pressed.place.ephemeral };
    if (change === 'compare') {
      const compared = deps.flow.comparedWithPrevious(request);
      if (isParseError(compared)) {
        await pressed.tell(renderError(compared));
        return;
      }
      asked = compared;
    }
    const presentation =
      change === 'table' || change === 'chart' ? presentations[change] : undefined;
    await deps.inFlight.run(async (signal) => {
      let final: SlackMessage | undefined;
      const sink: LookupSink = {
        progress: async () => {},
        finish: async (message) => {
          final = message;
        },
      };
      const outcome = await deps.flow.run(asked, sink, {
        ...options,
        signal,
        ...(presentation === undefined ? {} : { presentation }),
      });
      if (final === undefined) return;
      if (outcome !== 'answered') {
        await pressed.tell(final);
        return;
      }
      const shared = pressed.place.sharedBy;
      await pressed.replace(shared === undefined ? final : renderShared(final, shared));
    });
  };
}

/** Export CSV: acks at once, then sends the whole ranking as a file. */
export function exportButton(deps: SlackDeps) {
  return async ({ ack, action, body }: ButtonArgs): Promise<void> => {
    await ack();
    const pressed = pressedOn(deps, body);
    const request = await requestOf(deps, action.value, pressed);
    if (request === undefined) return;
    await deps.inFlight.run(async (signal) => {
      try {
        const file = await deps.flow.exportFile(request, signal);
        await sendExport(
          deps,
          { teamId: pressed.teamId, ...exportPlace(pressed.place, body.user.id) },
          file,
        );
      } catch (error) {
        deps.logger.warn({ err: error }, 'could not send a CSV export');
        await pressed.tell(renderError(error));
      }
    });
  };
}

/**
 * The lookup a button carries; undefined, once the person who pressed it is told, when the value
 * is none this app wrote.
 */
async function requestOf(
  deps: SlackDeps,
  value: string | undefined,
  pressed: { tell(message: SlackMessage): Promise<void> },
): Promise<LookupRequest | undefined> {
  const request = decodeShareValue(value ?? '');
  if (request !== undefined) return request;
  deps.logger.warn({ value: value?.slice(0, 200) }, 'an answer button carried an unreadable value');
  await pressed.tell(renderError(undefined));
  return undefined;
}

/**
 * The answer a button was pressed on: where it is, how to replace it, and how to tell the person
 * who pressed something without touching it.
 */
function pressedOn(deps: SlackDeps, body: BlockButtonAction) {
  const place = answerPlace(body as ActionBody);
  const reply =
    body.response_url === undefined
      ? undefined
      : new ResponseUrl(body.response_url, deps.slack.fetch, deps.logger);
  const userId = body.user.id;
  const teamId = body.team?.id ?? undefined;
  const { chat } = deps.slack.forTeam(teamId);
  return {
    place,
    teamId,
    async replace(message: SlackMessage): Promise<void> {
      const { channel, ts } = place;
      if (channel !== undefined && ts !== undefined) {
        try {
          await updateInConversation(chat, { channel }, ts, message, deps.logger);
          return;
        } catch (error) {
          deps.logger.warn(
            slackFailure(error, 'chat.update'),
            'could not update an answer; replacing it through its response_url',
          );
        }
      }
      await reply?.send({
        replace_original: true,
        ...(place.ephemeral ? { response_type: 'ephemeral' as const } : {}),
        ...message,
      });
    },
    async tell(message: SlackMessage): Promise<void> {
      try {
        if (reply !== undefined) {
          await reply.send({ response_type: 'ephemeral', replace_original: false, ...message });
        } else {
          await postInConversation(chat, { channel: userId }, message, deps.logger);
        }
      } catch (error) {
        deps.logger.warn({ err: error }, 'could not tell a person what became of their button');
      }
    },
  };
}
