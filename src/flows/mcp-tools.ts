/**
 * The MCP tools `top_influencers` and `read_window`: each input is one slot of the lookup
 * grammar (a window, a comparison, stakeholders...), read by the grammar on its own beside the
 * databases, so an agent gets exactly what a person typing the same words in Slack would (every
 * limit, the lookup deadline, shared and cached service calls) and a field can neither spill into
 * another (`previous period` then `doctors`) nor turn into a database (`banana` as a window).
 * Bolt-free and MCP-free: the MCP surface passes the inputs in and turns the outcome into a tool
 * result.
 */
import type { ParseError } from '../errors.ts';
import { defined } from '../model/defined.ts';
import type { LookupRequest } from '../model/lookup.ts';
import { cleanText } from '../render/format.ts';
import {
  type RankingContent,
  rankingContent,
  readWindowText,
  type ToolSlot,
  toolRefusals,
  toolText,
  type WindowReading,
  windowReading,
} from '../render/lookups/mcp-tools.ts';
import { utcFallbackNote, zoneAliasNote } from '../render/lookups/status.ts';
import { mrkdwnToPlain } from '../render/text.ts';
import { renderMade } from './lookup/answer.ts';
import { isParseError, type LookupFlow } from './lookup/index.ts';

/** `top_influencers`' inputs as a model fills them: strings or numbers, any of them missing. */
export interface TopInfluencersInputs {
  readonly databases?: unknown;
  readonly window?: unknown;
  readonly top?: unknown;
  readonly metric?: unknown;
  readonly compare?: unknown;
  readonly stakeholders?: unknown;
  readonly zone?: unknown;
}

export interface ReadWindowInputs {
  readonly text?: unknown;
  readonly zone?: unknown;
}

/** What a tool call ends with: data and words, or the words saying what to change. */
export type ToolOutcome<T> =
  | { readonly ok: true; readonly content: T; readonly text: string }
  | { readonly ok: false; readonly error: string };

export interface ToolContext {
  /** The zone a window is read in unless the inputs name one: the person's, or UTC. */
  readonly zone: string;
  /** True when `zone` is UTC because the person's zone could not be read; the answer says so. */
  readonly zoneFallback?: boolean;
  /** Aborted by a shutdown, or by the client cancelling the call. */
  readonly signal?: AbortSignal;
}

function read(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return cleanText(String(value));
  if (Array.isArray(value))
    return value
      .map(read)
      .filter((part) => part !== '')
      .join(', ');
  return '';
}

/** `value` after `word` unless it already starts with one of `already` (`by`, `vs`, `in`). */
function clause(word: string, value: string, already: RegExp): string {
  if (value === '') return '';
  return already.test(value) ? value : `${word} ${value}`;
}

/**
 * The inputs as the lookup grammar writes them, in the order the app's own examples use:
 * `#hcsm last week top 10 by impressions vs previous period doctors in Europe/London`. Each slot
 * is read through it with the databases alone, and the request is made of those readings.
 */
export function toolLookupText(inputs: TopInfluencersInputs): string {
  const top = read(inputs.top);
  return [
    read(inputs.databases),
    read(inputs.window),
    clause('top', top, /^top\b/i),
    clause('by', read(inputs.metric), /^(by|ranked by)\b/i),
    clause('vs', read(inputs.compare), /^(vs\.?|versus|compared (to|with))(\s|$)/i),
    read(inputs.stakeholders),
    clause('in', read(inputs.zone), /^in\b/i),
  ]
    .filter((part) => part !== '')
    .join(' ');
}

/**
 * A stand-in database where the grammar needs one: `read_window`'s text names a window alone, and
 * the grammar reads a window only within a lookup; a plain lookup of it is what the databases
 * input is held against. The app's own example, so the parser's suggestions read true.
 */
const windowOnlyDatabase = '#hcsm';

/** The slots `top_influencers` fills besides its databases, each an input of its own. */
const slots = ['window', 'top', 'metric', 'compare', 'stakeholders', 'zone'] as const;

/** What a slot may name besides itself: a window may say its zone (`last week in Tokyo`). */
const alsoAllowed: Readonly<Record<ToolSlot, readonly ToolSlot[]>> = {
  window: ['zone'],
  top: [],
  metric: [],
  compare: [],
  stakeholders: [],
  zone: [],
};

