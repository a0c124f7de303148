/**
 * Times of day (`14:05`, `2pm`, `7:45 in the evening`, `noon`), the offset that may follow one
 * (`GMT`, `+02:00`), and parts of the day (`this morning`) with their stated hours.
 */
import type { Match } from '../grammar.ts';
import { parseErrors } from '../messages/lookup.ts';
import { lowerAt, type Token, tokensText } from '../tokens.ts';
import type { DateRef, Moment, TimeOfDay } from './ast.ts';
import { type PartOfDay, partsOfDay } from './vocabulary.ts';

const meridiems = new Map([
  ['am', 0],
  ['a.m.', 0],
  ['a.m', 0],
  ['pm', 12],
  ['p.m.', 12],
  ['p.m', 12],
]);
/** `in the morning` -> am; `in the afternoon`, `in the evening`, `at night` -> pm. */
function spokenMeridiem(tokens: readonly Token[], at: number): Match<string> | undefined {
  const first = lowerAt(tokens, at);
  if (first === 'at' && lowerAt(tokens, at + 1) === 'night') return { value: 'pm', next: at + 2 };
  if (first !== 'in' || lowerAt(tokens, at + 1) !== 'the') return undefined;
  const part = lowerAt(tokens, at + 2);
  if (part === 'morning') return { value: 'am', next: at + 3 };
  if (part === 'afternoon' || part === 'evening') return { value: 'pm', next: at + 3 };
  return undefined;
}

const clock = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(am|pm|a\.m\.?|p\.m\.?)?$/;
const hourMeridiem = /^(\d{1,2})(am|pm|a\.m\.?|p\.m\.?)$/;

/**
 * `14:05`, `14:05:30`, `2pm`, `2 pm`, `7:45 am`, `noon`, `midnight`.
 * @throws ParseError `bad_time` for a clock-shaped token that is no time (`25:00`, `13pm`).
 */
export function matchTimeOfDay(tokens: readonly Token[], at: number): Match<TimeOfDay> | undefined {
  const word = lowerAt(tokens, at);
  if (word === undefined) return undefined;
  if (word === 'noon' || word === 'midday')
    return { value: { hour: 12, minute: 0, second: 0 }, next: at + 1 };
  if (word === 'midnight') return { value: { hour: 0, minute: 0, second: 0 }, next: at + 1 };

  let hour: number;
  let minute = 0;
  let second = 0;
  let meridiem: string | undefined;
  let next = at + 1;
  const c = clock.exec(word);
  const h = c === null ? hourMeridiem.exec(word) : null;
  if (c !== null) {
    hour = Number(c[1]);
    minute = Number(c[2]);
    second = c[3] === undefined ? 0 : Number(c[3]);
    meridiem = c[4];
  } else if (h !== null) {
    hour = Number(h[1]);
    meridiem = h[2];
  } else if (/^\d{1,2}$/.test(word) && meridiems.has(lowerAt(tokens, at + 1) ?? '')) {
    hour = Number(word);
  } else if (/^\d{1,2}$/.test(word) && spokenMeridiem(tokens, at + 1) !== undefined) {
    hour = Number(word);
  } else {
    return undefined;
  }
  if (meridiem === undefined && meridiems.has(lowerAt(tokens, next) ?? '')) {
    meridiem = lowerAt(tokens, next);
    next++;
  }
  const spoken = meridiem === undefined ? spokenMeridiem(tokens, next) : undefined;
  if (spoken !== undefined) {
    meridiem = spoken.value;
    next = spoken.next;
  }
  const fragment = tokensText(tokens, at, next);
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) throw parseErrors.invalidDate(fragment);
    hour = (hour % 12) + (meridiems.get(meridiem) ?? 0);
  }
  if (hour > 23 || minute > 59 || second > 59) throw parseErrors.invalidDate(fragment);
  return { value: { hour, minute, second }, next };
}

