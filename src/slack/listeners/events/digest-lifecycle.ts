/**
 * The app's own life in a workspace, as it concerns digests: Slack's `app_uninstalled` and
 * `tokens_revoked` events pause the workspace's digests (any other request resumes them: see
 * `middleware/workspace-activity.ts`).
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { WorkspaceGone } from '../../../model/digest.ts';
import type { SlackDeps } from '../../deps.ts';
import { requestTeamId } from '../../middleware/team-guard.ts';

type LifecycleArgs = SlackEventMiddlewareArgs<'app_uninstalled' | 'tokens_revoked'> &
  AllMiddlewareArgs;

function leave(deps: SlackDeps, teamId: string | undefined, kind: WorkspaceGone): Promise<void> {
  if (teamId === undefined) {
    deps.logger.warn({ kind }, 'the app left a workspace that the event does not name');
    return Promise.resolve();
  }
  return deps.inFlight.track(
    deps.digests.workspaceLeft(teamId, kind).catch((error: unknown) => {
      deps.logger.error({ err: error, teamId, kind }, 'could not pause the workspace’s digests');
    }),
  );
}

/** `app_uninstalled`: every digest of the workspace pauses. */
export function appUninstalled(deps: SlackDeps) {
  return async ({ body, context }: LifecycleArgs): Promise<void> => {
    await leave(deps, requestTeamId(body) ?? context.teamId, 'app_uninstalled');
  };
}

/** `tokens_revoked`: the digests pause when the bot's token is among those revoked. */
export function tokensRevoked(deps: SlackDeps) {
  return async ({ event, body, context }: LifecycleArgs): Promise<void> => {
    const bots = (event as { tokens?: { bot?: unknown } }).tokens?.bot;
    if (!Array.isArray(bots) || bots.length === 0) return;
    await leave(deps, requestTeamId(body) ?? context.teamId, 'tokens_revoked');
  };
}
