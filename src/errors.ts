/**
 * The one error hierarchy of the app. Every failure a user can meet is one of these classes, each
 * with a stable `code`; `src/render/errors.ts` turns them into words with one exhaustive switch.
 * Messages here are for logs and developers: they never carry a credential or a token. An error
 * thrown in src/ that is not one of these says why in a `// Not an AppError:` comment above it
 * (an invariant that is a bug if broken, a signal caught nearby); a test holds to it.
 */
import type { ErrorCode } from './model/error-codes.ts';

export type { ErrorCode } from './model/error-codes.ts';

export abstract class AppError extends Error {
  abstract readonly code: ErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Configuration could not be parsed; `problems` lists each variable and what is wrong with it. */
export class ConfigError extends AppError {
  readonly code = 'config_invalid';
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options?: { cause?: unknown }) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`, options);
    this.problems = problems;
  }
}

/**
 * Slack refused the bot token while the app was running (revoked, expired, missing a scope): no
 * retry helps, an admin must reinstall the app or replace SLACK_BOT_TOKEN. A configuration
 * problem found late, so it reads as one wherever configuration problems are handled.
 */
export class SlackTokenRejectedError extends ConfigError {
  /** Slack's error string (`invalid_auth`, `token_revoked`…). */
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(
      [
        `Slack refused the bot token (${reason}): reinstall the app from manifest.yml or update SLACK_BOT_TOKEN.`,
      ],
      options,
    );
    this.reason = reason;
  }
}

/**
 * Slack kept failing (or never answered) `auth.test` until the start-up budget ran out, so the app
 * did not start; `cause` is the last failure. Told as the start sentence, not in Slack.
 */
export class SlackUnreachableError extends AppError {
  readonly code = 'slack_call_failed';
  readonly waitedMs: number;

  constructor(waitedMs: number, cause: unknown) {
    super(`Slack did not confirm the bot token within ${Math.round(waitedMs / 1000)} s`, {
      cause,
    });
    this.waitedMs = waitedMs;
  }
}

export type ParseErrorReason =
  | 'empty'
  | 'no_database'
  | 'too_many_databases'
  | 'unknown_zone'
  | 'bad_top'
  | 'bad_time'
  | 'empty_window'
  | 'inverted_window'
  | 'future_start'
  | 'unrecognised'
  | 'bad_schedule'
  | 'bad_command'
  | 'ambiguous';

/**
 * A request a person typed could not be understood. The message is already written for that person:
 * what was wrong, the fragment, and an example of a valid command.
 *
 * It carries no stack trace: it is an answer to the person, not a fault, and its reason and
 * fragment say where it came from. Capturing one cost about 10 µs, as much as parsing a whole
 * command, for every command refused.
 */
export class ParseError extends AppError {
  readonly code = 'parse_error';
  readonly reason: ParseErrorReason;
  readonly fragment: string | undefined;
  /** The fragment as the person most likely meant it (`last week` for `lst week`), when one is near. */
  readonly correction: string | undefined;

  constructor(reason: ParseErrorReason, message: string, fragment?: string, correction?: string) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.reason = reason;
    this.fragment = fragment;
    this.correction = correction;
  }
}

/** One honest reading of a request: what it means, and the command that asks it and nothing else. */
export interface Reading {
  /** The reading in a few words, for a button or a numbered line: `Nov 3 to Nov 10, 2026`. */
  readonly meaning: string;
  /** The person's own request written so it reads this way only: `#hcsm 2026-11-03 to 2026-11-10`. */
  readonly command: string;
}

/**
 * A request with two honest readings (`3/11/2026 to 10/11/2026` in no known locale): asked, never
 * guessed. Slack offers one button a reading, the console numbered choices, MCP the readings in its
 * error; a surface that knows none of them shows the message, which lists each command. A
 * ParseError, so every caller that handles a refusal handles it.
 */
export class ChoicesError extends ParseError {
  readonly readings: readonly Reading[];

  /** `correction`: what replaces `fragment` in the Try its message closes on, if it has one. */
  constructor(
    message: string,
    readings: readonly Reading[],
    fragment?: string,
    correction?: string,
  ) {
    super('ambiguous', message, fragment, correction);
    this.readings = readings;
  }
}

