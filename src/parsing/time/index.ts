/**
 * The time-window parser on its own: text or tokens -> a validated window at `now` in a zone.
 * Command grammars use the pieces (`matchTimeExpression` inside their clause list, then
 * `evaluateTimeExpression` once the zone is known); this is the whole path for one phrase.
 */

import { boundedText } from '../limits.ts';
import { parseErrors } from '../messages/lookup.ts';
import { type Token, tokenize, tokensText } from '../tokens.ts';
import { evaluateTimeExpression, type TimeContext, type TimeWindow } from './evaluate.ts';

export { formatInstant } from '../../time/format.ts';

import { matchTimeExpression } from './ranges.ts';

export type { DateRef, Moment, MomentContext, TimeExpression, TimeOfDay } from './ast.ts';
export { matchTimeOfDay } from './clock.ts';
export {
  checkEarliest,
  checkWindow,
  defaultTimeWindow,
  evaluateTimeExpression,
  type TimeContext,
  type TimeWindow,
  zonedNow,
} from './evaluate.ts';
export { rejectMisspeltTime } from './misspelt.ts';
export { matchMoment } from './moment.ts';
export { matchTimeExpression } from './ranges.ts';
export type { CalendarUnit, Unit } from './vocabulary.ts';

/**
 * Reads a whole phrase (`last week`, `from Sep 1 through Sep 8`) as one window.
 * @throws ParseError `bad_time` when the phrase is not exactly one time expression, and the
 *   errors of `evaluateTimeExpression`.
 */
export function parseTimeWindow(
  input: string | readonly Token[],
  context: TimeContext,
): TimeWindow {
  const tokens = typeof input === 'string' ? tokenize(boundedText(input)) : input;
  const whole = tokensText(tokens, 0, tokens.length);
  const match = matchTimeExpression(tokens, 0);
  if (match === undefined || match.next !== tokens.length) throw parseErrors.badTime(whole);
  return evaluateTimeExpression(match.value, context, whole);
}
