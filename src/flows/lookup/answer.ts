/** Turns what a lookup was made from into its reply, or says why it ended without one. */
import { type AppError, type ErrorCode, isAppError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import { lookupTopRange } from '../../parsing/index.ts';
import { renderError } from '../../render/errors.ts';
import { type AnswerOptions, renderAnswer } from '../../render/lookups/answer.ts';
import { type CsvFile, renderCsv } from '../../render/lookups/csv.ts';
import { renderPerson } from '../../render/lookups/person.ts';
import {
  renderStoppedByPerson,
  renderStoppedByRestart,
  renderTimedOut,
} from '../../render/lookups/status.ts';
import { renderTrend } from '../../render/lookups/trend.ts';
import { renderTrendCsv } from '../../render/lookups/trend-csv.ts';
import { statusOptions } from './plan.ts';
import { type Made, stopCause } from './run.ts';

/** How an answer is shown, whatever its kind (a ranking's presentation applies to it alone). */
export type RenderOptions = Omit<AnswerOptions, 'previous'>;

export type LookupOutcome = 'answered' | 'failed' | 'timed_out' | 'stopped';

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

/**
 * The request as its message shows it. An export's file holds up to 500 rows, but its message at
 * most a table's 100, and only the list's 10 when no table or chart was asked for.
 */
export function shownInMessage(request: LookupRequest): LookupRequest {
  // A trend's file holds the people its message shows, period by period.
  if (request.export !== true || request.trend !== undefined) return request;
  const max = request.presentation === undefined ? lookupTopRange.listMax : lookupTopRange.tableMax;
  return request.top <= max ? request : { ...request, top: max };
}

/**
 * Why a lookup ended without its ranking, logged (a person's mistake at info without a stack,
 * trouble above it), and the words for it; `now` is the flow's clock, for the status words.
 */
export function failureReply(
  error: unknown,
  request: LookupRequest,
  now: Date,
  logger: Logger,
): { outcome: Exclude<LookupOutcome, 'answered'>; message: SlackMessage } {
  switch (stopCause(error)) {
    case 'person':
      logger.info({ databases: request.databases }, 'lookup stopped by the person');
      return { outcome: 'stopped', message: renderStoppedByPerson(request, statusOptions(now)) };
    case 'restart':
      logger.warn({ databases: request.databases }, 'lookup stopped by the shutdown');
      return { outcome: 'stopped', message: renderStoppedByRestart(request, statusOptions(now)) };
    case 'deadline':
      logger.warn({ databases: request.databases }, 'lookup timed out');
      return { outcome: 'timed_out', message: renderTimedOut(request, statusOptions(now)) };
    case undefined:
      break;
  }
  if (isPersonsMistake(error)) {
    logger.info(
      { code: error.code, databases: request.databases },
      `lookup refused: ${error.code}`,
    );
  } else if (isAppError(error)) {
    logger.warn({ code: error.code, err: error }, 'lookup failed');
  } else {
    logger.error({ err: error }, 'lookup failed unexpectedly');
  }
  return { outcome: 'failed', message: renderError(error) };
}

/**
 * Errors that come from what the person asked for, in a lookup or a digest command: the answer
 * tells them how to fix it, so the logs keep a trace at info, not an alert.
 */
const personsMistakes = new Set<ErrorCode>([
  'parse_error',
  'unknown_database',
  'access_denied',
  'digest_not_found',
  'digest_permission_denied',
  'channel_unreachable',
]);

export function isPersonsMistake(error: unknown): error is AppError {
  return isAppError(error) && personsMistakes.has(error.code);
}
