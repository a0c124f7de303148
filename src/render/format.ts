/**
 * How every message writes what it shows: safe mrkdwn, clean names, numbers, dates and windows.
 * Whatever came from the service or a person goes through here before it lands in a message.
 */
import { LRUCache } from 'lru-cache';
import { DateTime } from 'luxon';
import type { LookupRequest } from '../model/lookup.ts';
import { zoneFor } from '../time/zones.ts';

/** Every date a person reads is formatted in English: the rest of the bot's words are English too. */
export const locale = 'en-US';

/**
 * Escapes the three characters Slack's mrkdwn treats as control characters. Every string that did
 * not come from this codebase goes through here (or through {@link neutralizeMrkdwn}) before it
 * lands in a mrkdwn text object.
 */
export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Reverses {@link escapeMrkdwn}; `&amp;` last so `&amp;lt;` stays `&lt;`. */
export function unescapeMrkdwn(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

// Bidirectional overrides and isolates can make a name display as something else entirely.
const bidiControls = /[\u202A-\u202E\u2066-\u2069]/g;
// C0 and C1 controls; tabs and newlines become plain spaces below.
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const controlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
// Anything {@link cleanText} would change but lone surrogates: a control or bidi character,
// whitespace other than a lone space between words, or whitespace at either end.
const needsCleaning =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[^\S ]|\s\s|^\s|\s$/u;

/**
 * Makes a service- or user-supplied string safe to show on one line: well-formed UTF-16, no control
 * or bidi-override characters, whitespace runs (newlines included) collapsed to one space.
 */
export function cleanText(text: string): string {
  // Most names need nothing: one scan says so, where the passes below copy the text four times.
  if (!needsCleaning.test(text) && text.isWellFormed()) return text;
  return text
    .toWellFormed()
    .replace(bidiControls, '')
    .replace(controlCharacters, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

const isWordCharacter = (char: string | undefined): boolean =>
  char !== undefined && /[\p{L}\p{N}]/u.test(char);

/**
 * Keeps text from outside from becoming a clickable URL where Slack links bare URLs (messages and
 * canvases alike): `://` loses its colon to a lookalike (∶ ratio), which reads the same.
 */
export function unlinkUrls(text: string): string {
  return text.replaceAll('://', '\u2236//');
}

/**
 * Turns a string from outside (a display name, a handle, a category, a database name) into mrkdwn
 * that displays it literally. Escaping alone stops links and mentions (`<!channel>`, `<@U1>`,
 * `<http://x|y>`) but not `*bold*`, `_italic_`, `~strike~` or `` `code` ``, which Slack offers no
 * escape for: those characters become lookalikes. An underscore between two letters or digits
 * (`jane_doe`) cannot open or close italics, so it is kept. No name becomes a clickable URL
 * ({@link unlinkUrls}).
 */
export function neutralizeMrkdwn(text: string): string {
  const clean = cleanText(text);
  const chars = Array.from(clean);
  let out = '';
  for (let index = 0; index < chars.length; index += 1) {
    const char = chars[index] as string;
    switch (char) {
      case '*':
        out += '\u2217'; // ∗ asterisk operator
        break;
      case '~':
        out += '\u223C'; // ∼ tilde operator
        break;
      case '`':
        out += '\u02CB'; // ˋ modifier letter grave accent
        break;
      case '_':
        out +=
          isWordCharacter(chars[index - 1]) && isWordCharacter(chars[index + 1]) ? '_' : '\u02CD'; // ˍ
        break;
      default:
        out += char;
    }
  }
  return escapeMrkdwn(unlinkUrls(out));
}

/**
 * Shortens `text` to at most `max` UTF-16 units (Slack's limits are counted at least that finely),
 * ending with `…`, never splitting a surrogate pair.
 */
export function truncate(text: string, max: number, ellipsis = '…'): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - ellipsis.length);
  if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  return `${text.slice(0, cut).trimEnd()}${ellipsis}`;
}

/**
 * Like {@link truncate} for mrkdwn: never cuts inside an entity (`&amp;`) or a `<…>` token (a link,
 * a mention, a date), which would leave broken markup behind.
 */
export function truncateMrkdwn(text: string, max: number, ellipsis = '…'): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - ellipsis.length);
  if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  const head = text.slice(0, cut);
  const openToken = head.lastIndexOf('<');
  if (openToken > head.lastIndexOf('>')) cut = openToken;
  const ampersand = head.lastIndexOf('&');
  if (ampersand >= 0 && ampersand < cut && !head.slice(ampersand, cut).includes(';')) {
    cut = ampersand;
  }
  return `${text.slice(0, cut).trimEnd()}${ellipsis}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

const units = ['', 'K', 'M', 'B', 'T'] as const;

/**
 * Compact numbers as people read them in a ranking: 999 -> 999, 1,234 -> 1.2K, 12,345 -> 12.3K,
 * 999,950 -> 1M (rounding never shows "1000K"), 1,500,000 -> 1.5M. One decimal at most, dropped
 * when it is zero; below 1,000 fractions keep one decimal (scores such as 87.35 -> 87.4).
 */
export function compactNumber(value: number): string {
  if (!Number.isFinite(value)) return '–';
  const sign = value < 0 ? '-' : '';
  let magnitude = Math.abs(value);
  let unitIndex = 0;
  // Tenths of the current unit, rounded half up; 10,000 tenths means the next unit.
  let tenths = Math.round(magnitude * 10);
  while (tenths >= 10_000 && unitIndex < units.length - 1) {
    magnitude /= 1000;
    unitIndex += 1;
    tenths = Math.round(magnitude * 10);
  }
  if (tenths === 0) return '0';
  const whole = Math.floor(tenths / 10);
  const decimal = tenths % 10;
  // Grouping only matters past 999 of the last unit; toLocaleString is slow on a hot path.
  const digits = unitIndex === 0 || whole < 1000 ? whole.toString() : whole.toLocaleString('en-US');
  return `${sign}${digits}${decimal === 0 ? '' : `.${decimal}`}${units[unitIndex]}`;
}

/**
 * Database names as a person would type them back: hashtags and ids as they are, phrases with a
 * space or a comma in quotes, group names likewise (`group:"Rare Diseases"`).
 */
export function formatDatabase(database: string): string {
  const needsQuotes = (name: string): boolean => /[\s,]/u.test(name);
  if (database.startsWith('group:')) {
    const name = database.slice('group:'.length);
    return needsQuotes(name) ? `group:"${name}"` : database;
  }
  return needsQuotes(database) ? `"${database}"` : database;
}

/** `#hcsm, "breast cancer", group:Oncology`: plain text, not yet escaped. */
export function formatDatabases(databases: readonly string[]): string {
  return databases.map((database) => formatDatabase(cleanText(database))).join(', ');
}

