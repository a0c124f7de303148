/**
 * The `/influencers` lookup grammar: `<databases> [time window] [in <zone>] [top N]`, in any
 * order, -> the request sent to the analytics service.
 */
import { ParseError } from '../errors.ts';
import { uniqueDatabases } from './databases.ts';
import { type Clauses, scanCommand } from './grammar.ts';
import { parseErrors } from './messages.ts';
import { matchTopOption, matchZoneOption } from './options.ts';
import { normaliseSlackText } from './slack-text.ts';
import {
  defaultTimeWindow,
  evaluateTimeExpression,
  formatInstant,
  matchTimeExpression,
  rejectMisspeltTime,
  type TimeExpression,
} from './time/index.ts';
import { tokenize } from './tokens.ts';
import type { LookupRequest, ParseContext, ParseDefaults } from './types.ts';
import { resolveZone } from './zone.ts';

export const lookupDefaults: Required<ParseDefaults> = { windowDays: 7, top: 10, maxDatabases: 10 };

interface LookupClauses {
  zone: string;
  top: number;
  time: TimeExpression;
  misspeltTime: never;
}

/** Order matters: `in Europe/Paris` is a zone before `in September` can be a time. */
const lookupClauses: Clauses<LookupClauses> = {
  zone: matchZoneOption,
  top: matchTopOption,
  time: matchTimeExpression,
  misspeltTime: rejectMisspeltTime,
};

/**
 * Reads a lookup typed in Slack (raw `text` of the slash command) at `context.now`. The zone is
 * the one the text names, else `context.zone` (the user's Slack zone) when it is a real zone,
 * else UTC. Returns the ParseError rather than throwing it, so callers cannot forget the case.
 */
export function parseLookup(text: string, context: ParseContext): LookupRequest | ParseError {
  try {
    return readLookup(text, context);
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
}

function readLookup(raw: string, context: ParseContext): LookupRequest {
  if (Number.isNaN(context.now.getTime())) throw new RangeError('parseLookup needs a valid `now`');
  const defaults = { ...lookupDefaults, ...context.defaults };
  const text = normaliseSlackText(raw).trim();
  const tokens = tokenize(text);
  if (tokens.every((token) => token.kind === 'comma')) throw parseErrors.empty();

  const scan = scanCommand(text, tokens, lookupClauses);
  let zone: string | undefined;
  let top: number | undefined;
  let time: { value: TimeExpression; fragment: string } | undefined;
  for (const clause of scan.clauses) {
    switch (clause.kind) {
      case 'zone':
        if (zone !== undefined) throw parseErrors.repeatedOption(clause.fragment, 'time zone');
        zone = clause.value;
        break;
      case 'top':
        if (top !== undefined)
          throw parseErrors.repeatedOption(clause.fragment, 'number of results');
        top = clause.value;
        break;
      case 'time':
        if (time !== undefined) throw parseErrors.twoWindows(time.fragment, clause.fragment);
        time = clause;
        break;
      case 'misspeltTime':
        break;
    }
  }

  const databases = uniqueDatabases(scan.databases, defaults.maxDatabases);
  if (databases.length === 0) throw parseErrors.noDatabase(text);

  const timezone = zone ?? resolveZone(context.zone) ?? 'UTC';
  const timeContext = { now: context.now, zone: timezone };
  const window =
    time === undefined
      ? defaultTimeWindow(timeContext, defaults.windowDays)
      : evaluateTimeExpression(time.value, timeContext, time.fragment);
  return {
    databases,
    start: formatInstant(window.start),
    end: formatInstant(window.end),
    timezone,
    top: top ?? defaults.top,
  };
}