/** The token endpoint refused the bot's client credentials (400 or 401 there). */
export class CredentialsRejectedError extends AppError {
  readonly code = 'credentials_rejected';
  readonly status: number;

  constructor(status: number, options?: { cause?: unknown }) {
    super(`The analytics token endpoint rejected the client credentials (HTTP ${status})`, options);
    this.status = status;
  }
}

/** A data request was refused with 401 even with a freshly issued token. */
export class UnauthorizedError extends AppError {
  readonly code = 'unauthorized';

  constructor(options?: { cause?: unknown }) {
    super('The analytics service refused a freshly issued access token (HTTP 401 twice)', options);
  }
}

/** 403: the organisation may not read this database. */
export class AccessDeniedError extends AppError {
  readonly code = 'access_denied';
  readonly database: string | undefined;

  constructor(database: string | undefined, serviceMessage?: string) {
    super(serviceMessage ?? `Access denied${database ? ` to ${database}` : ''}`);
    this.database = database;
  }
}

/** 404 (or the service's equivalent): a database in the request does not exist. */
export class UnknownDatabaseError extends AppError {
  readonly code = 'unknown_database';
  readonly database: string | undefined;

  constructor(database: string | undefined, serviceMessage?: string) {
    super(serviceMessage ?? `Unknown database${database ? ` ${database}` : ''}`);
    this.database = database;
  }
}

/** 400/422: the service rejected the parameters; `serviceMessage` is its own explanation. */
export class BadRequestError extends AppError {
  readonly code = 'bad_request';
  readonly status: number;
  readonly serviceMessage: string | undefined;

  constructor(status: number, serviceMessage?: string) {
    super(
      `The analytics service rejected the request (HTTP ${status})${serviceMessage ? `: ${serviceMessage}` : ''}`,
    );
    this.status = status;
    this.serviceMessage = serviceMessage;
  }
}

/** 429 that could not be waited out within the caller's deadline. */
export class RateLimitedError extends AppError {
  readonly code = 'rate_limited';
  /** How long the service asked us to wait, when it said so. */
  readonly retryAfterMs: number | undefined;

  constructor(retryAfterMs?: number) {
    super(
      `The analytics service is rate limiting requests${retryAfterMs === undefined ? '' : ` (retry after ${Math.ceil(retryAfterMs / 1000)} s)`}`,
    );
    this.retryAfterMs = retryAfterMs;
  }
}

/** 5xx that persisted through every retry. */
export class ServiceUnavailableError extends AppError {
  readonly code = 'service_unavailable';
  readonly status: number;
  readonly attempts: number;

  constructor(status: number, attempts: number, options?: { cause?: unknown }) {
    super(`The analytics service answered HTTP ${status} after ${attempts} attempt(s)`, options);
    this.status = status;
    this.attempts = attempts;
  }
}

export type TimeoutPhase = 'connect' | 'headers' | 'body' | 'deadline';

/** The request, or the whole operation with its retries, ran out of time. */
export class TimeoutError extends AppError {
  readonly code = 'timeout';
  readonly phase: TimeoutPhase;
  readonly afterMs: number;

  constructor(phase: TimeoutPhase, afterMs: number, options?: { cause?: unknown }) {
    super(`The analytics request timed out (${phase}, after ${afterMs} ms)`, options);
    this.phase = phase;
    this.afterMs = afterMs;
  }
}

/** The service could not be reached (DNS, refused, reset) through every retry. */
export class NetworkError extends AppError {
  readonly code = 'network';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The service answered something that is not what the contract says (non-JSON, wrong shape). */
export class InvalidResponseError extends AppError {
  readonly code = 'invalid_response';
  readonly status: number;

  constructor(status: number, detail: string, options?: { cause?: unknown }) {
    super(`The analytics service sent an invalid response (HTTP ${status}): ${detail}`, options);
    this.status = status;
  }
}

/**
 * The service's answer ran past the most the client reads of one response, so the rest was never
 * read: a contract failure like InvalidResponseError, kept apart because no honest answer comes
 * near the cap and the person is told so.
 */
export class ResponseTooLargeError extends AppError {
  readonly code = 'response_too_large';
  readonly status: number;
  /** The most the client reads of one answer. */
  readonly capBytes: number;
  /** Body bytes received before the client stopped reading; 0 when a declared length refused it. */
  readonly bytesRead: number;
  /** The service's Content-Length, when it declared one. */
  readonly declaredBytes: number | undefined;

