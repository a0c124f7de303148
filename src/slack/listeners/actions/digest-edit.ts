/**
 * The Edit button under a digest (channel list, Home tab): opens the Edit modal, prefilled, for
 * someone who may change the digest. The modal's `private_metadata` carries the digest id and
 * where the button was pressed, so the submission refreshes that surface.
 */
import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { DigestNotFoundError } from '../../../errors.ts';
import { logDigestFailure } from '../../../flows/digest-commands.ts';
import { normalizeDigestId } from '../../../model/digest.ts';
import { renderError } from '../../../render/errors.ts';
import { renderDigestEditModal } from '../../../render/management/digest-edit.ts';
import type { SlackDeps } from '../../deps.ts';
import { requestTeamId } from '../../middleware/team-guard.ts';
import { postInConversation } from '../../web-api/conversation.ts';
import { slackDigestAccess } from '../../web-api/digest-access.ts';
import { ResponseUrl } from '../../web-api/response-url.ts';

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/** What the Edit modal remembers of where it was opened. */
export interface EditOrigin {
  readonly id: string;
  /** The channel list's response_url, to replace the list and confirm there. */
  readonly responseUrl?: string;
  readonly channelId?: string;
}

/** The origin as `private_metadata` (at most 3,000 characters: an id, a URL and a channel). */
export function encodeEditOrigin(origin: EditOrigin): string {
  return JSON.stringify(origin);
}

export function decodeEditOrigin(metadata: string): EditOrigin | undefined {
  try {
    const value = JSON.parse(metadata) as Partial<EditOrigin>;
    if (typeof value.id !== 'string') return undefined;
    return {
      id: value.id,
      ...(typeof value.responseUrl === 'string' ? { responseUrl: value.responseUrl } : {}),
      ...(typeof value.channelId === 'string' ? { channelId: value.channelId } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Edit: acks at once, then opens the modal within the trigger's 3 seconds. */
export function digestEditButton(deps: SlackDeps) {
  return async ({ ack, action, body, client, context }: ButtonArgs): Promise<void> => {
    await ack();
    const userId = body.user.id;
    const teamId = requestTeamId(body) ?? context.teamId ?? '';
    const channelId = body.channel?.id ?? (body.container?.channel_id as string | undefined);
    const { manager, logger } = deps.digests;
    try {
      const id = normalizeDigestId(action.value ?? '');
      if (id === undefined) throw new DigestNotFoundError(action.value ?? '');
      const access = slackDigestAccess(client, deps.admins, undefined, logger);
      const digest = await manager.changeable({ teamId, userId }, id, access);
      const origin: EditOrigin = {
        id,
        ...(body.response_url === undefined ? {} : { responseUrl: body.response_url }),
        ...(channelId === undefined ? {} : { channelId }),
      };
      await client.views.open({
        trigger_id: body.trigger_id,
        view: renderDigestEditModal(digest, encodeEditOrigin(origin)),
      });
    } catch (error) {
      logDigestFailure(logger, error, 'digest edit button failed');
      const message = renderError(
        error,
        context.botUserId === undefined ? {} : { botUserId: context.botUserId },
      );
      if (body.response_url !== undefined) {
        await new ResponseUrl(body.response_url, deps.slack.fetch, deps.logger).send({
          response_type: 'ephemeral',
          replace_original: false,
          ...message,
        });
        return;
      }
      await postInConversation(client, { channel: userId }, message).catch((dmError: unknown) => {
        logger.warn({ err: dmError }, 'could not tell a person why the Edit button failed');
      });
    }
  };
}
