/**
 * A lookup as a Slack listener runs it: the plan read in the person's Slack zone, then the pending
 * post replaced by the answer. Shared by the slash command, DMs, mentions and the lookup modal.
 */
import type { WebClient } from '@slack/web-api';
import type { CsvFile, LookupOutcome, LookupPlan } from '../../flows/lookup/index.ts';
import { defined } from '../../model/defined.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import { renderDeliveryInDoubt } from '../../render/lookups/status.ts';
import type { SlackDeps } from '../deps.ts';
import { slackFailure } from '../web-api/client.ts';
import {
  postInConversation,
  postRetryingOnce,
  type Reply,
  updateInConversation,
} from '../web-api/conversation.ts';
import { ResponseUrl } from '../web-api/response-url.ts';
import type { UserZone } from '../web-api/user-zones.ts';
import { sendExport } from './exports.ts';

/**
 * What `text` asks for, read in the person's Slack zone and locale. Usage requests need neither,
 * so they do not wait on users.info.
 */
export async function planFor(
  deps: SlackDeps,
  client: WebClient,
  userId: string,
  text: string,
  command?: string,
): Promise<LookupPlan> {
  const zone: UserZone = deps.flow.asksForUsage(text)
    ? { zone: 'UTC', fallback: false }
    : await deps.zones.zoneOf(client, userId);
  return deps.flow.plan(text, {
    zone: zone.zone,
    zoneFallback: zone.fallback,
    ...defined({ command, locale: zone.locale }),
  });
}

/**
 * Posts `message`, the last a person is waiting for in a conversation (an answer, the usage, a
 * refusal), once more when Slack was briefly unable and posted nothing (see
 * {@link postRetryingOnce}). When it stays unconfirmed, the person is told once that it may not
 * have arrived, rather than given it twice. A failure no retry fixes is thrown.
 */
export async function postAnswer(
  deps: SlackDeps,
  where: Reply,
  message: SlackMessage,
): Promise<void> {
  const { chat } = deps.slack.forTeam(where.teamId);
  const outcome = await postRetryingOnce(chat, where, message, deps.logger);
  if (outcome.posted) return;
  deps.logger.warn(
    { method: 'chat.postMessage', reason: outcome.failure.reason, channel: where.channel },
    'Slack did not confirm an answer; telling the person it may not have arrived',
  );
  await postInConversation(chat, where, renderDeliveryInDoubt(), deps.logger);
}

/**
 * Posts `pending` where the person will read the answer, then replaces it with the answer. Used by
 * DMs, mentions and the Home tab's modal (whose answer arrives as a DM). A lookup that asks for
 * an export sends its CSV file to the same place afterwards (a mention's into its thread). Posts
 * go through the client without automatic retries: a post retried after a timeout, a 5xx or
 * `internal_error` may appear twice. When the pending post's fate is unknown, or the answer cannot
 * replace it (deleted, too long, Slack failing), the answer is posted as a new message (see
 * {@link postAnswer}).
 */
export async function deliverLookup(
  deps: SlackDeps,
  where: Reply,
  request: LookupRequest,
  pendingMessage: SlackMessage,
  note: string | undefined,
): Promise<void> {
  const { chat } = deps.slack.forTeam(where.teamId);
  const pending = await postRetryingOnce(chat, where, pendingMessage, deps.logger);
  const ts = pending.posted ? pending.ts : undefined;
  // Updated where Slack put it: a DM named by the person's id is updated by its D… id.
  const posted = pending.posted ? { ...where, channel: pending.channel } : where;
  if (!pending.posted) {
    deps.logger.warn(
      { method: 'chat.postMessage', reason: pending.failure.reason, channel: where.channel },
      'the pending post may not have reached Slack; the answer will come as a new message',
    );
  }
  const update = (at: string, message: SlackMessage) =>
    updateInConversation(chat, posted, at, message, deps.logger);
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
    await postAnswer(deps, where, message);
  };
  const sink = {
    progress,
    finish,
    saveExport: (file: CsvFile) => sendExport(deps, where, file),
    notice: (message: SlackMessage) => postAnswer(deps, where, message),
  };
  await deps.inFlight.run((signal) => deps.flow.run(request, sink, { note, signal }));
}

/** What a slash command's lookup still needs once it is acked: plain values, nothing of Bolt's. */
export interface AckedLookup {
  readonly responseUrl: string;
  /** Who asked: an export's CSV file goes to their DM with the app, as the answer is ephemeral. */
  readonly userId: string;
  /** Their workspace: the export goes through its access. */
  readonly teamId: string | undefined;
  readonly request: LookupRequest;
  readonly note: string | undefined;
}

/**
 * Runs an acked slash-command lookup on its own, replacing the ack through response_url with the
 * update and the answer, and returns at once. The listener returns right after: Bolt then lets go
 * of the request, its body and the `respond` and `client` it made for it, instead of keeping them
 * for the whole of a lookup that can take the service's 10 s (with 2,000 lookups in flight, about
 * 40 MB of the app's peak memory). Shutdown still waits for it (in flight). Never rejects: nobody
 * awaits it, and the flow already turns every failure into its answer.
 */
export function answerLater(deps: SlackDeps, lookup: AckedLookup): Promise<LookupOutcome> {
  const channel = new ResponseUrl(lookup.responseUrl, deps.slack.fetch, deps.logger);
  const replace = async (message: SlackMessage) => {
    await channel.send({ response_type: 'ephemeral', replace_original: true, ...message });
  };
  const sink = {
    progress: replace,
    finish: replace,
    saveExport: (file: CsvFile) =>
      sendExport(deps, { teamId: lookup.teamId, channel: lookup.userId }, file),
    notice: async (message: SlackMessage) => {
      await channel.send({ response_type: 'ephemeral', replace_original: false, ...message });
    },
  };
  return deps.inFlight
    .run((signal) =>
      deps.flow.run(lookup.request, sink, { shareable: true, note: lookup.note, signal }),
    )
    .catch((error: unknown): LookupOutcome => {
      deps.logger.error({ err: error }, 'a lookup failed after its ack');
      return 'failed';
    });
}
