/**
 * The words of reading by slots: questions the parser asks rather than guesses (`ChoicesError`),
 * and a window it could not read beside databases it could.
 */
import { ChoicesError, ParseError, type Reading } from '../../errors.ts';
import { slashCommand } from '../../model/commands.ts';
import { quote } from './wording.ts';

/** Each reading with the command that asks it, written as the person would type it where they are. */
export function listReadings(readings: readonly Reading[], conversation: boolean): string {
  const command = conversation ? '' : `${slashCommand} `;
  return readings.map((reading) => `${reading.meaning}: ${command}${reading.command}`).join(' · ');
}

/**
 * `3/11/2026 to 10/11/2026` with no locale to decide: each reading with the command that asks
 * it, written as the person would type it where they are.
 */
export function dateOrderChoices(
  fragment: string,
  readings: readonly Reading[],
  conversation: boolean,
): ChoicesError {
  return new ChoicesError(
    `${quote(fragment)} reads two ways: which did you mean? ${listReadings(readings, conversation)}`,
    readings,
    fragment,
  );
}

/**
 * `DrFerreiraI in #hcsm`: a name written like a handle, without its `@`, beside a database. One
 * person's place, or a database of that name?
 */
export function handleChoices(
  fragment: string,
  readings: readonly Reading[],
  conversation: boolean,
): ChoicesError {
  return new ChoicesError(
    `Is ${quote(fragment)} a person or a database? ${listReadings(readings, conversation)}`,
    readings,
    fragment,
  );
}

/**
 * A window counted with a sign (`last -5 days`): refused, since the answer would cover another
 * window; the person's own command without the sign is offered.
 */
export function unreadWindow(fragment: string): ParseError {
  const correction = fragment.replace(/-(\d)/u, '$1');
  return new ParseError(
    'bad_time',
    `I can't read ${quote(fragment)} as a window: a window counts back from now, without a sign. Try: ${slashCommand} #hcsm ${correction}`,
    fragment,
    correction,
  );
}