/** The instant in the request's zone; falls back to the offset written in the string. */
export function instantInZone(iso: string, zone: string): DateTime {
  const inZone = DateTime.fromISO(iso, { zone: zoneFor(zone), locale });
  if (inZone.isValid) return inZone;
  return DateTime.fromISO(iso, { setZone: true, locale });
}

/**
 * `<!date^…>` token that Slack renders in each reader's own zone and locale; the fallback (for
 * clients that cannot) is written in the query's zone with its short name: "Nov 14, 2026 00:00 EST".
 */
export function slackDate(iso: string, zone: string): string {
  const instant = instantInZone(iso, zone);
  if (!instant.isValid) return escapeMrkdwn(cleanText(iso));
  const seconds = Math.floor(instant.toSeconds());
  return `<!date^${seconds}^{date_short_pretty} {time}|${readerDate(instant)}>`;
}

const readerDateFormat = 'LLL d, yyyy HH:mm ZZZZ';

/**
 * A `<!date^…>` token's instant as its reader in `zone` reads it, where Slack does not draw it
 * (the console): "Nov 30, 2026 23:00 GMT+9". Undefined for seconds that are no instant.
 */
export function readerDateAt(seconds: number, zone: string): string | undefined {
  const instant = DateTime.fromSeconds(seconds, { zone: zoneFor(zone), locale });
  return instant.isValid ? readerDate(instant) : undefined;
}

function readerDate(instant: DateTime): string {
  return instant.toFormat(readerDateFormat);
}

/**
 * The exact window in the query's zone, for text that is not rendered per reader: "Nov 14 00:00 to
 * Nov 21 00:00 EST". The zone's short name follows each endpoint when they differ (a DST change in
 * the window). Years are shown unless both endpoints fall in the year of `now`.
 */
export function formatWindow(
  request: Pick<LookupRequest, 'start' | 'end' | 'timezone'>,
  now?: Date,
): string {
  const start = instantInZone(request.start, request.timezone);
  const end = instantInZone(request.end, request.timezone);
  if (!start.isValid || !end.isValid) {
    return `${cleanText(request.start)} to ${cleanText(request.end)}`;
  }
  const nowYear =
    now === undefined ? undefined : DateTime.fromJSDate(now, { zone: start.zone }).year;
  const showYear = nowYear === undefined || start.year !== nowYear || end.year !== nowYear;
  const pattern = showYear ? 'LLL d, yyyy HH:mm' : 'LLL d HH:mm';
  const startZone = start.toFormat('ZZZZ');
  const endZone = end.toFormat('ZZZZ');
  const startText = start.toFormat(pattern) + (startZone === endZone ? '' : ` ${startZone}`);
  return `${startText} to ${end.toFormat(pattern)} ${endZone}`;
}

