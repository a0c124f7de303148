import type { HomeView, KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../logger.ts';
import { renderConferenceHome } from '../../render/management/conference-management.ts';
import { renderDigestHomeSection } from '../../render/management/digest-management.ts';
import { renderHome } from '../../render/management/home.ts';
import type { SlackDeps } from '../deps.ts';
import { viewBlocksRefusal, withBlocksFallback } from './blocks-fallback.ts';

/** Who is looking at the Home tab: sections show what belongs to this person in this workspace. */
export interface HomeViewer {
  readonly userId: string;
  readonly teamId: string | undefined;
}

/** "Your digests": the digests the viewer created in this workspace. */
async function digestSection(
  deps: SlackDeps,
  { userId, teamId }: HomeViewer,
): Promise<KnownBlock[]> {
  if (teamId === undefined) {
    deps.logger.warn({ userId }, 'no workspace known for this Home tab; digests left out');
    return [];
  }
  const { manager } = deps.digests;
  const digests = await manager.listForCreator(teamId, userId);
  const latestRuns = await manager.latestRuns(digests);
  return renderDigestHomeSection(digests, {
    now: deps.digests.now(),
    viewerId: userId,
    latestRuns,
  });
}

/** The workspace's conferences still running, with their next update. */
async function conferenceSection(deps: SlackDeps, { teamId }: HomeViewer): Promise<KnownBlock[]> {
  const conferences = deps.digests.conferences;
  if (teamId === undefined || conferences === undefined) return [];
  return renderConferenceHome(
    await conferences.listActive(teamId),
    deps.digests.now(),
  ) as KnownBlock[];
}

/**
 * Publishes a person's Home tab: what the bot does, examples, the Look up button, then their
 * digests and the workspace's conferences (a failing section is left out rather than hiding the
 * tab). Called when the tab opens
 * and again after anything on it changes.
 */
export async function publishHome(
  deps: SlackDeps,
  client: WebClient,
  viewer: HomeViewer,
): Promise<void> {
  const sections: KnownBlock[] = [];
  try {
    sections.push(...(await digestSection(deps, viewer)));
  } catch (error) {
    deps.logger.error({ err: error }, 'a Home tab section failed; publishing without it');
  }
  try {
    sections.push(...(await conferenceSection(deps, viewer)));
  } catch (error) {
    deps.logger.error({ err: error }, 'the conferences of the Home tab failed; left out');
  }
  await publishView(client, viewer.userId, renderHome({ sections }), deps.logger);
}

/**
 * views.publish of a person's Home tab. Blocks Slack refuses (a table or a chart it does not
 * accept yet, a picture it cannot fetch; views.publish says `invalid_arguments`) are left out as
 * for messages, and the first such refusal
 * of the process is logged.
 */
export async function publishView(
  client: WebClient,
  userId: string,
  view: HomeView,
  logger: Logger,
): Promise<void> {
  await withBlocksFallback(
    { text: '', blocks: view.blocks as KnownBlock[] },
    (sent) => client.views.publish({ user_id: userId, view: { ...view, blocks: sent.blocks } }),
    logger,
    viewBlocksRefusal,
  );
}
