import type { AllMiddlewareArgs, AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import { TeamNotAllowedError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { renderError } from '../render/errors.ts';

/** The workspace a request comes from, wherever its payload type puts it. */
export function requestTeamId(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  if (typeof record.team_id === 'string') return record.team_id;
  const team = record.team as Record<string, unknown> | null | undefined;
  if (team && typeof team.id === 'string') return team.id;
  const user = record.user as Record<string, unknown> | undefined;
  if (user && typeof user.team_id === 'string') return user.team_id;
  return undefined;
}

/**
 * Refuses every request from a workspace outside `allowedTeamIds` before any handler runs: the
 * person gets the renderer's refusal and no data. An empty list allows every workspace.
 */
export function teamGuard(
  allowedTeamIds: readonly string[],
  logger: Logger,
): Middleware<AnyMiddlewareArgs> {
  const allowed = new Set(allowedTeamIds);
  return async (args: AnyMiddlewareArgs & AllMiddlewareArgs) => {
    const teamId = requestTeamId(args.body) ?? args.context.teamId;
    if (allowed.size === 0 || (teamId !== undefined && allowed.has(teamId))) {
      await args.next();
      return;
    }
    logger.warn({ teamId }, 'refused a request from a workspace that is not allowed');
    const refusal = renderError(new TeamNotAllowedError(teamId ?? 'unknown'));
    const ack = 'ack' in args ? args.ack : undefined;
    if (args.body.type === undefined && 'command' in args) {
      await args.ack({ response_type: 'ephemeral', ...refusal });
      return;
    }
    if (ack !== undefined) await (ack as () => Promise<void>)();
    if ('respond' in args && args.respond !== undefined && args.body.type === 'block_actions') {
      await args.respond({ response_type: 'ephemeral', replace_original: false, ...refusal });
    }
  };
}