/**
 * The slots `request` names that `base` (the same databases alone) does not. Export, the way of
 * showing, a trend and one person are not slots here: the tool answers or refuses them whole.
 */
function namedSlots(request: LookupRequest, base: LookupRequest): Set<ToolSlot> {
  const named = new Set<ToolSlot>();
  if (request.start !== base.start || request.end !== base.end) named.add('window');
  // An export asks for the whole ranking, which changes the count without naming one.
  if (request.top !== base.top && request.export === base.export) named.add('top');
  if (request.metric !== base.metric || request.orderBy !== base.orderBy) named.add('metric');
  if (request.compare !== undefined && base.compare === undefined) named.add('compare');
  if (request.stakeholders !== undefined && base.stakeholders === undefined) {
    named.add('stakeholders');
  }
  if (request.timezone !== base.timezone || request.zoneAlias !== base.zoneAlias) {
    named.add('zone');
  }
  return named;
}

/** The words `request` read as databases beyond `base`'s: what a slot held that is not its kind. */
function strayWords(request: LookupRequest, base: LookupRequest): string[] {
  const known = new Set(base.databases);
  return request.databases.filter((database) => !known.has(database));
}

type Reading =
  | { readonly ok: true; readonly request: LookupRequest }
  | { readonly ok: false; readonly error: string };

/** A parse as a reading: the request, or the parser's own words. */
function reading(parsed: LookupRequest | ParseError): Reading {
  return isParseError(parsed)
    ? { ok: false, error: parsed.message }
    : { ok: true, request: parsed };
}

/**
 * Reads `slot` (its text `value`) with the databases alone: the parser's words when it cannot,
 * and a refusal naming the slot when the text holds words that are not of its kind or another
 * slot's words.
 */
function readSlot(
  parse: (text: string) => LookupRequest | ParseError,
  databases: string,
  base: LookupRequest,
  slot: ToolSlot,
  value: unknown,
): Reading {
  const read = reading(parse(toolLookupText({ databases, [slot]: value })));
  if (!read.ok) return read;
  const stray = strayWords(read.request, base);
  if (stray.length > 0) return { ok: false, error: toolRefusals.notOfSlot(slot, stray) };
  const other = [...namedSlots(read.request, base)].find(
    (named) => named !== slot && !alsoAllowed[slot].includes(named),
  );
  return other === undefined ? read : { ok: false, error: toolRefusals.otherSlot(slot, other) };
}

/**
 * The request `top_influencers`' inputs ask for, made slot by slot: the databases read alone,
 * each other input read with them and checked to hold its own slot only, then the window (with
 * its count and zone) read once more together and the comparison against that window.
 */
export function requestFromSlots(
  flow: Pick<LookupFlow, 'parse'>,
  inputs: TopInfluencersInputs,
  zone: string,
): Reading {
  const parse = (text: string) => flow.parse(text, zone, true);
  const databases = read(inputs.databases);
  if (databases === '') return { ok: false, error: toolRefusals.noDatabases };
  const plain = reading(parse(windowOnlyDatabase));
  const base = reading(parse(databases));
  if (!base.ok || !plain.ok) return base.ok ? plain : base;
  if (base.request.person !== undefined) return base;
  const inDatabases = [...namedSlots(base.request, plain.request)][0];
  if (inDatabases !== undefined) {
    return { ok: false, error: toolRefusals.otherSlot('databases', inDatabases) };
  }
  const readings: Partial<Record<ToolSlot, LookupRequest>> = {};
  for (const slot of slots) {
    if (read(inputs[slot]) === '') continue;
    const slotReading = readSlot(parse, databases, base.request, slot, inputs[slot]);
    if (!slotReading.ok) return slotReading;
    readings[slot] = slotReading.request;
  }
  const { window, top, zone: inZone, compare } = inputs;
  const framed = reading(parse(toolLookupText({ databases, window, top, zone: inZone })));
  if (!framed.ok || readings.compare === undefined) return withSlots(framed, readings);
  const compared = reading(parse(toolLookupText({ databases, window, compare, zone: inZone })));
  if (!compared.ok) return compared;
  return withSlots(framed, { ...readings, compare: compared.request });
}