/** A wall-clock time, then an optional offset that decides the instant: `GMT`, `UTC+2`, `+02:00`. */
export function withOffset(
  tokens: readonly Token[],
  at: number,
  date: DateRef | undefined,
  time: TimeOfDay,
): Match<Moment> {
  const offset = matchOffset(tokens, at);
  if (offset === undefined) return { value: { kind: 'local', date, time }, next: at };
  return { value: { kind: 'local', date, time, offsetMinutes: offset.value }, next: offset.next };
}

const namedUtc = /^(utc|gmt|z)([+-]\d{1,2}(:?\d{2})?)?$/;
const numericOffset = /^[+-](\d{1,2})(?::?(\d{2}))?$/;

/** `UTC`, `GMT`, `Z`, `UTC+2`, `GMT -05:00`, `+02:00`, `-0500` -> minutes east of UTC. */
function matchOffset(tokens: readonly Token[], at: number): Match<number> | undefined {
  const word = lowerAt(tokens, at);
  if (word === undefined) return undefined;
  const named = namedUtc.exec(word);
  if (named !== null) {
    if (named[2] !== undefined) return { value: offsetMinutes(tokens, at, named[2]), next: at + 1 };
    const after = lowerAt(tokens, at + 1);
    if (after !== undefined && numericOffset.test(after)) {
      return { value: offsetMinutes(tokens, at + 1, after), next: at + 2 };
    }
    return { value: 0, next: at + 1 };
  }
  if (word.length >= 5 && numericOffset.test(word)) {
    return { value: offsetMinutes(tokens, at, word), next: at + 1 };
  }
  return undefined;
}

function offsetMinutes(tokens: readonly Token[], at: number, text: string): number {
  const m = numericOffset.exec(text.replace(/^(utc|gmt|z)/, ''));
  const hours = Number(m?.[1] ?? Number.NaN);
  const minutes = Number(m?.[2] ?? 0);
  if (!(hours <= 14 && minutes <= 59))
    throw parseErrors.invalidDate(tokensText(tokens, at, at + 1));
  return (text.includes('-') ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * The part of the day named after `date` at `at` (`this morning`, `yesterday afternoon`, `last
 * night`): its stated hours, so the window shown says where it starts and ends.
 */
export function matchPartOfDay(
  tokens: readonly Token[],
  at: number,
  date: DateRef,
): Match<Moment> | undefined {
  const part = lowerAt(tokens, at);
  if (part === undefined || !Object.hasOwn(partsOfDay, part)) return undefined;
  return { value: { kind: 'part-of-day', date, part: part as PartOfDay }, next: at + 1 };
}

/** `9am-5pm`, `9:00-17:30`: two times of day glued by a dash; undefined for any other token. */
export function gluedTimes(token: Token | undefined): [TimeOfDay, TimeOfDay] | undefined {
  if (token?.kind !== 'word') return undefined;
  const dash = token.lower.indexOf('-');
  if (dash <= 0 || !/^\d/.test(token.lower)) return undefined;
  // `9-17h`: the continental clock's `h` after the end holds for both ends.
  const hours = /^(\d{1,2})h?-(\d{1,2})h$/.exec(token.lower);
  if (hours !== null) {
    const [start, end] = [Number(hours[1]), Number(hours[2])];
    if (start > 23 || end > 24) return undefined;
    return [
      { hour: start, minute: 0, second: 0 },
      { hour: end % 24, minute: 0, second: 0 },
    ];
  }
  const halves = [token.text.slice(0, dash), token.text.slice(dash + 1)].map((text) => [
    { ...token, text, lower: text.toLowerCase() },
  ]);
  const start = matchTimeOfDay(halves[0] as Token[], 0);
  const end = matchTimeOfDay(halves[1] as Token[], 0);
  if (start === undefined || end === undefined || start.next !== 1 || end.next !== 1) {
    return undefined;
  }
  return [start.value, end.value];
}
