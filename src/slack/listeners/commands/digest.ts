/**
 * `/influencers digest …` and `/influencers digests`. The ack carries only what needs nothing
 * slow (the help, a grammar error); everything that reads the store or asks Slack happens after
 * it and answers through response_url, ephemerally.
 */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { RunNowResult } from '../../../digests/runner.ts';
import { runWindow } from '../../../digests/schedule.ts';
import { isAppError, ParseError } from '../../../errors.ts';
import type { DigestAccess, DigestCaller, DigestManager } from '../../../flows/digest-manager.ts';
import { isPersonsMistake } from '../../../flows/lookup.ts';
import type { Logger } from '../../../logger.ts';
import { defined } from '../../../model/defined.ts';
import type { Digest } from '../../../model/digest.ts';
import type { SlackMessage } from '../../../model/message.ts';
import { createsDigest, type DigestCommand, parseDigestCommand } from '../../../parsing/digest.ts';
import {
  type DigestActionResult,
  renderDigestActionResult,
  renderDigestCreated,
  renderDigestHelp,
  renderDigestList,
} from '../../../render/digests.ts';
import { renderError } from '../../../render/errors.ts';
import { digestUtcFallbackNote } from '../../../render/status.ts';
import type { SlackDeps, Subcommand } from '../../deps.ts';
import { typedText } from '../../support/text.ts';
import type { AdminDirectory } from '../../web-api/digest-access.ts';
import { slackDigestAccess } from '../../web-api/digest-access.ts';
import { ResponseUrl } from '../../web-api/response-url.ts';

/** What the digest handlers share: the rules, the admin cache and the clock. */
export interface DigestSurface {
  /** Throws until the store is open (the app opens it before it listens). */
  readonly manager: DigestManager;
  readonly admins: AdminDirectory;
  readonly logger: Logger;
  readonly now: () => Date;
}

/** A run's outcome as the action result renders it. */
export function runActionResult(digest: Digest, result: RunNowResult): DigestActionResult {
  switch (result.outcome) {
    case 'posted':
    case 'already':
    case 'unconfirmed':
      return { action: 'run', digest, outcome: result.outcome };
    case 'failed':
      return {
        action: 'run',
        digest,
        outcome: 'failed',
        failure: {
          code: result.failure.code,
          ...defined({ channelProblem: result.failure.channelProblem }),
        },
      };
  }
}

/** A person's mistake at info, other app errors as warnings; anything else is ours: an error. */
export function logDigestFailure(logger: Logger, error: unknown, what: string): void {
  if (isPersonsMistake(error)) {
    logger.info({ code: error.code, reason: error.message }, what);
  } else if (isAppError(error)) logger.warn({ err: error, code: error.code }, what);
  else logger.error({ err: error }, what);
}

export function digestCommand(surface: DigestSurface, deps: SlackDeps): Subcommand {
  return async ({ command, ack, client, context }) => {
    const text = typedText(command.text);
    // Only a new digest depends on the creator's zone: nothing else waits on users.info.
    const zone = createsDigest(text)
      ? await deps.zones.zoneOf(client, command.user_id)
      : { zone: 'UTC', fallback: false };
    const zoneFallback = zone.fallback;
    const parsed = parseDigestCommand(text, { now: surface.now(), zone: zone.zone });
    if (parsed instanceof ParseError) {
      await ack({ response_type: 'ephemeral', ...renderError(parsed) });
      return;
    }
    if (parsed.kind === 'help') {
      await ack({ response_type: 'ephemeral', ...renderDigestHelp({ command: command.command }) });
      return;
    }
    await ack();

    const reply = new ResponseUrl(command.response_url, deps.fetch, deps.logger);
    const botUserId = context.botUserId;
    const request: CommandRequest = {
      surface,
      deps,
      args: { command, client },
      reply,
      text,
      zoneFallback,
      caller: { teamId: command.team_id, userId: command.user_id },
      ...defined({ botUserId }),
    };
    await deps.inFlight.track(answer(request, parsed));
  };
}

interface CommandRequest {
  readonly surface: DigestSurface;
  readonly deps: SlackDeps;
  readonly args: Pick<SlackCommandMiddlewareArgs & AllMiddlewareArgs, 'command' | 'client'>;
  readonly reply: ResponseUrl;
  readonly text: string;
  readonly zoneFallback: boolean;
  readonly caller: DigestCaller;
  readonly botUserId?: string;
}