/** The window's reading with what the comparison, stakeholder and metric slots read. */
function withSlots(framed: Reading, readings: Partial<Record<ToolSlot, LookupRequest>>): Reading {
  if (!framed.ok) return framed;
  const { compare, stakeholders, metric } = readings;
  return {
    ok: true,
    request: {
      ...framed.request,
      ...defined({
        compare: compare?.compare,
        stakeholders: stakeholders?.stakeholders,
        metric: metric?.metric,
        orderBy: metric?.orderBy,
      }),
    },
  };
}

/** What the answer says besides the ranking: a zone read as UTC, or a zone's name read. */
function noteFor(request: LookupRequest, context: ToolContext): string | undefined {
  const notes = [
    context.zoneFallback ? utcFallbackNote : undefined,
    request.zoneAlias === undefined
      ? undefined
      : zoneAliasNote(request.zoneAlias, request.timezone),
  ].filter((line) => line !== undefined);
  return notes.length === 0 ? undefined : notes.join(' ');
}

/**
 * `top_influencers`: the ranking the inputs ask for, as data and as the DM answer words it (a
 * table past the list's ten, as there). An export asked for reads as the ranking itself; a trend or
 * one person's answer is refused with what to ask instead. Never throws.
 */
export async function topInfluencersTool(
  flow: LookupFlow,
  inputs: TopInfluencersInputs,
  context: ToolContext,
): Promise<ToolOutcome<RankingContent>> {
  const read = requestFromSlots(flow, inputs, context.zone);
  if (!read.ok) return read;
  if (read.request.trend !== undefined) return { ok: false, error: toolRefusals.trend };
  if (read.request.person !== undefined) return { ok: false, error: toolRefusals.person };
  // The file of an export has nowhere to go; the ranking itself is the answer.
  const { export: _export, ...request } = read.request;
  const note = noteFor(request, context);
  const answer = await flow.madeOrWords(request, context.signal);
  if (!answer.ok) return { ok: false, error: mrkdwnToPlain(answer.message.text) };
  if (answer.made.kind !== 'ranking') return { ok: false, error: toolRefusals.trend };
  const { current, previous } = answer.made.rankings;
  const message = renderMade(request, answer.made, { actions: false, ...defined({ note }) });
  return {
    ok: true,
    content: rankingContent(request, current, previous, flow.now()),
    text: toolText(message),
  };
}

export interface WindowContent {
  readonly window: WindowReading;
  /** The window it is compared with, when the text asks for a comparison (`vs previous period`). */
  readonly compare?: WindowReading;
  readonly [key: string]: unknown;
}

/**
 * `read_window`: the window the app would use for `text` (`last week`, `Oct 1 to Oct 31 vs
 * previous period`, `yesterday 9am to 5pm in Europe/London`), read exactly as `top_influencers`
 * reads its `window`, `compare` and `zone`. Never throws.
 */
export function readWindowTool(
  flow: LookupFlow,
  inputs: ReadWindowInputs,
  context: Pick<ToolContext, 'zone'>,
): ToolOutcome<WindowContent> {
  const parse = (text: string) => flow.parse(text, context.zone, true);
  const base = reading(parse(windowOnlyDatabase));
  const read = reading(
    parse(
      toolLookupText({ databases: windowOnlyDatabase, window: inputs.text, zone: inputs.zone }),
    ),
  );
  if (!read.ok) return read;
  if (!base.ok) return base;
  const stray = strayWords(read.request, base.request);
  if (stray.length > 0) return { ok: false, error: toolRefusals.notAWindow(stray) };
  const other = [...namedSlots(read.request, base.request)].find(
    (named) => named !== 'window' && named !== 'zone' && named !== 'compare',
  );
  if (other !== undefined) return { ok: false, error: toolRefusals.otherSlot('text', other) };
  return windowOutcome(read.request, flow.now());
}

function windowOutcome(request: LookupRequest, now: Date): ToolOutcome<WindowContent> {
  const window = windowReading(request, now);
  const compare =
    request.compare === undefined
      ? undefined
      : windowReading({ ...request.compare, timezone: request.timezone }, now);
  return {
    ok: true,
    content: { window, ...defined({ compare }) },
    text: readWindowText(window, compare),
  };
}
