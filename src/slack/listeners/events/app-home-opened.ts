import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { requestTeamId } from '../../middleware/team-guard.ts';
import { publishHome } from '../../web-api/home.ts';

/** The Home tab opened: published afresh, so it always shows the person's current digests. */
export function appHomeOpened(deps: SlackDeps) {
  return async ({
    event,
    body,
    context,
    client,
  }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    if (event.tab !== 'home') return;
    const teamId = requestTeamId(body) ?? context.teamId;
    try {
      await publishHome(deps, client, { userId: event.user, teamId });
    } catch (error) {
      deps.logger.error({ err: error }, 'could not publish the Home tab');
    }
  };
}
