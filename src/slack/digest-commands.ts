/**
 * `/influencers digest …` and `/influencers digests`. The ack carries only what needs nothing
 * slow (the help, a grammar error); everything that reads the store or asks Slack happens after
 * it and answers through response_url, ephemerally.
 */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { Digest } from '../digests/model.ts';
import type { RunNowResult } from '../digests/runner.ts';
import { runWindow } from '../digests/schedule.ts';
import { isAppError, ParseError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { type DigestCommand, parseDigestCommand } from '../parsing/digest.ts';
import {
  type DigestActionResult,
  renderDigestActionResult,
  renderDigestCreated,
  renderDigestHelp,
  renderDigestList,
} from '../render/digests.ts';
import { renderError } from '../render/errors.ts';
import type { SlackMessage } from '../render/types.ts';
import type { SlackDeps, Subcommand } from './deps.ts';
import type { AdminDirectory } from './digest-access.ts';
import { slackDigestAccess } from './digest-access.ts';
import type { DigestCaller, DigestManager } from './digest-manager.ts';
import { ResponseUrl } from './response-url.ts';
import { typedText } from './text.ts';

/** What the digest handlers share: the rules, the admin cache and the clock. */
export interface DigestSurface {
  /** Throws until the store is open (the app opens it before it listens). */
  readonly manager: DigestManager;
  readonly admins: AdminDirectory;
  readonly logger: Logger;
  readonly now: () => Date;
}

/** Added to a confirmation when the creator's Slack zone could not be read. */
export const digestUtcFallbackNote =
  'Your Slack time zone could not be read in time, so this digest runs in UTC. To choose a zone, remove it and create it again with “in <zone>”, for example in America/New_York.';

/** A run's outcome as the action result renders it. */
export function runActionResult(digest: Digest, result: RunNowResult): DigestActionResult {
  switch (result.outcome) {
    case 'posted':
      return { action: 'run', digest, outcome: 'posted' };
    case 'already':
      return { action: 'run', digest, outcome: 'already' };
    case 'failed':
      return {
        action: 'run',
        digest,
        outcome: 'failed',
        failure: {
          code: result.failure.code,
          ...(result.failure.channelProblem === undefined
            ? {}
            : { channelProblem: result.failure.channelProblem }),
        },
      };
  }
}

/** App errors are the person's to fix and logged as warnings; anything else is ours. */
export function logDigestFailure(logger: Logger, error: unknown, what: string): void {
  if (isAppError(error)) logger.warn({ err: error, code: error.code }, what);
  else logger.error({ err: error }, what);
}

export function digestCommand(surface: DigestSurface, deps: SlackDeps): Subcommand {
  return async ({ command, ack, client, context }) => {
    const text = typedText(command.text);
    let parsed = parseDigestCommand(text, { now: surface.now(), zone: 'UTC' });
    let zoneFallback = false;
    if (!(parsed instanceof ParseError) && parsed.kind === 'create') {
      const zone = await deps.zones.zoneOf(client, command.user_id);
      zoneFallback = zone.fallback;
      parsed = parseDigestCommand(text, { now: surface.now(), zone: zone.zone });
    }
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
      ...(botUserId === undefined ? {} : { botUserId }),
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

/** Does what the command asks and answers it; never throws. */
async function answer(
  request: CommandRequest,
  parsed: Exclude<DigestCommand, { kind: 'help' }>,
): Promise<void> {
  const { surface, reply, caller, args } = request;
  const slashCommand = args.command.command;
  const send = (message: SlackMessage, replace = false) =>
    reply.send({
      response_type: 'ephemeral',
      ...(replace ? { replace_original: true } : {}),
      ...message,
    });
  try {
    switch (parsed.kind) {
      case 'create':
        await send(await create(request, parsed));
        return;
      case 'list': {
        const digests = await surface.manager.listForChannel(
          caller.teamId,
          args.command.channel_id,
        );
        await send(
          renderDigestList(digests, {
            now: surface.now(),
            channelId: args.command.channel_id,
            viewerId: caller.userId,
            command: slashCommand,
          }),
        );
        return;
      }
      case 'run': {
        let started = false;
        const outcome = await surface.manager.act(caller, 'run', parsed.id, access(request), {
          beforeRun: async (digest) => {
            started = await send(
              renderDigestActionResult(
                { action: 'run', digest, outcome: 'started' },
                { now: surface.now(), command: slashCommand },
              ),
            );
          },
        });
        if (outcome.action !== 'run') return;
        await send(
          renderDigestActionResult(runActionResult(outcome.digest, outcome.result), {
            now: surface.now(),
            command: slashCommand,
          }),
          started,
        );
        return;
      }
      case 'pause':
      case 'resume':
      case 'remove': {
        const outcome = await surface.manager.act(caller, parsed.kind, parsed.id, access(request));
        if (outcome.action === 'run') return;
        await send(
          renderDigestActionResult(
            { action: outcome.action, digest: outcome.digest },
            { now: surface.now(), command: slashCommand },
          ),
        );
        return;
      }
    }
  } catch (error) {
    logDigestFailure(surface.logger, error, `digest ${parsed.kind} failed`);
    await send(
      renderError(error, request.botUserId === undefined ? {} : { botUserId: request.botUserId }),
    );
  }
}

function access(request: CommandRequest) {
  const { command, client } = request.args;
  return slackDigestAccess(
    client,
    request.surface.admins,
    { id: command.channel_id, name: command.channel_name },
    request.surface.logger,
  );
}

async function create(
  request: CommandRequest,
  parsed: Extract<DigestCommand, { kind: 'create' }>,
): Promise<SlackMessage> {
  const { surface, deps, args, caller } = request;
  let { spec, notes } = parsed;
  if (request.zoneFallback) {
    // The ack could not wait longer for users.info; now there is time for a second chance.
    const zone = await deps.zones.zoneOf(args.client, caller.userId);
    const again = zone.fallback
      ? undefined
      : parseDigestCommand(request.text, { now: surface.now(), zone: zone.zone });
    if (again !== undefined && !(again instanceof ParseError) && again.kind === 'create') {
      ({ spec, notes } = again);
    } else if (spec.zone === 'UTC' && !/\bin\s+utc\b/i.test(request.text)) {
      notes = [...notes, digestUtcFallbackNote];
    }
  }
  const created = await surface.manager.create(
    caller,
    args.command.channel_id,
    spec,
    access(request),
  );
  return renderDigestCreated(created.digest, {
    now: surface.now(),
    nextRuns: created.nextRuns,
    windows: created.nextRuns.map((slot) => runWindow(created.digest, slot)),
    notes,
    command: args.command.command,
    ...(request.botUserId === undefined ? {} : { botUserId: request.botUserId }),
  });
}
