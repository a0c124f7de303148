import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { renderError } from '../../../render/errors.ts';
import { decodeShareValue, renderShared } from '../../../render/lookups/answer.ts';
import type { SlackDeps } from '../../deps.ts';
import { ResponseUrl } from '../../web-api/response-url.ts';

/**
 * "Share in channel" under an ephemeral answer: posts the same answer in the channel through the
 * action's response_url (which works where the bot is not a member, unlike chat.postMessage),
 * then removes the ephemeral copy. The answer comes from the analytics client's response cache,
 * so sharing right after asking costs no second call; a compared answer is shared compared (a
 * trend as a trend, a person's answer as theirs), with the buttons every answer has.
 */
export function shareAnswer(deps: SlackDeps) {
  return async ({
    ack,
    action,
    body,
  }: SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    if (body.response_url === undefined) return;
    const channel = new ResponseUrl(body.response_url, deps.slack.fetch, deps.logger);
    const request = decodeShareValue(action.value ?? '');
    if (request === undefined) {
      deps.logger.warn(
        { value: action.value?.slice(0, 200) },
        'share button carried an unreadable value',
      );
      await channel.send({
        response_type: 'ephemeral',
        replace_original: false,
        ...renderError(undefined),
      });
      return;
    }
    const work = async (signal: AbortSignal) => {
      try {
        const answer = await deps.flow.answer(request, { actions: true, signal });
        const message = renderShared(answer, body.user.id);
        const posted = await channel.send({
          response_type: 'in_channel',
          replace_original: false,
          ...message,
        });
        if (posted) await channel.send({ delete_original: true });
      } catch (error) {
        deps.logger.warn({ err: error }, 'could not share an answer');
        await channel.send({
          response_type: 'ephemeral',
          replace_original: false,
          ...renderError(error),
        });
      }
    };
    await deps.inFlight.run(work);
  };
}
