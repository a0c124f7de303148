/**
 * The closing example of a lookup error, fitted to the person who will read it: the command they
 * typed with the slip corrected (`#bcsm yestreday` -> `#bcsm yesterday`), else the example with
 * their own databases instead of `#hcsm`, written as they would type it where they are (after the
 * slash command, or bare in a DM).
 */
import type { ParseError } from '../errors.ts';
import { slashCommand } from '../model/commands.ts';
import { isMarkedDatabase } from './question.ts';
import { fragmentOf, type Token } from './tokens.ts';

export interface AdviceContext {
  /** In a DM, a mention or the console's DM mode: examples are the bare text. */
  readonly conversation: boolean;
  /**
   * Whether a command reads without an error, in the same context: the person's command with its
   * fix is offered only when it does.
   */
  readonly reads?: (text: string) => boolean;
  /**
   * The refusal a command meets in the same context, if any: a command with two slips gets both
   * fixed (`#hcsm yestreday table table`), so no slot the person gave is lost.
   */
  readonly refusal?: (text: string) => ParseError | undefined;
}

/** How many slips one suggestion fixes at most. */
const maxFixes = 3;

/** The examples' own databases, which the person's replace. */
const exampleDatabases = /^(#hcsm, #bcsm|#hcsm)(?= |$)/;
/** Errors whose example is about the databases themselves, and keeps its own. */
const ownExample: ReadonlySet<ParseError['reason']> = new Set([
  'empty',
  'no_database',
  'too_many_databases',
]);

/**
 * `error`, made by the parse of `text` (normalised) into `tokens`, with its closing `Try:
 * /influencers <example>` rewritten for this person: their own command with the fix the error
 * names applied when that command reads, else the error's example with their databases.
 */
export function fitAdvice(
  error: ParseError,
  text: string,
  tokens: readonly Token[],
  context: AdviceContext,
): ParseError {
  const tail = `Try: ${slashCommand} `;
  const at = error.message.lastIndexOf(tail);
  if (at === -1) return error;
  let example = error.message.slice(at + tail.length);
  const works = (command: string): boolean =>
    command !== '' && (context.reads === undefined || context.reads(command));
  let corrected = correctedText(error, text);
  // After a fix that leaves words out, what was around them reads anew: no second fix is guessed.
  const chains = error.correction !== '';
  for (
    let fixes = 1;
    chains && corrected !== undefined && fixes < maxFixes && !works(corrected);
    fixes++
  ) {
    const next = context.refusal?.(corrected);
    // A second fix that quotes a phrase as a database guesses a meaning the person never gave.
    const quotes = next?.correction?.startsWith('"') === true;
    corrected = next === undefined || quotes ? undefined : correctedText(next, corrected);
  }
  if (corrected !== undefined && works(corrected)) {
    example = corrected;
  } else if (!ownExample.has(error.reason) && !example.startsWith('"')) {
    const own: string[] = [];
    tokens.forEach((token, i) => {
      const name = fragmentOf(text, tokens, i, i + 1);
      if (isMarkedDatabase(token) && !own.includes(name) && own.length < 3) own.push(name);
    });
    if (own.length > 0) example = example.replace(exampleDatabases, own.join(', '));
    // An example built from the person's words that does not read gives way to a plain one.
    const plain = `${own.length > 0 ? own.join(', ') : '#hcsm'} last week`;
    if (!works(example) && works(plain)) example = plain;
  }
  const command = context.conversation ? '' : `${slashCommand} `;
  // The error was made by this parse and is not seen elsewhere yet: its words are fitted in place
  // rather than by building a second error (and stack) for every refused command.
  error.message = `${error.message.slice(0, at)}Try: ${command}${example}`;
  return error;
}

/**
 * The person's text with the fragment the error names replaced by its correction; an empty
 * correction leaves the fragment out.
 */
function correctedText(error: ParseError, text: string): string | undefined {
  const { fragment, correction } = error;
  if (fragment === undefined || correction === undefined) return undefined;
  const at = text.indexOf(fragment);
  if (at === -1) return undefined;
  const corrected = `${text.slice(0, at)}${correction}${text.slice(at + fragment.length)}`;
  return corrected
    .replace(/\s+/g, ' ')
    .replace(/\s+,/g, ',')
    .replace(/^[\s,]+|[\s,]+$/g, '');
}
