/** What the lookup tests share: the reference instant and readers that fail loudly. */
import { ParseError } from '../../src/errors.ts';
import { type LookupRequest, type ParseContext, parseLookup } from '../../src/parsing/index.ts';

/** Saturday 21 Nov 2026, 15:30 UTC: the instant every lookup test reads at unless it says. */
export const saturday = new Date('2026-11-21T15:30:00Z');

/** The request `text` reads as; fails the test on a ParseError, quoting its message. */
export function lookup(
  text: string,
  zone = 'UTC',
  now = saturday,
  defaults?: ParseContext['defaults'],
): LookupRequest {
  const result = parseLookup(
    text,
    defaults === undefined ? { now, zone } : { now, zone, defaults },
  );
  if (result instanceof ParseError)
    throw new Error(`expected a request for "${text}", got: ${result.message}`);
  return result;
}

/** The ParseError `text` reads as; fails the test on a request. */
export function failure(text: string, zone = 'UTC', now = saturday): ParseError {
  const result = parseLookup(text, { now, zone });
  if (!(result instanceof ParseError))
    throw new Error(`expected an error for "${text}", got ${JSON.stringify(result)}`);
  return result;
}

/** The window `text` reads as: [start, end] as the request sends them. */
export const window = (text: string, zone = 'UTC', now = saturday): [string, string] => {
  const r = lookup(text, zone, now);
  return [r.start, r.end];
};
