import type { AllMiddlewareArgs, AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { SlackDeps } from '../deps.ts';
import { requestTeamId } from './team-guard.ts';

/** Events that say the app left (`listeners/events/digest-lifecycle.ts`): not a sign of use. */
const leavingEvents: ReadonlySet<string> = new Set(['app_uninstalled', 'tokens_revoked']);

/**
 * Every request from a workspace, before any listener: the app works there, so digests paused
 * because it had left resume (looked up at most once a minute per workspace, after the request
 * goes on).
 */
export function workspaceActivity(deps: SlackDeps): Middleware<AnyMiddlewareArgs> {
  return async (args: AnyMiddlewareArgs & AllMiddlewareArgs) => {
    const body = args.body as { type?: unknown; event?: { type?: unknown } };
    const teamId = requestTeamId(args.body) ?? args.context.teamId;
    const leaving = body.type === 'event_callback' && leavingEvents.has(String(body.event?.type));
    if (teamId !== undefined && !leaving) {
      void deps.inFlight.track(
        deps.digests.workspaceActive(teamId).catch((error: unknown) => {
          deps.logger.warn({ err: error, teamId }, 'could not resume the workspace’s digests');
        }),
      );
    }
    await args.next();
  };
}
