import { describe, expect, it } from 'vitest';
import { ChoicesError } from '../../../src/errors.ts';
import { type LookupRequest, parseLookup } from '../../../src/parsing/index.ts';
import { blockIds } from '../../../src/render/ids.ts';
import { decodeShareValue } from '../../../src/render/lookups/answer.ts';
import { renderChoices } from '../../../src/render/lookups/choices.ts';

const context = { now: new Date('2026-11-28T04:42:04Z'), zone: 'Europe/Berlin' };

describe('renderChoices', () => {
  it('asks the question with one button a reading, each carrying its request', () => {
    const asked = parseLookup('#hcsm 3/11/2026 to 10/11/2026', context);
    expect(asked).toBeInstanceOf(ChoicesError);
    const error = asked as ChoicesError;
    const requests = error.readings.map(
      (reading) => parseLookup(reading.command, context) as LookupRequest,
    );
    const message = renderChoices(error, requests);
    expect(message.text).toContain('reads two ways');
    const actions = message.blocks.at(-1);
    expect(actions?.type === 'actions' && actions.block_id).toBe(blockIds.answerChoices);
    const buttons = actions?.type === 'actions' ? actions.elements : [];
    expect(
      buttons.map((button) =>
        button.type === 'button'
          ? [button.action_id, button.text.text, decodeShareValue(button.value ?? '')]
          : [],
      ),
    ).toEqual([
      ['answer_choice_1', 'Nov 3, 2026 to Nov 10, 2026', requests[0]],
      ['answer_choice_2', 'Mar 11, 2026 to Oct 11, 2026', requests[1]],
    ]);
  });

  it('leaves a reading without a request to the question’s words', () => {
    const error = parseLookup('#hcsm 3/11/2026 to 10/11/2026', context) as ChoicesError;
    expect(renderChoices(error, [undefined, undefined]).blocks.map((block) => block.type)).toEqual([
      'section',
    ]);
  });
});
