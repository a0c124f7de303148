/** Renders a question asked back (`ChoicesError`): the question, and one button a reading. */
import type { ActionsBlock, Button } from '@slack/types';
import type { ChoicesError } from '../../errors.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import { renderError } from '../errors.ts';
import { actionIds, blockIds } from '../ids.ts';
import { blockKitLimits, checked } from '../limits.ts';
import { encodeShareValue } from './answer.ts';

/** Block Kit's most for a button's label. */
const buttonLabelMax = 75;

/**
 * The question `error` asks, with one button for each reading that `asked` holds the request of
 * (in the readings' order): pressing it answers that reading in the question's place. A reading
 * without a request, or too long for a button, stays in the question's words only.
 */
export function renderChoices(
  error: ChoicesError,
  asked: readonly (LookupRequest | undefined)[],
): SlackMessage {
  const question = renderError(error);
  const buttons = error.readings.flatMap((reading, i): Button[] => {
    const request = asked[i];
    if (request === undefined) return [];
    const value = encodeShareValue(request);
    if (value.length > blockKitLimits.buttonValue || reading.meaning.length > buttonLabelMax) {
      return [];
    }
    return [
      {
        type: 'button',
        action_id: `${actionIds.answerChoice}_${i + 1}`,
        text: { type: 'plain_text', text: reading.meaning },
        value,
      },
    ];
  });
  if (buttons.length === 0) return question;
  const actions: ActionsBlock = {
    type: 'actions',
    block_id: blockIds.answerChoices,
    elements: buttons,
  };
  return checked({ text: question.text, blocks: [...question.blocks, actions] });
}
