/**
 * Pure helpers that read what the service says when it does not answer with data: Retry-After,
 * error bodies (JSON, HTML or nothing) and the database an error is about.
 */

/** Longest service explanation kept in an error message. */
export const serviceMessageMaxChars = 200;

/**
 * How much of a body is read for its explanation. Far beyond the kept length, so scrubbing (which
 * can shorten the text) still sees every character that could end up in the message.
 */
const serviceTextReadChars = 8192;

/**
 * Milliseconds to wait according to a Retry-After value: delta-seconds or an HTTP-date (RFC 9110
 * §10.2.3). `undefined` when absent or unreadable; a date in the past means no wait.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Exponential backoff with full jitter: `random() * min(max, base * 2^retryIndex)`. */
export function backoffDelayMs(
  retryIndex: number,
  backoffBaseMs: number,
  backoffMaxMs: number,
  random: () => number,
): number {
  return Math.floor(random() * Math.min(backoffMaxMs, backoffBaseMs * 2 ** retryIndex));
}

export interface ErrorBody {
  /** The service's explanation, single-line and bounded; never a raw HTML page. */
  readonly message: string | undefined;
  /** The `database` field of a JSON error body. */
  readonly database: string | undefined;
}

/**
 * Reads an error body whatever its form: JSON with `message`, `error_description` or `error`; an
 * HTML page (reduced to its title or text); plain text; or nothing. `scrub` sees each text whole,
 * before it is shortened, so a credential the service echoes cannot survive half-cut.
 */
export function readErrorBody(
  text: string,
  contentType: string | undefined,
  scrub: (text: string) => string = (unchanged) => unchanged,
): ErrorBody {
  const trimmed = text.trim();
  if (trimmed === '') return { message: undefined, database: undefined };
  if (trimmed.startsWith('{')) {
    const json = tryParseJson(trimmed);
    if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
      const record = json as Record<string, unknown>;
      const message =
        nonEmptyString(record.message) ??
        nonEmptyString(record.error_description) ??
        nonEmptyString(record.error);
      const database = nonEmptyString(record.database);
      return {
        message: message === undefined ? undefined : cleanText(message, scrub),
        database: database === undefined ? undefined : scrub(database),
      };
    }
  }
  const looksLikeHtml =
    /html/i.test(contentType ?? '') || /^<(!doctype|html|head|body)/i.test(trimmed);
  return {
    message: looksLikeHtml ? htmlText(trimmed, scrub) : cleanText(trimmed, scrub),
    database: undefined,
  };
}

/**
 * The requested database an error is about: the body's `database` field when present, else the
 * longest requested item the message names (so `#hcsm` is not taken for `#hcsmeu`).
 */
export function offendingDatabase(
  body: ErrorBody,
  databases: readonly string[],
): string | undefined {
  if (body.database !== undefined) return body.database;
  if (body.message === undefined) return undefined;
  const message = body.message.toLowerCase();
  let found: string | undefined;
  for (const item of databases) {
    if (
      message.includes(item.toLowerCase()) &&
      (found === undefined || item.length > found.length)
    ) {
      found = item;
    }
  }
  return found;
}

function htmlText(html: string, scrub: (text: string) => string): string | undefined {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const source = title && title.trim() !== '' ? title : html;
  const text = source
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
  return cleanText(text, scrub);
}

function cleanText(text: string, scrub: (text: string) => string): string | undefined {
  const single = scrub(
    text
      .slice(0, serviceTextReadChars)
      .replace(/\p{Cc}+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  if (single === '') return undefined;
  return single.length > serviceMessageMaxChars
    ? `${single.slice(0, serviceMessageMaxChars - 1)}…`
    : single;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
