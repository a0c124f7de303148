/**
 * The Edit modal's submission: read as one `digest edit <id> …` command, plus who to keep, and
 * saved by the manager's edit as the command is, so the same checks apply. A mistake, or an edit
 * that would repeat another digest of the same place, stays in the modal under the input it
 * concerns; a saved edit closes it, then the confirmation (next three
 * runs and their windows) replaces nothing and goes where the button was pressed: the channel
 * list's response_url, or the person's DM from the Home tab, which is published again.
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { ParseError } from '../../../errors.ts';
import { confirmation, logDigestFailure } from '../../../flows/digest-commands.ts';
import type { EditOutcome } from '../../../flows/digest-manager.ts';
import { slashCommand } from '../../../model/commands.ts';
import type { SlackMessage } from '../../../model/message.ts';
import { parseDigestCommand } from '../../../parsing/digest.ts';
import { renderError } from '../../../render/errors.ts';
import {
  type DigestEditState,
  duplicateModalErrors,
  editModalErrors,
  editTextFromModal,
  stakeholderModalErrors,
  stakeholdersFromModal,
} from '../../../render/management/digest-edit.ts';
import {
  renderDigestDuplicate,
  renderDigestList,
} from '../../../render/management/digest-management.ts';
import type { SlackDeps } from '../../deps.ts';
import { requestTeamId } from '../../middleware/team-guard.ts';
import { postInConversation } from '../../web-api/conversation.ts';
import { slackDigestAccess } from '../../web-api/digest-access.ts';
import { publishHome } from '../../web-api/home.ts';
import { ResponseUrl } from '../../web-api/response-url.ts';
import { decodeEditOrigin } from '../actions/digest-edit.ts';

type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

export function digestEditSubmit(deps: SlackDeps) {
  return async ({ ack, body, view, client, context }: SubmitArgs): Promise<void> => {
    const { manager, logger, now } = deps.digests;
    const origin = decodeEditOrigin(view.private_metadata);
    const userId = body.user.id;
    const teamId = requestTeamId(body) ?? context.teamId ?? '';
    if (origin === undefined) {
      await ack();
      logger.warn('an Edit modal came back without its digest');
      return;
    }
    const state = view.state.values as DigestEditState;
    const parsed = parseDigestCommand(editTextFromModal(origin.id, state), {
      now: now(),
      zone: 'UTC',
    });
    if (parsed instanceof ParseError || parsed.kind !== 'edit') {
      const error =
        parsed instanceof ParseError ? parsed : new ParseError('bad_command', 'Not an edit.');
      await ack({ response_action: 'errors', errors: editModalErrors(error, state) });
      return;
    }
    const stakeholders = stakeholdersFromModal(state);
    const conflict = stakeholderModalErrors(stakeholders);
    if (conflict !== undefined) {
      await ack({ response_action: 'errors', errors: conflict });
      return;
    }
    const edit = stakeholders === undefined ? parsed.edit : { ...parsed.edit, stakeholders };
    const access = slackDigestAccess(client, deps.admins, undefined, logger);
    let edited: EditOutcome;
    try {
      edited = await manager.edit({ teamId, userId }, origin.id, edit, access);
    } catch (error) {
      logDigestFailure(logger, error, 'digest edit from the modal failed');
      if (error instanceof ParseError) {
        await ack({ response_action: 'errors', errors: editModalErrors(error, state) });
        return;
      }
      await ack();
      await tell(deps, client, userId, origin.responseUrl, renderError(error));
      return;
    }
    if (edited.kind === 'duplicate') {
      const errors = duplicateModalErrors(edited.duplicate, edited.digest, edited.settings, state);
      if (errors !== undefined) {
        await ack({ response_action: 'errors', errors });
        return;
      }
      await ack();
      const answer = renderDigestDuplicate(edited.duplicate, {
        now: now(),
        viewerId: userId,
        command: slashCommand,
        edited: edited.digest,
      });
      await deps.inFlight.track(
        tell(deps, client, userId, origin.responseUrl, answer).catch((error: unknown) => {
          logger.warn({ err: error }, 'could not answer a digest edit');
        }),
      );
      return;
    }
    await ack();
    const message = confirmation(
      {
        now,
        commandName: slashCommand,
        ...(context.botUserId === undefined ? {} : { botUserId: context.botUserId }),
      },
      edited,
      { notes: edited.notes ?? [], updated: true },
    );
    const work = async () => {
      if (origin.responseUrl !== undefined && origin.channelId !== undefined) {
        const reply = new ResponseUrl(origin.responseUrl, deps.slack.fetch, deps.logger);
        const digests = await manager.listForChannel(teamId, origin.channelId);
        await reply.send({
          response_type: 'ephemeral',
          replace_original: true,
          ...renderDigestList(digests, {
            now: now(),
            channelId: origin.channelId,
            viewerId: userId,
            holding: origin.id,
          }),
        });
      } else {
        await publishHome(deps, client, { userId, teamId });
      }
      await tell(deps, client, userId, origin.responseUrl, message);
    };
    await deps.inFlight.track(
      work().catch((error: unknown) => {
        logger.warn({ err: error }, 'could not confirm a digest edit');
      }),
    );
  };
}

/** Through the list's response_url when there is one, else in the person's DM with the app. */
async function tell(
  deps: SlackDeps,
  client: SubmitArgs['client'],
  userId: string,
  responseUrl: string | undefined,
  message: SlackMessage,
): Promise<void> {
  if (responseUrl !== undefined) {
    await new ResponseUrl(responseUrl, deps.slack.fetch, deps.logger).send({
      response_type: 'ephemeral',
      replace_original: false,
      ...message,
    });
    return;
  }
  await postInConversation(client, { channel: userId }, message);
}
