/**
 * Slack's failures read once, here: every error a Web API call throws that the digest engine or a
 * listener acts on becomes one of the app's errors, carrying what they need (the channel problem,
 * Retry-After, whether a post may have gone through). Nothing outside this folder reads Slack's
 * error payloads.
 */
import {
  type ChannelProblem,
  ChannelUnreachableError,
  ExportFailedError,
  SlackBlocksRefusedError,
  SlackCallError,
  SlackRateLimitedError,
  SlackTokenRejectedError,
} from '../../errors.ts';
import { slackErrorString, slackRateLimit } from './client.ts';

/**
 * Slack error strings (chat.postMessage, conversations.join) that no retry can fix, and what they
 * mean for the channel.
 */
export const slackChannelProblems: Readonly<Record<string, ChannelProblem>> = {
  not_in_channel: 'not_in_channel',
  channel_not_found: 'not_found',
  is_archived: 'archived',
  channel_is_archived: 'archived',
  restricted_action: 'restricted',
  restricted_action_read_only_channel: 'restricted',
  restricted_action_thread_only_channel: 'restricted',
  restricted_action_non_threadable_channel: 'restricted',
  cannot_join: 'restricted',
  method_not_supported_for_channel_type: 'not_in_channel',
};

/** The bot token itself is no good: no retry helps, an admin must reinstall or replace it. */
const tokenProblems = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'missing_scope',
  'not_allowed_token_type',
]);

/** `ok: false` answers that say Slack was briefly unable rather than refusing. */
const transientSlackErrors = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

/**
 * `ok: false` answers that, by Slack's own description, may come after part of the work was done:
 * "It's possible some aspect of the operation succeeded before the error was raised."
 */
const maybeDoneErrors = new Set(['internal_error', 'fatal_error']);

/**
 * Network failures that happen before a request leaves this machine (no connection, no address),
 * so Slack cannot have acted on it. undici reports them in `cause.code`.
 */
const notSentCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

interface WebApiErrorShape {
  readonly code?: unknown;
  readonly statusCode?: unknown;
}

/** Codes at any depth of `original` / `cause`, as the Web API client and fetch nest them. */
function nestedCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, original, cause } = current as {
      code?: unknown;
      original?: unknown;
      cause?: unknown;
    };
    if (typeof code === 'string') codes.push(code);
    current = original ?? cause;
  }
  return codes;
}

/**
 * The type of the block Slack refused with `invalid_blocks`, read from the JSON pointer of its
 * message (`[ERROR] unsupported type: data_table [json-pointer:/blocks/3/type]`) and looked up in
 * the blocks that were sent; failing that, the type the message names. Undefined when neither says.
 */
export function refusedBlockType(
  error: unknown,
  blocks: readonly { readonly type: string }[],
): string | undefined {
  const data = (error as { data?: { response_metadata?: { messages?: unknown } } } | undefined)
    ?.data;
  const messages = data?.response_metadata?.messages;
  for (const message of Array.isArray(messages) ? messages : []) {
    if (typeof message !== 'string') continue;
    const index = /json-pointer:\/blocks\/(\d+)/.exec(message)?.[1];
    const pointed = index === undefined ? undefined : blocks[Number(index)]?.type;
    if (pointed !== undefined) return pointed;
    const named = /unsupported type: ([a-z_]+)/.exec(message)?.[1];
    if (named !== undefined) return named;
  }
  return undefined;
}

/**
 * A failed call as the app's error: Slack's rate limit with its Retry-After, blocks Slack refused,
 * a channel the bot cannot post to, a rejected token, or any other Web API failure as a {@link SlackCallError} that says
 * whether to try again and whether the call may have taken effect (chat.postMessage has no
 * idempotency key: a 5xx, `internal_error`/`fatal_error`, or a request lost after it was sent may
 * have posted). Errors that did not come from the Web API client are returned unchanged.
 */
export function toAppError(
  method: string,
  channelId: string,
  error: unknown,
  sent: { readonly blocks?: readonly { readonly type: string }[] } = {},
): unknown {
  const limit = slackRateLimit(error);
  if (limit !== undefined) {
    return new SlackRateLimitedError(method, limit.retryAfterMs, { cause: error });
  }
  const reason = slackErrorString(error);
  if (reason === 'invalid_blocks') {
    return new SlackBlocksRefusedError(refusedBlockType(error, sent.blocks ?? []), {
      cause: error,
    });
  }
  if (reason !== undefined) {
    const problem = slackChannelProblems[reason];
    if (problem !== undefined)
      return new ChannelUnreachableError(channelId, problem, { cause: error });
    if (tokenProblems.has(reason)) return new SlackTokenRejectedError(reason, { cause: error });
    return new SlackCallError(
      {
        method,
        reason,
        transient: transientSlackErrors.has(reason),
        mayHaveActed: maybeDoneErrors.has(reason),
        answered: true,
      },
      { cause: error },
    );
  }
  const shape = (error ?? {}) as WebApiErrorShape;
  if (shape.code === 'slack_webapi_http_error') {
    const status = Number(shape.statusCode);
    return new SlackCallError(
      {
        method,
        reason: `http_${status}`,
        transient: status >= 500,
        mayHaveActed: status >= 500,
        answered: true,
      },
      { cause: error },
    );
  }
  if (shape.code === 'slack_webapi_request_error') {
    const codes = nestedCodes(error);
    return new SlackCallError(
      {
        method,
        reason: codes.find((code) => code !== 'slack_webapi_request_error') ?? 'request_failed',
        transient: true,
        mayHaveActed: !codes.some((code) => notSentCodes.has(code)),
        answered: false,
      },
      { cause: error },
    );
  }
  return error;
}

/** Refusals of an upload that mean the file cannot go to that conversation. */
const unreachableForFiles = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'restricted_action',
  'method_not_supported_for_channel_type',
]);

/**
 * A failed CSV upload (conversations.open, files.getUploadURLExternal, the POST of the bytes,
 * files.completeUploadExternal) as the app's error: a scope the installation lacks, a
 * conversation the bot cannot post in, or a refusal; Slack's rate limit as for any call. An error
 * that did not come from Slack is returned unchanged.
 */
export function toExportError(channelId: string | undefined, error: unknown): unknown {
  if (slackRateLimit(error) !== undefined) return toAppError('files.uploadV2', '', error);
  const reason = slackErrorString(error);
  if (reason === 'missing_scope' || reason === 'not_allowed_token_type') {
    return new ExportFailedError('missing_scope', channelId, { cause: error });
  }
  if (reason !== undefined && unreachableForFiles.has(reason)) {
    return new ExportFailedError('not_in_channel', channelId, { cause: error });
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (reason !== undefined || (typeof code === 'string' && code.startsWith('slack_'))) {
    return new ExportFailedError('refused', channelId, { cause: error });
  }
  // The upload helper throws a plain Error when the bytes are refused at the upload URL.
  if (
    error instanceof Error &&
    /^(Failed to upload file|No upload url found)/.test(error.message)
  ) {
    return new ExportFailedError('refused', channelId, { cause: error });
  }
  return error;
}
