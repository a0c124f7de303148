/** The words of a question the parser asks rather than guesses (`ChoicesError`). */
import { ChoicesError, type Reading } from '../../errors.ts';
import { slashCommand } from '../../model/commands.ts';
import { quote } from './wording.ts';

/**
 * `3/11/2026 to 10/11/2026` with no locale to decide: each reading with the command that asks
 * it, written as the person would type it where they are.
 */
export function dateOrderChoices(
  fragment: string,
  readings: readonly Reading[],
  conversation: boolean,
): ChoicesError {
  const command = conversation ? '' : `${slashCommand} `;
  const listed = readings.map((reading) => `${reading.meaning}: ${command}${reading.command}`);
  return new ChoicesError(
    `${quote(fragment)} reads two ways: which did you mean? ${listed.join(' · ')}`,
    readings,
    fragment,
  );
}
