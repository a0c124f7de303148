/**
 * The Workflow Builder step `top_influencers`: its inputs read as one line of the lookup grammar,
 * asked of the service as a lookup is, and finished with three outputs or the words for what went
 * wrong. A trend (`last 8 weeks weekly`) or one person (`@DrFerreiraI in #hcsm`) is answered as
 * every other surface answers it, its words as the summary. Bolt-free: the Slack layer passes the
 * inputs in and calls complete() or fail().
 */
import type { LookupRequest } from '../model/lookup.ts';
import { defaultMetric } from '../model/metrics.ts';
import { topRange } from '../parsing/index.ts';
import { cleanText } from '../render/format.ts';
import { personPlace, renderPerson } from '../render/lookups/person.ts';
import { bareHandle, rankingOf } from '../render/lookups/ranking.ts';
import { renderTrend, trendOf } from '../render/lookups/trend.ts';
import {
  renderStepSummary,
  stepSummaryOf,
  stepTopOutOfRange,
} from '../render/lookups/workflow-step.ts';
import { isParseError, type LookupFlow, type Made } from './lookup/index.ts';

/** The step's inputs as Workflow Builder sends them: any may be missing or of another type. */
export interface StepInputs {
  readonly databases?: unknown;
  readonly window?: unknown;
  readonly top?: unknown;
  readonly metric?: unknown;
  /** Who to keep, as a lookup says it: `doctors`, `patients and caregivers`, `no pharma`. */
  readonly stakeholders?: unknown;
  /** The Slack user whose zone the window is read in (the person who used the workflow). */
  readonly person?: unknown;
}

export interface StepOutputs {
  /** The ranking, the trend or the person's answer as mrkdwn. */
  readonly summary: string;
  /**
   * The first influencer's handle without @ (a trend's: the latest period's first; a person's:
   * theirs when they rank in the window); absent when nobody ranks, as Slack refuses an output
   * sent empty where the manifest requires it, so the manifest makes it optional.
   */
  readonly top_handle?: string;
  /** How many people the ranking or the trend holds; for one person, 1 when they rank, else 0. */
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
 * The inputs as one line of the lookup grammar (`#hcsm top 10 by impressions last week`), or why
 * `top` is refused: the step allows 1 to 50 whatever the grammar would make of more. An empty
 * `top` says none, so one person's lookup, which takes no count, reads as typed.
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
  // The window last: a zone ending it (`in Europe/Paris`) must not run into the next input.
  const text = [
    read(inputs.databases),
    topText === '' ? '' : `top ${top}`,
    metric && `by ${metric}`,
    read(inputs.stakeholders),
    read(inputs.window),
  ]
    .filter((part) => part.length > 0)
    .join(' ');
  return { text };
}

/**
 * Runs the step in `zone` (the zone of the person the workflow names, else UTC; a zone the window
 * names wins); inputs that are not an object read as none. A parse error finishes with the parser's own message; a service failure with the
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
  const answer = await flow.madeOrWords(request, options.signal);
  if (!answer.ok) return { ok: false, error: answer.message.text };
  return { ok: true, outputs: stepOutputs(request, answer.made, flow.now()) };
}

/** The step's outputs for the answer made for `request`, by the kind of lookup it is. */
export function stepOutputs(request: LookupRequest, made: Made, now: Date): StepOutputs {
  switch (made.kind) {
    case 'trend': {
      const { people } = trendOf(request, made.periods);
      const first = people[0]?.row;
      return {
        summary: stepSummaryOf(renderTrend(request, made.periods)),
        ...(first === undefined ? {} : { top_handle: bareHandle(first.handle) }),
        count: people.length,
      };
    }
    case 'person': {
      const place = personPlace(request, made.rankings.current);
      return {
        summary: stepSummaryOf(renderPerson(request, made.rankings)),
        ...(place === undefined ? {} : { top_handle: bareHandle(place.handle) }),
        count: place === undefined ? 0 : 1,
      };
    }
    case 'ranking': {
      const result = made.rankings.current;
      const ranking = rankingOf(result, request.metric ?? defaultMetric, request.top);
      const first = ranking.rows[0];
      return {
        summary: renderStepSummary(request, result, now),
        ...(first === undefined ? {} : { top_handle: bareHandle(first.handle) }),
        count: ranking.rows.length,
      };
    }
  }
}