  constructor(details: {
    readonly status: number;
    readonly capBytes: number;
    readonly bytesRead: number;
    readonly declaredBytes?: number | undefined;
  }) {
    const declared =
      details.declaredBytes === undefined ? '' : `, ${details.declaredBytes} bytes declared`;
    super(
      `The analytics service sent an answer over the ${details.capBytes}-byte cap (HTTP ${details.status}${declared}); stopped after ${details.bytesRead} bytes`,
    );
    this.status = details.status;
    this.capBytes = details.capBytes;
    this.bytesRead = details.bytesRead;
    this.declaredBytes = details.declaredBytes;
  }
}

/** A request came from a Slack workspace this deployment does not serve. */
export class TeamNotAllowedError extends AppError {
  readonly code = 'team_not_allowed';
  readonly teamId: string;

  constructor(teamId: string) {
    super(`Workspace ${teamId} is not allowed to use this app`);
    this.teamId = teamId;
  }
}

export class DigestNotFoundError extends AppError {
  readonly code = 'digest_not_found';
  readonly digestId: string;

  constructor(digestId: string) {
    super(`No digest with id ${digestId}`);
    this.digestId = digestId;
  }
}

/**
 * The digest store did not answer (a connection or a statement timed out, the database refused or
 * dropped the connection): nothing about digests can be read or changed until it answers again,
 * while lookups, which need no store, go on. `reason` says what happened in a few technical words
 * that never carry the database URL or its credentials (`no answer within 5 s`).
 */
export class DigestStoreUnavailableError extends AppError {
  readonly code = 'store_unavailable';
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(`The digest store is unavailable: ${reason}`, options);
    this.reason = reason;
  }
}

/**
 * The digest store could not be opened or migrated at start-up, so the app did not start; `cause`
 * is what the database or the file said. Told as the start sentence, not in Slack.
 */
export class DigestStoreOpenFailedError extends AppError {
  readonly code = 'store_unavailable';
  /** Where the store is (`SQLite ./data/digests.sqlite`, `PostgreSQL host:5432/db`). */
  readonly where: string;

  constructor(where: string, cause: unknown) {
    super(`the digest store (${where}) could not be opened`, { cause });
    this.where = where;
  }
}

/** Only a digest's creator or a workspace admin/owner may change it. */
export class DigestPermissionError extends AppError {
  readonly code = 'digest_permission_denied';
  readonly digestId: string;
  readonly creatorId: string;

  constructor(digestId: string, creatorId: string) {
    super(`Digest ${digestId} can only be changed by its creator or an admin`);
    this.digestId = digestId;
    this.creatorId = creatorId;
  }
}

/** `direct_message`: a DM between people, or a group DM the bot is not part of. */
export type ChannelProblem =
  | 'not_in_channel'
  | 'archived'
  | 'not_found'
  | 'restricted'
  | 'direct_message';

/** The bot cannot post to a channel; `problem` says why so the user can fix it (e.g. /invite). */
export class ChannelUnreachableError extends AppError {
  readonly code = 'channel_unreachable';
  readonly channelId: string;
  readonly problem: ChannelProblem;

  constructor(channelId: string, problem: ChannelProblem, options?: { cause?: unknown }) {
    super(`Cannot post to channel ${channelId}: ${problem}`, options);
    this.channelId = channelId;
    this.problem = problem;
  }
}

/** Slack rate limited a call (HTTP 429 or `ratelimited`) and the caller could not wait it out. */
export class SlackRateLimitedError extends AppError {
  readonly code = 'slack_rate_limited';
  readonly method: string;
  /** How long Slack asked us to wait, when it said so. */
  readonly retryAfterMs: number | undefined;

