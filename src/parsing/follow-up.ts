/**
 * A follow-up typed in a DM or a conversation's thread (`and for #lcsm?`, `what about #bcsm by
 * reach?`): the previous question there asked again with what the follow-up names changed.
 *
 * Decisions:
 * - Only text that opens like a follow-up is one (`and`, `and for`, `what about`, `how about`,
 *   `same for`); anything else is a question of its own, read as always.
 * - The window (with its zone, comparison and trend) is kept as it was read, to the second, unless
 *   the follow-up names a time, a zone, a comparison or a trend: then the follow-up's reading wins.
 * - Each option is kept unless named: the count with the way of showing it, the ranking metric
 *   (and `by followers`), who to keep. An export is never repeated unasked, and a person is never
 *   carried over: `and for #lcsm?` after `@x in #hcsm` ranks #lcsm.
 * - A follow-up that names no database (`and by impressions?`) asks about the previous ones.
 * - `only` narrows what the previous question kept (`and doctors only?`, `only nurses`): it is
 *   scaffolding, never a database.
 */
import type { ParseError } from '../errors.ts';
import type { LookupRequest, ParseContext } from '../model/lookup.ts';
import { type NamedClause, namedClauses, parseLookup } from './lookup.ts';

const openers: readonly RegExp[] = [
  /^(?:(?:and|also|now|ok|okay)[\s,]+)?(?:what|how)\s+about\s+/i,
  /^(?:and\s+)?(?:the\s+)?same\s+(?:for|with)\s+/i,
  /^(?:and|also|now)\s+(?:for|with)\s+/i,
  /^and\s+/i,
];

/** The text after a follow-up's opening, or undefined when `text` does not open like one. */
export function followUpRest(text: string): string | undefined {
  const trimmed = text.trim();
  for (const opener of openers) {
    const match = opener.exec(trimmed);
    if (match !== null && match[0].length < trimmed.length) {
      return withoutOnly(trimmed.slice(match[0].length));
    }
  }
  return undefined;
}

/** `rest` without the word `only` standing alone; the rest as typed when nothing else is left. */
function withoutOnly(rest: string): string {
  const narrowed = rest.replace(/(?:^|\s+)only(?=[\s?.!,]|$)/giu, '').trim();
  return narrowed.replace(/[?.!,\s]/gu, '') === '' ? rest : narrowed;
}

/** A database as the grammar reads it back: phrases quoted, the rest as they are. */
function typedDatabase(database: string): string {
  return /^(?:#\S+|\d+|group:\S+)$/i.test(database) ? database : `"${database}"`;
}

/**
 * `text` read as a follow-up to `previous` (see the header), or undefined when it does not open
 * like one. A follow-up the grammar refuses gets the parser's own words.
 */
export function parseFollowUp(
  text: string,
  previous: LookupRequest,
  context: ParseContext,
): LookupRequest | ParseError | undefined {
  const rest = followUpRest(text);
  if (rest === undefined) return undefined;
  const conversation = { ...context, conversation: true };
  let asked = rest;
  let parsed = parseLookup(asked, conversation);
  if (parsed instanceof Error && parsed.reason === 'no_database') {
    asked = `${previous.databases.map(typedDatabase).join(', ')} ${rest}`;
    parsed = parseLookup(asked, conversation);
  }
  if (parsed instanceof Error) return parsed;
  return keptFrom(previous, parsed, namedClauses(asked));
}

/** `parsed` with what it does not name taken from `previous`. */
function keptFrom(
  previous: LookupRequest,
  parsed: LookupRequest,
  named: ReadonlySet<NamedClause>,
): LookupRequest {
  if (named.has('person') || previous.person !== undefined) {
    return named.has('person') ? parsed : keptOptions(previous, parsed, named);
  }
  const windowNamed = ['time', 'zone', 'compare', 'trend'].some((clause) =>
    named.has(clause as NamedClause),
  );
  const { start, end, timezone, zoneAlias, compare, trend } = previous;
  const window = windowNamed
    ? parsed
    : {
        ...withoutWindow(parsed),
        start,
        end,
        timezone,
        ...(zoneAlias === undefined ? {} : { zoneAlias }),
        ...(compare === undefined ? {} : { compare }),
        ...(trend === undefined ? {} : { trend }),
      };
  return keptOptions(previous, window, named);
}

function withoutWindow(request: LookupRequest): LookupRequest {
  const { zoneAlias: _alias, compare: _compare, trend: _trend, ...rest } = request;
  return rest;
}

function keptOptions(
  previous: LookupRequest,
  request: LookupRequest,
  named: ReadonlySet<NamedClause>,
): LookupRequest {
  let kept: LookupRequest = request;
  // A trend shows its own table and chart: its count and presentation are its own.
  if (!named.has('top') && !named.has('show') && kept.trend === undefined) {
    const { presentation: _shown, ...rest } = kept;
    kept = {
      ...rest,
      top: previous.top,
      ...(previous.presentation === undefined ? {} : { presentation: previous.presentation }),
    };
  }
  if (!named.has('metric')) {
    const { metric: _metric, orderBy: _orderBy, ...rest } = kept;
    kept = {
      ...rest,
      ...(previous.metric === undefined ? {} : { metric: previous.metric }),
      ...(previous.orderBy === undefined ? {} : { orderBy: previous.orderBy }),
    };
  }
  if (!named.has('stakeholders') && previous.stakeholders !== undefined) {
    kept = { ...kept, stakeholders: previous.stakeholders };
  }
  return kept;
}
