/**
 * Timestamp interpretation of the analytics service (spec §2.4), as the sandbox applies it to
 * `start` and `end`. Pure: the caller passes `now` and the request's IANA zone.
 *
 * The forms are tried from the most to the least specific, so a value never falls through to the
 * lenient English parser when a strict form matches it.
 */
import * as chrono from 'chrono-node';
import { DateTime, type DurationLikeObject, IANAZone } from 'luxon';

export type TimestampForm =
  | 'now'
  | 'unix'
  | 'iso-offset'
  | 'iso-local'
  | 'date'
  | 'us-date'
  | 'relative'
  | 'english';

export type TimestampResult =
  | { readonly ok: true; readonly instant: Date; readonly form: TimestampForm }
  | { readonly ok: false; readonly reason: string };

export interface TimestampContext {
  readonly now: Date;
  /** IANA zone (or `UTC`) used for every value that carries no offset of its own. */
  readonly zone: string;
}

/** Zones the service accepts: `UTC` or a city-based `<Area>/<City>` IANA name. */
export function isAcceptedZone(zone: string): boolean {
  if (zone === 'UTC') return true;
  return /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+$/.test(zone) && IANAZone.isValidZone(zone);
}

// A year below this is almost certainly a unit mistake (milliseconds, a typo) rather than a query.
const earliestInstantMs = Date.UTC(1970, 0, 1);
const latestInstantMs = Date.UTC(9999, 11, 31, 23, 59, 59);

const isoWithOffset =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)(Z|[+-]\d{2}(?::?\d{2})?)$/i;
const isoLocal = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)$/i;
const isoDate = /^\d{4}-\d{2}-\d{2}$/;
/** Eight digits are a basic ISO 8601 date (YYYYMMDD), not unix seconds of 1970-1973. */
const compactDate = /^(\d{4})(\d{2})(\d{2})$/;
const usDate =
  /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})(?:,?\s+(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(?:([ap])\.?m\.?)?)?$/i;
const agoPhrase =
  /^(\d+|an?|one)\s+(second|sec|minute|min|hour|hr|day|week|wk|month|year|yr)s?\s+ago$/i;
const signedOffset =
  /^([+-])\s*(\d+)\s+(second|sec|minute|min|hour|hr|day|week|wk|month|year|yr)s?$/i;

const unitNames: Readonly<Record<string, keyof DurationLikeObject>> = {
  second: 'seconds',
  sec: 'seconds',
  minute: 'minutes',
  min: 'minutes',
  hour: 'hours',
  hr: 'hours',
  day: 'days',
  week: 'weeks',
  wk: 'weeks',
  month: 'months',
  year: 'years',
  yr: 'years',
};

/**
 * Interprets one `start`/`end` value. Every accepted form resolves to an instant rounded to the
 * nearest second; anything else is refused with a reason fit for an error message.
 */
export function parseTimestamp(raw: string, context: TimestampContext): TimestampResult {
  const value = raw.trim();
  if (value === '') return { ok: false, reason: 'it is empty' };
  if (!isAcceptedZone(context.zone)) return { ok: false, reason: `unknown zone ${context.zone}` };
  const zone = context.zone;
  // Every relative form counts from the same whole second, so `last week` and `7 days ago` agree.
  const now = DateTime.fromMillis(Math.round(context.now.getTime() / 1000) * 1000, { zone });

  if (/^now$/i.test(value)) return accept(now, 'now');

  const compact = compactDate.exec(value);
  if (compact) {
    const [, year, month, day] = compact;
    const parsed = DateTime.fromObject(
      { year: Number(year), month: Number(month), day: Number(day) },
      { zone },
    );
    return accept(earlierOfRepeated(parsed), 'date');
  }

  if (/^-?\d+$/.test(value)) {
    return accept(DateTime.fromSeconds(Number(value), { zone }), 'unix');
  }

  const withOffset = isoWithOffset.exec(value);
  if (withOffset) {
    const [, date, time, offset] = withOffset;
    const normalisedOffset = offset?.toUpperCase() === 'Z' ? 'Z' : normaliseOffset(offset ?? '');
    const parsed = DateTime.fromISO(`${date}T${time?.replace(',', '.')}${normalisedOffset}`, {
      setZone: true,
    });
    return accept(parsed, 'iso-offset');
  }

  const local = isoLocal.exec(value);
  if (local) {
    const [, date, time] = local;
    return accept(
      earlierOfRepeated(DateTime.fromISO(`${date}T${time?.replace(',', '.')}`, { zone })),
      'iso-local',
    );
  }

  if (isoDate.test(value))
    return accept(earlierOfRepeated(DateTime.fromISO(value, { zone })), 'date');

  const us = usDate.exec(value);
  if (us) return parseUsDate(us, zone);

  const ago = agoPhrase.exec(value);
  if (ago) {
    const amount = /^\d+$/.test(ago[1] ?? '') ? Number(ago[1]) : 1;
    return shift(now, -amount, ago[2] ?? '');
  }

  const signed = signedOffset.exec(value);
  if (signed) {
    const amount = Number(signed[2]) * (signed[1] === '-' ? -1 : 1);
    return shift(now, amount, signed[3] ?? '');
  }

  return parseEnglish(value, now);
}

function normaliseOffset(offset: string): string {
  const digits = offset.slice(1).replace(':', '');
  const hours = digits.slice(0, 2);
  const minutes = digits.slice(2) || '00';
  return `${offset[0]}${hours}:${minutes}`;
}

function parseUsDate(match: RegExpExecArray, zone: string): TimestampResult {
  const [, month, day, yearText, hourText, minuteText, secondText, meridiem] = match;
  const yearNumber = Number(yearText);
  // Two-digit years pivot like PHP's strtotime: 00-69 are 20xx, 70-99 are 19xx.
  const year =
    yearText?.length === 2 ? (yearNumber < 70 ? 2000 + yearNumber : 1900 + yearNumber) : yearNumber;
  let hour = hourText === undefined ? 0 : Number(hourText);
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return { ok: false, reason: `hour ${hour} is not valid with am/pm` };
    hour = (hour % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0);
  }
  const parsed = DateTime.fromObject(
    {
      year,
      month: Number(month),
      day: Number(day),
      hour,
      minute: minuteText === undefined ? 0 : Number(minuteText),
      second: secondText === undefined ? 0 : Number(secondText),
    },
    { zone },
  );
  return accept(earlierOfRepeated(parsed), 'us-date');
}