/** Slack's side of a digest command: answers through response_url, ephemerally; never throws. */
async function answer(
  request: CommandRequest,
  parsed: Exclude<DigestCommand, { kind: 'help' }>,
): Promise<void> {
  const { surface, reply, caller, args } = request;
  const { command, client } = args;
  await answerDigestCommand(
    {
      manager: surface.manager,
      logger: surface.logger,
      now: surface.now,
      caller,
      channelId: command.channel_id,
      access: slackDigestAccess(
        client,
        surface.admins,
        { id: command.channel_id, name: command.channel_name },
        surface.logger,
      ),
      commandName: command.command,
      ...defined({ botUserId: request.botUserId }),
    },
    parsed,
    (message, replace = false) =>
      reply.send({
        response_type: 'ephemeral',
        ...(replace ? { replace_original: true } : {}),
        ...message,
      }),
    request.zoneFallback ? (created) => secondZoneChance(request, created) : undefined,
  );
}

/** The ack could not wait longer for users.info; after it there is time for a second chance. */
async function secondZoneChance(
  request: CommandRequest,
  parsed: Extract<DigestCommand, { kind: 'create' }>,
): Promise<Pick<Extract<DigestCommand, { kind: 'create' }>, 'spec' | 'notes'>> {
  const { surface, deps, args, caller } = request;
  const zone = await deps.zones.zoneOf(args.client, caller.userId);
  const again = zone.fallback
    ? undefined
    : parseDigestCommand(request.text, { now: surface.now(), zone: zone.zone });
  if (again !== undefined && !(again instanceof ParseError) && again.kind === 'create') {
    return { spec: again.spec, notes: again.notes };
  }
  if (parsed.spec.zone === 'UTC' && !/\bin\s+utc\b/i.test(request.text)) {
    return { spec: parsed.spec, notes: [...parsed.notes, digestUtcFallbackNote] };
  }
  return parsed;
}

/** Everything a digest command needs from the surface it came from (Slack or the console). */
export interface DigestCommandContext {
  readonly manager: DigestManager;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly caller: DigestCaller;
  /** The channel the command was typed in: where a created digest posts. */
  readonly channelId: string;
  readonly access: DigestAccess;
  /** `/influencers`, as the person typed it, for the commands quoted back. */
  readonly commandName: string;
  readonly botUserId?: string;
}

/** Shows a message; `replace` replaces the previous one. True when it was shown. */
export type DigestReply = (message: SlackMessage, replace?: boolean) => Promise<boolean>;

/**
 * Does what a digest command asks and answers through `send`; never throws (failures are
 * answered in words). `refine` may adjust a new digest's spec before it is created.
 */
export async function answerDigestCommand(
  context: DigestCommandContext,
  parsed: Exclude<DigestCommand, { kind: 'help' }>,
  send: DigestReply,
  refine?: (
    parsed: Extract<DigestCommand, { kind: 'create' }>,
  ) => Promise<Pick<Extract<DigestCommand, { kind: 'create' }>, 'spec' | 'notes'>>,
): Promise<void> {
  const { manager, caller, access, commandName: command } = context;
  const now = () => context.now();
  try {
    switch (parsed.kind) {
      case 'create': {
        const { spec, notes } = refine ? await refine(parsed) : parsed;
        const created = await manager.create(caller, context.channelId, spec, access);
        await send(
          renderDigestCreated(created.digest, {
            now: now(),
            nextRuns: created.nextRuns,
            windows: created.nextRuns.map((slot) => runWindow(created.digest, slot)),
            notes,
            command,
            ...defined({ botUserId: context.botUserId }),
          }),
        );
        return;
      }
      case 'list': {
        const digests = await manager.listForChannel(caller.teamId, context.channelId);
        await send(
          renderDigestList(digests, {
            now: now(),
            channelId: context.channelId,
            viewerId: caller.userId,
            command,
          }),
        );
        return;
      }
      case 'run': {
        let started = false;
        const outcome = await manager.act(caller, 'run', parsed.id, access, {
          beforeRun: async (digest) => {
            started = await send(
              renderDigestActionResult(
                { action: 'run', digest, outcome: 'started' },
                { now: now(), command },
              ),
            );
          },
        });
        if (outcome.action !== 'run') return;
        await send(
          renderDigestActionResult(runActionResult(outcome.digest, outcome.result), {
            now: now(),
            command,
          }),
          started,
        );
        return;
      }
      case 'pause':
      case 'resume':
      case 'remove': {
        const outcome = await manager.act(caller, parsed.kind, parsed.id, access);
        if (outcome.action === 'run') return;
        await send(
          renderDigestActionResult(
            outcome.action === 'remove'
              ? { action: 'remove', digest: outcome.digest }
              : { action: outcome.action, digest: outcome.digest, changed: outcome.changed },
            { now: now(), command },
          ),
        );
        return;
      }
    }
  } catch (error) {
    logDigestFailure(context.logger, error, `digest ${parsed.kind} failed`);
    await send(
      renderError(error, context.botUserId === undefined ? {} : { botUserId: context.botUserId }),
    );
  }
}