  constructor(method: string, retryAfterMs?: number, options?: { cause?: unknown }) {
    super(
      `Slack rate limited ${method}${retryAfterMs === undefined ? '' : ` (retry after ${Math.ceil(retryAfterMs / 1000)} s)`}`,
      options,
    );
    this.method = method;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * Slack refused a message's blocks (`invalid_blocks`): nothing was posted. `blockType` names the
 * type of the block Slack pointed at, when it pointed at one.
 */
export class SlackBlocksRefusedError extends AppError {
  readonly code = 'slack_blocks_refused';
  readonly blockType: string | undefined;

  constructor(blockType: string | undefined, options?: { cause?: unknown }) {
    super(
      `Slack refused the message's blocks${blockType ? ` (a ${blockType} block)` : ''}`,
      options,
    );
    this.blockType = blockType;
  }
}

/**
 * Why a CSV export did not arrive: `missing_scope`, the app was installed without the scopes
 * uploads need (`files:write`, `im:write`); `not_in_channel`, the thread it was meant for is in a
 * channel the bot cannot post in; `refused`, Slack did not accept the file.
 */
export type ExportProblem = 'missing_scope' | 'not_in_channel' | 'refused';

/** A CSV export could not be uploaded to Slack. */
export class ExportFailedError extends AppError {
  readonly code = 'export_failed';
  readonly problem: ExportProblem;
  /** The conversation the file was meant for. */
  readonly channelId: string | undefined;

  constructor(problem: ExportProblem, channelId?: string, options?: { cause?: unknown }) {
    super(`The CSV export could not be uploaded: ${problem}`, options);
    this.problem = problem;
    this.channelId = channelId;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * A Slack Web API call failed in a way no more precise class names: an `ok: false` the app has no
 * meaning for, an HTTP error status, or a request that failed on the way. The Slack layer builds
 * it and decides what the digest engine acts on, so the engine never reads Slack's payloads.
 */
export class SlackCallError extends AppError {
  readonly code = 'slack_call_failed';
  readonly method: string;
  /** Slack's error string, `http_<status>`, or the network failure's code: for logs. */
  readonly reason: string;
  /** Worth trying again soon: Slack was briefly unable, not refusing. */
  readonly transient: boolean;
  /** The call may have taken effect although it failed, so it must not be sent again. */
  readonly mayHaveActed: boolean;
  /** False when the request failed on the way (network, timeout) rather than Slack refusing it. */
  readonly answered: boolean;

  constructor(
    details: {
      readonly method: string;
      readonly reason: string;
      readonly transient: boolean;
      readonly mayHaveActed: boolean;
      readonly answered: boolean;
    },
    options?: { cause?: unknown },
  ) {
    super(`Slack ${details.method} failed: ${details.reason}`, options);
    this.method = details.method;
    this.reason = details.reason;
    this.transient = details.transient;
    this.mayHaveActed = details.mayHaveActed;
    this.answered = details.answered;
  }
}

/** Why a sealed credential did not open; see {@link SealedValueError}. */
export type SealedValueProblem = 'unknown_key' | 'not_authentic' | 'malformed';

/**
 * A credential stored sealed (an installation's token, a workspace's analytics secret) did not
 * open: sealed under a key neither APP_ENCRYPTION_KEY nor APP_ENCRYPTION_KEY_PREVIOUS holds, altered
 * or moved from another row, or not a sealed value at all. An admin must restore the key, so it
 * reads as a configuration problem. The message names what was sealed and the key's id, never a
 * byte of the value or of a key.
 */
export class SealedValueError extends AppError {
  readonly code = 'config_invalid';
  readonly problem: SealedValueProblem;
  /** What the value is, as it was sealed (`installations/T0123/bot_token`). */
  readonly context: string;
  /** The id of the key it says it was sealed with, when it says. */
  readonly keyId: string | undefined;

  constructor(problem: SealedValueProblem, context: string, keyId?: string) {
    super(
      problem === 'unknown_key'
        ? `${context} was sealed with key ${keyId}, which is neither APP_ENCRYPTION_KEY nor in APP_ENCRYPTION_KEY_PREVIOUS`
        : problem === 'not_authentic'
          ? `${context} does not open with key ${keyId}: it was altered, or sealed for another row or purpose`
          : `${context} is not a sealed value`,
    );
    this.problem = problem;
    this.context = context;
    this.keyId = keyId;
  }
}