function shift(now: DateTime, amount: number, unitText: string): TimestampResult {
  const unit = unitNames[unitText.toLowerCase()];
  if (unit === undefined) return { ok: false, reason: `unknown unit ${unitText}` };
  return accept(now.plus({ [unit]: amount }), 'relative');
}

// chrono implies noon for a bare date; the service's rule is midnight, except for phrases that
// name a time of day or are relative to now ("last week" keeps the current time).
const tagsThatKeepImpliedTime = [
  'result/relativeDate',
  'parser/ENCasualTimeParser',
  'casualReference/tonight',
  'casualReference/now',
];

function parseEnglish(value: string, now: DateTime): TimestampResult {
  const results = chrono.parse(value, { instant: now.toJSDate(), timezone: now.offset });
  const result = results[0];
  if (result === undefined || results.length > 1) return unrecognised();
  const leftover = (
    value.slice(0, result.index) + value.slice(result.index + result.text.length)
  ).replace(/[\s,.]/g, '');
  if (leftover !== '') return unrecognised();

  const start = result.start;
  if (start.isCertain('timezoneOffset')) {
    return accept(DateTime.fromJSDate(start.date(), { zone: now.zone }), 'english');
  }
  const tags = start.tags();
  const keepTime = start.isCertain('hour') || tagsThatKeepImpliedTime.some((tag) => tags.has(tag));
  const relativeDateAndTime = tags.has('result/relativeDateAndTime');
  if (relativeDateAndTime) {
    return accept(DateTime.fromJSDate(start.date(), { zone: now.zone }), 'english');
  }
  const parsed = DateTime.fromObject(
    {
      year: start.get('year') ?? now.year,
      month: start.get('month') ?? now.month,
      day: start.get('day') ?? now.day,
      hour: keepTime ? (start.get('hour') ?? 0) : 0,
      minute: keepTime ? (start.get('minute') ?? 0) : 0,
      second: keepTime ? (start.get('second') ?? 0) : 0,
    },
    { zone: now.zone },
  );
  // A date named without its year asks about what happened: its most recent occurrence, never the
  // coming one chrono may pick (`Jan 5` asked in November is the January just past).
  const yearless = start.isCertain('month') && start.isCertain('day') && !start.isCertain('year');
  if (yearless && parsed.isValid && parsed > now) {
    return accept(earlierOfRepeated(parsed.minus({ years: 1 })), 'english');
  }
  return accept(earlierOfRepeated(parsed), 'english');
}

/**
 * A wall-clock time that happens twice (when clocks go back) means its first occurrence, as in
 * most date libraries; luxon alone would pick the second. A time skipped by a change to daylight
 * time already moves forward by the size of the gap.
 */
function earlierOfRepeated(value: DateTime): DateTime {
  if (!value.isValid) return value;
  for (const minutes of [30, 60, 120]) {
    const earlier = value.minus({ minutes });
    if (earlier.toFormat('yyyy-MM-dd HH:mm:ss.SSS') === value.toFormat('yyyy-MM-dd HH:mm:ss.SSS')) {
      return earlier;
    }
  }
  return value;
}

function unrecognised(): TimestampResult {
  return { ok: false, reason: 'it is not a recognised timestamp' };
}

function accept(value: DateTime, form: TimestampForm): TimestampResult {
  if (!value.isValid) return { ok: false, reason: 'it is not a valid date or time' };
  const ms = Math.round(value.toMillis() / 1000) * 1000;
  if (ms < earliestInstantMs || ms > latestInstantMs) {
    return { ok: false, reason: 'it is outside the years 1970 to 9999' };
  }
  return { ok: true, instant: new Date(ms), form };
}

/** Formats an instant as ISO 8601 with the zone's offset, to the second, as the service echoes it. */
export function formatInZone(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toISO({ suppressMilliseconds: true }) ?? '';
}
