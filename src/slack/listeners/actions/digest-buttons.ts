/**
 * The digest buttons (Run now, Pause, Resume, Remove) under the channel list, on the Home tab and
 * in the DM that lists what an outage skipped. Each button's value is the digest id; the same
 * rules apply as for the typed commands. After a change the surface it came from is refreshed: the
 * list message is replaced through the action's response_url (at the page that holds the digest),
 * the Home tab is published again; a DM notice gets the result beside it. Previous and Next page
 * through a long list. "Post it now", in the DM about a slot whose post may not
 * have reached the channel, posts that slot once and says how it went.
 */
import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { DigestNotFoundError } from '../../../errors.ts';
import { digestActionResult, logDigestFailure } from '../../../flows/digest-commands.ts';
import type { DigestAction } from '../../../model/commands.ts';
import { normalizeDigestId } from '../../../model/digest.ts';
import type { SlackMessage } from '../../../model/message.ts';
import { renderRepostResult } from '../../../render/digests/digest-unconfirmed.ts';
import { renderError } from '../../../render/errors.ts';
import { digestNoticeBlockPrefix, readDigestSlotValue } from '../../../render/ids.ts';
import {
  renderDigestActionResult,
  renderDigestList,
} from '../../../render/management/digest-management.ts';
import type { SlackDeps } from '../../deps.ts';
import { requestTeamId } from '../../middleware/team-guard.ts';
import { postInConversation } from '../../web-api/conversation.ts';
import { slackDigestAccess } from '../../web-api/digest-access.ts';
import { publishHome } from '../../web-api/home.ts';
import { ResponseUrl } from '../../web-api/response-url.ts';

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/** One digest button: acks at once, acts, then refreshes where it was pressed. */
export function digestButton(deps: SlackDeps, action: DigestAction) {
  return async ({ ack, action: button, body, client, context }: ButtonArgs): Promise<void> => {
    await ack();
    const userId = body.user.id;
    const teamId = requestTeamId(body) ?? context.teamId ?? '';
    const caller = { teamId, userId };
    const fromHome = body.container?.type === 'view' || body.view?.type === 'home';
    const fromNotice = button.block_id.startsWith(digestNoticeBlockPrefix);
    const channelId = fromNotice
      ? undefined
      : (body.channel?.id ?? (body.container?.channel_id as string | undefined));
    const reply =
      body.response_url === undefined
        ? undefined
        : new ResponseUrl(body.response_url, deps.slack.fetch, deps.logger);
    const errorOptions = context.botUserId === undefined ? {} : { botUserId: context.botUserId };
    const { manager, logger, now } = deps.digests;
    const send = async (message: SlackMessage, replace: boolean) => {
      await reply?.send({ response_type: 'ephemeral', replace_original: replace, ...message });
    };

    const work = async () => {
      try {
        const id = normalizeDigestId(button.value ?? '');
        if (id === undefined) throw new DigestNotFoundError(button.value ?? '');
        const access = slackDigestAccess(
          client,
          deps.admins,
          channelId === undefined ? undefined : { id: channelId },
          logger,
        );
        const outcome = await manager.act(caller, action, id, access, {
          beforeRun: async (digest) => {
            if (fromHome) return;
            await send(
              renderDigestActionResult(
                { action: 'run', digest, outcome: 'started' },
                { now: now() },
              ),
              false,
            );
          },
        });
        if (fromHome) {
          await publishHome(deps, client, { userId, teamId });
          return;
        }
        if (channelId !== undefined) {
          const digests = await manager.listForChannel(teamId, channelId);
          const shown = { now: now(), channelId, viewerId: userId, holding: id };
          await send(renderDigestList(digests, shown), true);
        }
        await send(renderDigestActionResult(digestActionResult(outcome), { now: now() }), false);
      } catch (error) {
        logDigestFailure(logger, error, `digest button ${action} failed`);
        const message = renderError(error, errorOptions);
        if (!fromHome) {
          await send(message, false);
          return;
        }
        // The Home tab has no response_url: say it in the app's DM, then show the current state.
        await postInConversation(client, { channel: userId }, message).catch((dmError: unknown) => {
          logger.warn({ err: dmError }, 'could not tell a person why a digest action failed');
        });
        await publishHome(deps, client, { userId, teamId }).catch((homeError: unknown) => {
          logger.warn({ err: homeError }, 'could not refresh the Home tab');
        });
      }
    };
    await deps.inFlight.track(work());
  };
}

/** Previous or Next under a page of the channel's digest list: that page, in its place. */
export function digestListPageButton(deps: SlackDeps) {
  return async ({ ack, action: button, body, context }: ButtonArgs): Promise<void> => {
    await ack();
    const userId = body.user.id;
    const teamId = requestTeamId(body) ?? context.teamId ?? '';
    const channelId = body.channel?.id ?? (body.container?.channel_id as string | undefined);
    if (body.response_url === undefined || channelId === undefined) return;
    const reply = new ResponseUrl(body.response_url, deps.slack.fetch, deps.logger);
    const { manager, logger, now } = deps.digests;
    const work = async () => {
      try {
        const [digests, outage] = await Promise.all([
          manager.listForChannel(teamId, channelId),
          manager.outageOf(teamId),
        ]);
        const page = Number.parseInt(button.value ?? '0', 10) || 0;
        const shown = { now: now(), channelId, viewerId: userId, page };
        await reply.send({
          response_type: 'ephemeral',
          replace_original: true,
          ...renderDigestList(digests, outage === undefined ? shown : { ...shown, outage }),
        });
      } catch (error) {
        logDigestFailure(logger, error, 'digest list page button failed');
        const words = renderError(
          error,
          context.botUserId === undefined ? {} : { botUserId: context.botUserId },
        );
        await reply.send({ response_type: 'ephemeral', replace_original: false, ...words });
      }
    };
    await deps.inFlight.track(work());
  };
}

/**
 * "Post it now" under the DM about a slot whose post may not have reached the channel: posts that
 * slot once, whoever presses and however often, then says how it went. The notice is replaced by
 * the outcome unless nothing was posted, so it can be pressed again.
 */
export function postUnconfirmedButton(deps: SlackDeps) {
  return async ({ ack, action: button, body, client, context }: ButtonArgs): Promise<void> => {
    await ack();
    const userId = body.user.id;
    const teamId = requestTeamId(body) ?? context.teamId ?? '';
    const reply =
      body.response_url === undefined
        ? undefined
        : new ResponseUrl(body.response_url, deps.slack.fetch, deps.logger);
    const { manager, logger, now } = deps.digests;
    const work = async () => {
      try {
        const asked = readDigestSlotValue(button.value ?? '');
        if (asked === undefined) throw new DigestNotFoundError(button.value ?? '');
        const access = slackDigestAccess(client, deps.admins, undefined, logger);
        const { digest, result } = await manager.postUnconfirmed(
          { teamId, userId },
          asked.id,
          asked.slot,
          access,
        );
        await reply?.send({
          response_type: 'ephemeral',
          replace_original: result.outcome !== 'failed',
          ...renderRepostResult(digest, asked.slot, result, { now: now(), viewerId: userId }),
        });
      } catch (error) {
        logDigestFailure(logger, error, 'digest post-it-now button failed');
        const words = renderError(
          error,
          context.botUserId === undefined ? {} : { botUserId: context.botUserId },
        );
        await reply?.send({ response_type: 'ephemeral', replace_original: false, ...words });
      }
    };
    await deps.inFlight.track(work());
  };
}
