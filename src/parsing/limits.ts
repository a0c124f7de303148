/**
 * How much text a command may hold. The longest honest command (ten databases, a range with
 * times, a comparison, a zone and options) is a few hundred characters; text past
 * `maxTextLength` is refused before anything reads it, so no message, however long, costs more
 * than a bounded amount of parsing and cannot hold up the answers of others. Every grammar's
 * entry point (lookup, digest, digest edit, watch and their schedules) reads its text through
 * `boundedText`.
 */
import { parseErrors } from './messages/lookup.ts';
import { normaliseSlackText } from './slack-text.ts';

/** Most characters of a command, as typed (after Slack's escapes are undone). */
export const maxTextLength = 1_000;

/**
 * Slack escapes `&`, `<` and `>` (`&amp;` is five characters for one): text up to this many raw
 * characters is normalised before it is measured, longer text is refused as it came.
 */
const maxRawLength = maxTextLength * 2;

/**
 * `raw` normalised (`normaliseSlackText`) and trimmed, once it is short enough to read.
 * @throws ParseError `unrecognised` saying the limit and the text's length, never quoting it.
 */
export function boundedText(raw: string): string {
  if (raw.length > maxRawLength) throw parseErrors.tooLong(raw.length, maxTextLength);
  const text = normaliseSlackText(raw).trim();
  if (text.length > maxTextLength) throw parseErrors.tooLong(text.length, maxTextLength);
  return text;
}
