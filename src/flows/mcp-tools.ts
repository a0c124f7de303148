/**
 * The MCP tools `top_influencers` and `read_window`: their inputs read as one line of the lookup
 * grammar, so an agent gets exactly what a person typing the same words in Slack would (every
 * limit, the lookup deadline, shared and cached service calls). Bolt-free and MCP-free: the MCP
 * surface passes the inputs in and turns the outcome into a tool result.
 */
import { defined } from '../model/defined.ts';
import type { LookupRequest } from '../model/lookup.ts';
import { cleanText } from '../render/format.ts';
import {
  type RankingContent,
  rankingContent,
  readWindowText,
  toolRefusals,
  toolText,
  type WindowReading,
  windowReading,
} from '../render/lookups/mcp-tools.ts';
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
 * The inputs as one line of the lookup grammar: `#hcsm last week top 10 by impressions vs previous
 * period doctors in Europe/London`. Nothing is judged here: the parser says what is wrong.
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
 * `top_influencers`: the ranking the inputs ask for, as data and as the DM answer words it (a
 * table past the list's ten, as there). An export asked for reads as the ranking itself; a trend or
 * one person's answer is refused with what to ask instead. Never throws.
 */
export async function topInfluencersTool(
  flow: LookupFlow,
  inputs: TopInfluencersInputs,
  context: ToolContext,
): Promise<ToolOutcome<RankingContent>> {
  const plan = flow.plan(toolLookupText(inputs), {
    zone: context.zone,
    ...defined({ zoneFallback: context.zoneFallback }),
  });
  if (plan.kind === 'help') return { ok: false, error: toolText(plan.message) };
  if (plan.kind === 'invalid') return { ok: false, error: plan.error.message };
  if (plan.request.trend !== undefined) return { ok: false, error: toolRefusals.trend };
  if (plan.request.person !== undefined) return { ok: false, error: toolRefusals.person };
  // The file of an export has nowhere to go; the ranking itself is the answer.
  const { export: _export, ...request } = plan.request;
  const answer = await flow.madeOrWords(request, context.signal);
  if (!answer.ok) return { ok: false, error: mrkdwnToPlain(answer.message.text) };
  if (answer.made.kind !== 'ranking') return { ok: false, error: toolRefusals.trend };
  const { current, previous } = answer.made.rankings;
  const message = renderMade(request, answer.made, {
    actions: false,
    ...defined({ note: plan.note }),
  });
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
 * A stand-in database for `read_window`, whose text names a window alone: the grammar reads a
 * window only within a lookup. The app's own example, so the parser's suggestions read true.
 */
const windowOnlyDatabase = '#hcsm';

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
  const text = toolLookupText({
    databases: windowOnlyDatabase,
    window: inputs.text,
    zone: inputs.zone,
  });
  const parsed = flow.parse(text, context.zone, true);
  if (isParseError(parsed)) return { ok: false, error: parsed.message };
  return windowOutcome(parsed, flow.now());
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
