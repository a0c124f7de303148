/**
 * The Workflow Builder step `top_influencers`: its inputs read as one line of the lookup grammar,
 * asked of the service as a lookup is, and finished with three outputs or the words for what went
 * wrong. Bolt-free: the Slack layer passes the inputs in and calls complete() or fail().
 */
import { defaultMetric } from '../model/metrics.ts';
import { topRange } from '../parsing/index.ts';
import { cleanText } from '../render/format.ts';
import { bareHandle, rankingOf } from '../render/ranking.ts';
import { renderStepSummary, stepTopOutOfRange } from '../render/workflow-step.ts';
import { isParseError, type LookupFlow } from './lookup.ts';

/** The step's inputs as Workflow Builder sends them: any may be missing or of another type. */
export interface StepInputs {
  readonly databases?: unknown;
  readonly window?: unknown;
  readonly top?: unknown;
  readonly metric?: unknown;
}

export interface StepOutputs {
  /** The ranking as mrkdwn. */
  readonly summary: string;
  /** The first influencer's handle without @; empty when nobody ranks. */
  readonly top_handle: string;
  readonly count: number;
}

export type StepOutcome =
  | { readonly ok: true; readonly outputs: StepOutputs }
  | { readonly ok: false; readonly error: string };

/** The step's default count: a list's ten, as a lookup's. */
export const stepDefaultTop = 10;

/** The inputs as given, read as none when Workflow Builder sends no object (missing, `null`). */
export function stepInputs(inputs: unknown): StepInputs {
  return typeof inputs === 'object' && inputs !== null && !Array.isArray(inputs) ? inputs : {};
}

/**
 * The inputs as one line of the lookup grammar (`#hcsm last week top 10 by impressions`), or why
 * `top` is refused: the step allows 1 to 50 whatever the grammar would make of more.
 */
export function stepLookupText(inputs: StepInputs): { text: string } | { error: string } {
  const read = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' ? cleanText(String(value)) : '';
  const topText = read(inputs.top);
  const top = topText === '' ? stepDefaultTop : Number(topText);
  if (!Number.isInteger(top) || top < topRange.min || top > topRange.max) {
    return { error: stepTopOutOfRange(topText, topRange.min, topRange.max) };
  }
  const metric = read(inputs.metric);
  const text = [read(inputs.databases), read(inputs.window), `top ${top}`, metric && `by ${metric}`]
    .filter((part) => part.length > 0)
    .join(' ');
  return { text };
}

/**
 * Runs the step in `zone` (UTC unless the window names one: a workflow has no person whose zone
 * to use); inputs that are not an object read as none. A parse error finishes with the parser's own message; a service failure with the
 * words a lookup gives; neither throws.
 */
export async function topInfluencersStep(
  flow: LookupFlow,
  inputs: unknown,
  options: { readonly zone: string; readonly signal?: AbortSignal },
): Promise<StepOutcome> {
  const asked = stepLookupText(stepInputs(inputs));
  if ('error' in asked) return { ok: false, error: asked.error };
  const parsed = flow.parse(asked.text, options.zone, true);
  if (isParseError(parsed)) return { ok: false, error: parsed.message };
  // A step's summary is text: a table or a chart asked for in the window reads as the list.
  const { presentation: _presentation, export: _export, ...request } = parsed;
  const answer = await flow.rankingOrWords(request, options.signal);
  if (!answer.ok) return { ok: false, error: answer.message.text };
  const ranking = rankingOf(answer.result, request.metric ?? defaultMetric, request.top);
  const first = ranking.rows[0];
  return {
    ok: true,
    outputs: {
      summary: renderStepSummary(request, answer.result, flow.now()),
      top_handle: first === undefined ? '' : bareHandle(first.handle),
      count: ranking.rows.length,
    },
  };
}