/**
 * The window in words for messages that are not rendered per reader (the pending message): whole
 * days as days, "Oct 1 – Oct 31, whole days, EDT" or "Nov 20, whole day, EST", since a window from
 * midnight to midnight holds every day it names and the reader should not wonder whether the last
 * one counts; any other window as its exact ends ({@link formatWindow}). Years as there.
 */
export function windowWords(
  request: Pick<LookupRequest, 'start' | 'end' | 'timezone'>,
  now?: Date,
): string {
  // Its words depend on the window, the zone and the current year alone, and most lookups name
  // one of a few windows ("last week", "yesterday"): remembered, the pending message that every
  // command acks with skips a dozen luxon conversions.
  const year = unambiguousYear(now);
  const key =
    year === undefined ? undefined : `${request.start} ${request.end} ${request.timezone} ${year}`;
  let words = key === undefined ? undefined : windowWordsMemo.get(key);
  if (words === undefined) {
    words = wholeDays(request, now) ?? formatWindow(request, now);
    if (key !== undefined) windowWordsMemo.set(key, words);
  }
  return words;
}

const windowWordsMemo = new LRUCache<string, string>({ max: 1_000 });

/**
 * The year of `now` in every zone: its UTC year, except on December 31 and January 1 (UTC), when
 * some zone is already, or still, in another year. `''` without `now`.
 */
function unambiguousYear(now: Date | undefined): number | '' | undefined {
  if (now === undefined) return '';
  const month = now.getUTCMonth();
  const day = now.getUTCDate();
  if ((month === 11 && day === 31) || (month === 0 && day === 1)) return undefined;
  return now.getUTCFullYear();
}

/** {@link windowWords} for a window of whole days; undefined for any other window. */
export function wholeDays(
  request: Pick<LookupRequest, 'start' | 'end' | 'timezone'>,
  now?: Date,
): string | undefined {
  const start = instantInZone(request.start, request.timezone);
  const last = lastWholeDay(start, instantInZone(request.end, request.timezone));
  if (last === undefined) return undefined;
  const nowYear =
    now === undefined ? undefined : DateTime.fromJSDate(now, { zone: start.zone }).year;
  const showYear = nowYear === undefined || start.year !== nowYear || last.year !== nowYear;
  const pattern = showYear ? 'LLL d, yyyy' : 'LLL d';
  const startZone = start.toFormat('ZZZZ');
  const lastZone = last.toFormat('ZZZZ');
  const zones = startZone === lastZone ? startZone : `${startZone}/${lastZone}`;
  return +last === +start
    ? `${start.toFormat(pattern)}, whole day, ${zones}`
    : `${start.toFormat(pattern)} – ${last.toFormat(pattern)}, whole days, ${zones}`;
}

/**
 * The start of the last day a window holds when it runs from one midnight of its zone to a later
 * one; undefined for any other window.
 */
function lastWholeDay(start: DateTime, end: DateTime): DateTime | undefined {
  if (!start.isValid || !end.isValid || end <= start) return undefined;
  if (+start !== +start.startOf('day') || +end !== +end.startOf('day')) return undefined;
  return end.minus({ days: 1 }).startOf('day');
}

/**
 * Days of the window for a notification line: "Nov 14–Nov 20", with years when the endpoints are in
 * different years ("Dec 28, 2025–Jan 3, 2026"). A window that ends at midnight ends with the day
 * before it, the last one it holds; a single whole day is that day alone ("Nov 20").
 */
export function formatDayRange(request: Pick<LookupRequest, 'start' | 'end' | 'timezone'>): string {
  const start = instantInZone(request.start, request.timezone);
  const end = instantInZone(request.end, request.timezone);
  if (!start.isValid || !end.isValid)
    return `${cleanText(request.start)}–${cleanText(request.end)}`;
  const last = lastWholeDay(start, end) ?? end;
  const pattern = start.year === last.year ? 'LLL d' : 'LLL d, yyyy';
  if (+last === +start) return start.toFormat(pattern);
  return `${start.toFormat(pattern)}–${last.toFormat(pattern)}`;
}

/**
 * "45 seconds", "2 minutes", "about 3 hours": how long to wait, in words. Rounded up, so a person
 * told to wait never retries too early; for time already spent use {@link formatElapsed}.
 */
export function formatDuration(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return `about ${hours} hours`;
}

/**
 * How long something has already taken, in words: rounded down, so an update sent after 8 seconds
 * (and a few milliseconds of timer lag) says "8 seconds so far", never "9".
 */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(1, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  return `about ${hours} hours`;
}
