/**
 * What each kind of lookup asks the analytics service, and how its answer and its file are made:
 * a ranking (compared or not), a trend's periods, or one person's windows. The lookup flow runs
 * these within its deadline; every question goes through its client, so identical ones are
 * shared in flight and cached.
 */
import type { InfluencersResult } from '../../analytics/types.ts';
import { defined } from '../../model/defined.ts';
import { type LookupRequest, personWeeks, wholeRankingLimit } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import { type AnswerOptions, renderAnswer } from '../../render/answer.ts';
import { type CsvFile, renderCsv } from '../../render/csv.ts';
import { type PersonRankings, renderPerson } from '../../render/person.ts';
import { type PeriodRanking, renderTrend } from '../../render/trend.ts';
import { renderTrendCsv } from '../../render/trend-csv.ts';
import { recentPeriods, trendPeriods } from '../../time/periods.ts';

/** A ranking and, for a compared lookup, the ranking of the window it is compared with. */
export interface Rankings {
  readonly current: InfluencersResult;
  readonly previous?: InfluencersResult;
}

/** What an answer is made from: a ranking (compared or not), a trend's periods, or a person's. */
export type Made =
  | { readonly kind: 'ranking'; readonly rankings: Rankings }
  | { readonly kind: 'trend'; readonly periods: readonly PeriodRanking[] }
  | { readonly kind: 'person'; readonly rankings: PersonRankings };

/** How an answer is shown, whatever its kind (a ranking's presentation applies to it alone). */
export type RenderOptions = Omit<AnswerOptions, 'previous'>;

/** Asks the service for a request's ranking (the flow's client, within its deadline). */
export type Ask = (request: LookupRequest) => Promise<InfluencersResult>;

/** The whole ranking (the service's most) of `request`'s window. */
function whole(request: LookupRequest, ask: Ask): Promise<InfluencersResult> {
  return ask({ ...request, top: wholeRankingLimit });
}

/**
 * Each period's ranking of a trend, as deep as the service goes (its top 500), all asked at
 * once: a period asks what a lookup of that window by the same metric asks for its whole
 * ranking (an export, a person's week), so they share one call.
 */
export function askTrend(request: LookupRequest, ask: Ask): Promise<PeriodRanking[]> {
  const periods = trendPeriods(request, request.trend?.unit ?? 'week');
  return Promise.all(
    periods.map(async (period) => ({
      period,
      result: await whole({ ...request, start: period.start, end: period.end }, ask),
    })),
  );
}

/**
 * What a person's answer is read from, all asked at once: the whole ranking of the window, of
 * `request.compare`'s window (the window itself when it compares with none), and of each of the
 * last {@link personWeeks} ISO weeks at `now`, the weeks `last 8 weeks weekly` asks for, so a
 * trend and a person's answer share them.
 */
export async function askPerson(
  request: LookupRequest,
  now: Date,
  ask: Ask,
): Promise<PersonRankings> {
  const weeks = recentPeriods('week', personWeeks, now, request.timezone);
  const [current, previous, ...results] = await Promise.all([
    whole(request, ask),
    whole(comparedWindow(request) ?? request, ask),
    ...weeks.map((week) => whole({ ...request, start: week.start, end: week.end }, ask)),
  ]);
  return {
    current,
    previous,
    weeks: weeks.map((period, index) => ({
      period,
      result: results[index] ?? { influencers: [] },
    })),
  };
}

/** The lookup of the window `request` compares with; undefined when it compares with none. */
export function comparedWindow(request: LookupRequest): LookupRequest | undefined {
  const { compare, ...rest } = request;
  if (compare === undefined) return undefined;
  return { ...rest, start: compare.start, end: compare.end };
}

/** The answer to `request` from what it was made of. */
export function renderMade(
  request: LookupRequest,
  made: Made,
  options: RenderOptions,
): SlackMessage {
  switch (made.kind) {
    case 'trend':
      return renderTrend(request, made.periods, options);
    case 'person':
      return renderPerson(request, made.rankings, options);
    case 'ranking': {
      const { previous } = made.rankings;
      return renderAnswer(request, made.rankings.current, { ...options, ...defined({ previous }) });
    }
  }
}

/** The CSV file of an answer that asked for one; a person's answer has none. */
export function fileOf(request: LookupRequest, made: Made): CsvFile | undefined {
  switch (made.kind) {
    case 'trend':
      return renderTrendCsv(request, made.periods);
    case 'person':
      return undefined;
    case 'ranking':
      return renderCsv(request, made.rankings.current);
  }
}
